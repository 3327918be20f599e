"""Pages of ratings: the leaderboard, a player's profile and how ratings work (server-rendered)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.platform import rating_scale

from . import reads


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    show_bots = request.GET.get("bots", "1") != "0"
    board = "bots" if request.GET.get("board") == "bots" else "people"
    rows = reads.leaderboard(bots=show_bots, board=board)
    return render(request, "leaderboard.html", {
        "settled": [r for r in rows if not r["provisional"]], "provisional": [r for r in rows if r["provisional"]],
        "rows": rows, "show_bots": show_bots, "board": board})


def _sparkline(values: list[float], width: int = 480, height: int = 120) -> str:
    """SVG polyline points for the rating history (empty with fewer than two points)."""
    if len(values) < 2:
        return ""
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    step = width / (len(values) - 1)
    return " ".join(f"{i * step:.1f},{height - (v - lo) / span * (height - 10) - 5:.1f}" for i, v in enumerate(values))


def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    data = reads.profile(username)
    if data is None:
        raise Http404()
    values = [float(rating_scale.SHOWN_BASE)] + [float(h["shown"]) for h in data["history"]]
    stats = data["stats"]
    mean = stats["mean_score"]
    return render(request, "profile.html", {
        "p": data,
        "mean_score": None if mean is None else f"{mean / 10:.1f}",
        "points": _sparkline(values),
        "history": list(reversed(data["history"]))[:50],
    })


def how_ratings_work(request: HttpRequest) -> HttpResponse:
    """The one page that speaks of μ and σ: what the shown number is, and why it moves as it does."""
    return render(request, "ratings_help.html", {
        "base": rating_scale.SHOWN_BASE, "scale": rating_scale.SHOWN_SCALE, "start_mu": f"{reads.MODEL.mu:g}",
        "start_sigma": f"{reads.MODEL.sigma:.2f}", "provisional_sigma": f"{rating_scale.PROVISIONAL_SIGMA:g}",
        "settled_matches": 10, "ten_to_one": 20 * rating_scale.SHOWN_SCALE,
    })
