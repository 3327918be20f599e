"""OpenSkill ratings (Plackett–Luce, ``limit_sigma``): one update per rated, finished match.

Seats are ranked by final total (ties share a rank). A person is rated as themselves even if a bot
finished their seat; each bot level is its own identity. ``Match.rated_at`` is set in the same
transaction as the updates, under the match row lock, so a task run twice rates once.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone
from openskill.models import PlackettLuce

from . import selectors
from .models import Match, Rating, RatingChange, Seat

MODEL = PlackettLuce(limit_sigma=True)


def ranks_by_totals(totals: list[int] | tuple[int, ...]) -> list[int]:
    """1 for the best total; equal totals share the better rank (competition ranking)."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


def _identity(seat: Seat) -> Rating:
    defaults = {"mu": MODEL.mu, "sigma": MODEL.sigma}
    if seat.kind == Seat.Kind.HUMAN:
        rating, _ = Rating.objects.get_or_create(user_id=seat.user_id, defaults=defaults)
    else:
        rating, _ = Rating.objects.get_or_create(bot=seat.bot or "normal", user=None, defaults=defaults)
    return rating


def rate_match(match_id: int) -> bool:
    """Update every identity at a finished rated match once; False if there is nothing to do."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match.rated or match.status != Match.Status.FINISHED or match.rated_at is not None:
            return False
        state = selectors.match_state(match)
        ranks = ranks_by_totals(state.totals)
        seats = list(match.seats.order_by("index"))
        ids = [_identity(seat).pk for seat in seats]
        # lock in one order (pk) so two matches sharing a bot identity cannot deadlock
        locked = {r.pk: r for r in Rating.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
        teams = [[MODEL.rating(mu=locked[i].mu, sigma=locked[i].sigma)] for i in ids]
        rated = MODEL.rate(teams, ranks=ranks)
        # A bot level may sit twice at one table: it gets the mean of its seats' results.
        results: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
        for rid, team, rank in zip(ids, rated, ranks, strict=True):
            results[rid].append((team[0].mu, team[0].sigma, rank))
        for rid, outs in results.items():
            rating = locked[rid]
            mu = sum(o[0] for o in outs) / len(outs)
            sigma = sum(o[1] for o in outs) / len(outs)
            RatingChange.objects.create(
                rating=rating, match=match, rank=min(o[2] for o in outs),
                mu_before=rating.mu, sigma_before=rating.sigma, mu_after=mu, sigma_after=sigma,
            )
            rating.mu, rating.sigma, rating.games = mu, sigma, rating.games + 1
            rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        match.rated_at = timezone.now()
        match.save(update_fields=["rated_at"])
    return True


def rating_json(rating: Rating | None) -> dict[str, Any]:
    if rating is None:
        return {"mu": MODEL.mu, "sigma": MODEL.sigma, "conservative": round(MODEL.mu - 3 * MODEL.sigma, 2),
                "games": 0}
    return {"mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
            "conservative": round(rating.conservative, 2), "games": rating.games}


def leaderboard(limit: int = 100, bots: bool = True) -> list[dict[str, Any]]:
    """Identities by conservative rating (mu - 3 sigma), those with at least one rated game."""
    qs = (
        Rating.objects.filter(games__gt=0)
        .filter(Q(user__isnull=True) | Q(user__is_active=True))
        .select_related("user")
        .annotate(cons=F("mu") - 3 * F("sigma"))
        .order_by("-cons", "-games", "pk")
    )
    if not bots:
        qs = qs.filter(user__isnull=False)
    rows = []
    for place, r in enumerate(qs[:limit], start=1):
        rows.append({"rank": place, "name": r.name, "kind": "human" if r.user_id else "bot",
                     "username": r.user.get_username() if r.user_id else None, "bot": r.bot or None,
                     **rating_json(r)})
    return rows


def profile(username: str) -> dict[str, Any] | None:
    """A user's rating, rating history and stats over finished matches (matches, wins, mean score, bids made)."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        return None
    rating = Rating.objects.filter(user=user).first()
    history = []
    if rating is not None:
        for ch in rating.changes.order_by("created_at", "id")[:500]:
            history.append({"match_id": ch.match_id, "rank": ch.rank, "at": ch.created_at.isoformat(),
                            "mu": round(ch.mu_after, 3), "sigma": round(ch.sigma_after, 3),
                            "conservative": round(ch.conservative_after, 2)})
    seats = Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN, match__status=Match.Status.FINISHED).select_related(
        "match").order_by("-match__finished_at")[:200]
    matches = wins = deals = made = 0
    total = 0
    states = selectors.match_states([seat.match for seat in seats])
    for seat in seats:
        state = states[seat.match_id]
        matches += 1
        wins += seat.index in state.winners
        total += state.totals[seat.index]
        for deal in state.completed:
            deals += 1
            made += deal.tricks_won[seat.index] >= deal.bids[seat.index]
    agg = Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN).aggregate(
        all=Count("pk"), active=Count("pk", filter=Q(match__status=Match.Status.ACTIVE)))
    return {
        "username": user.get_username(),
        "joined": user.date_joined.isoformat(),
        "rating": rating_json(rating),
        "history": history,
        "stats": {
            "matches": matches,
            "active": agg["active"],
            "wins": wins,
            "mean_score": round(total / matches) if matches else None,  # tenths
            "bids_made_pct": round(100 * made / deals, 1) if deals else None,
        },
    }



