"""Pages of arenas: the list (server-rendered) and one arena (its standings drawn by ``arena.js`` from the data
in the page, then live from ``/ws/tournaments/{id}/``)."""

from __future__ import annotations

from datetime import datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from . import reads


def arenas_page(request: HttpRequest) -> HttpResponse:
    rows = reads.listing()
    for row in rows:
        row["starts"] = datetime.fromisoformat(row["starts_at"])
    return render(request, "arenas.html", {
        "running": [r for r in rows if r["phase"] in ("running", "finishing")],
        "upcoming": [r for r in rows if r["phase"] == "upcoming"],
        "finished": [r for r in rows if r["phase"] == "finished"],
    })


def arena_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        t = reads.tournament(tournament_id)
    except reads.TournamentNotFound:
        raise Http404() from None
    data = reads.with_me(reads.standings(t, timezone.now()), request.user)
    data["viewer"] = request.user.pk if request.user.is_authenticated else None
    return render(request, "arena.html", {"t": data, "arena_id": t.pk})
