"""Reads of ratings (OpenSkill, Plackett–Luce with ``limit_sigma``): the leaderboard, a person's profile
(rating, history, stats over finished matches), and the rated matches still to rate."""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Case, Count, Max, OuterRef, Q, Subquery, Value, When
from openskill.models import PlackettLuce

from engine.bots import LEVELS
from games.matches import store as match_store
from games.matches.models import Match, Seat
from games.platform.rating_scale import PROVISIONAL_SIGMA, change_json, is_provisional, shown, shown_text

from .models import Rating, RatingChange

MODEL = PlackettLuce(limit_sigma=True)

#: The bot ladder's house bots (the bots' quick-match pool fills its empty seats with them): each its own rating
#: identity (``Rating.bot``, apart from the people's levels ``easy``/``normal``/``hard``), **frozen** at these
#: (mu, sigma) — a fixed yardstick. A program's strength does not change between matches, so its rating need not
#: either; and with a handful of outside bots, yardsticks that moved would drift with whichever bot played them
#: most, so an outside bot's rating would mean something else next month. ``heuristic`` is set where every
#: newcomer starts (mu 25); ``strong`` wins 58.5% of matches against three heuristics (docs/bots.md, 400
#: duplicate matches), which Plackett-Luce puts about 13 mu above (docs/bots-api.md, *Bot ladder*).
YARDSTICKS: dict[str, tuple[float, float]] = {"heuristic": (25.0, 2.0), "strong": (38.0, 2.0)}


def ranks_by_totals(totals: list[int] | tuple[int, ...]) -> list[int]:
    """1 for the best total; equal totals share the better rank (competition ranking)."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


# The rating people see: one number on the familiar 1500 scale that moves with the result. It is the
# estimate of skill itself (mu), not a cautious mu - 3 sigma: the cautious number rises as sigma shrinks, so it
# grew for a newcomer whatever they did and fell below 1500 after a good first match, which nobody could read.
# The shown number (1500 + 20 × (mu − 25), provisional while sigma > 5) is games.platform.rating_scale's, shared with
# the match's end view; frontend/static/js/rating.js shows it, the "How ratings work" page explains it.


def rating_json(rating: Rating | None) -> dict[str, Any]:
    """``shown`` and ``provisional`` are what people see; ``mu``, ``sigma`` and the cautious ``conservative``
    (mu - 3 sigma) are the model's, kept for programs."""
    mu, sigma = (MODEL.mu, MODEL.sigma) if rating is None else (rating.mu, rating.sigma)
    return {"shown": shown(mu), "provisional": is_provisional(sigma), "text": shown_text(mu, sigma),
            "mu": round(mu, 3), "sigma": round(sigma, 3), "conservative": round(mu - 3 * sigma, 2),
            "games": 0 if rating is None else rating.games}


BOARDS = ("people", "bots")


def leaderboard(limit: int = 100, bots: bool = True, board: str = "people") -> list[dict[str, Any]]:
    """Identities with at least one rated game: the settled ratings by the number people see (mu), then the
    provisional ones (``PROVISIONAL_SIGMA``) by theirs, so one lucky first match does not top the board. The
    ``people`` board: people (and the house bot levels unless ``bots`` is false); the ``bots`` board, the bot
    ladder: bot accounts and the ladder's house bots (``YARDSTICKS``), their fixed yardstick."""
    qs = (
        Rating.objects.filter(games__gt=0)
        .filter(Q(user__isnull=True) | Q(user__is_active=True))
        .select_related("user__bot_account")
        .annotate(settling=Case(When(sigma__gt=PROVISIONAL_SIGMA, then=Value(1)), default=Value(0)))
        .order_by("settling", "-mu", "-games", "pk")
    )
    if board == "bots":
        qs = qs.filter(Q(bot__in=list(YARDSTICKS)) | Q(user__bot_account__isnull=False))
    else:
        qs = qs.filter(user__bot_account__isnull=True).exclude(bot__in=list(YARDSTICKS))
        if not bots:
            qs = qs.filter(user__isnull=False)
    rows = []
    for place, r in enumerate(qs[:limit], start=1):
        program = r.user is not None and hasattr(r.user, "bot_account")
        rows.append({"rank": place, "name": r.name, "kind": "bot_account" if program else "human" if r.user_id
                     else "bot", "username": r.user.get_username() if r.user is not None else None,
                     "bot": r.bot or None, "bot_account": program, "fixed": r.bot in YARDSTICKS,
                     **rating_json(r)})
    return rows


def profile(username: str) -> dict[str, Any] | None:
    """A user's rating, rating history and stats over finished matches (matches, wins, mean score, bids made)."""
    user = get_user_model().objects.select_related("bot_account").filter(username=username, is_active=True).first()
    if user is None:
        return None
    rating = Rating.objects.filter(user=user).first()
    history = []
    if rating is not None:
        for ch in rating.changes.order_by("created_at", "id")[:500]:
            history.append({"match_id": ch.match_id, "rank": ch.rank, "at": ch.created_at.isoformat(),
                            "mu": round(ch.mu_after, 3), "sigma": round(ch.sigma_after, 3),
                            "conservative": round(ch.conservative_after, 2),
                            "shown": shown(ch.mu_after), "change": shown(ch.mu_after) - shown(ch.mu_before),
                            "provisional": is_provisional(ch.sigma_after)})
    agg = Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN).aggregate(
        active=Count("pk", filter=Q(match__status=Match.Status.ACTIVE)),
        finished=Count("pk", filter=Q(match__status=Match.Status.FINISHED)),
        last=Max("match__finished_at", filter=Q(match__status=Match.Status.FINISHED)))
    return {
        "username": user.get_username(),
        "bot_account": hasattr(user, "bot_account"),
        "joined": user.date_joined.isoformat(),
        "rating": rating_json(rating),
        "history": history,
        "stats": {**finished_stats(user.pk, agg["finished"], agg["last"]), "active": agg["active"]},
    }


STATS_CACHE_SECONDS = 7 * 86400
#: The cached stats' shape: a new one gets a new key, so a deploy never shows stats cached in the old shape.
STATS_VERSION = 2


def finished_stats(user_id: int, finished: int, last: Any) -> dict[str, Any]:
    """A person's stats over their latest 200 finished matches: matches, wins, mean score (tenths), bids made %,
    and the matches against the bots of each level (``bot_levels``).

    Replaying those matches costs about a CPU-second, so the result is kept in the cache (shared by the web
    processes) under a key that names how many matches the person has finished and when the last one did: a
    newly finished match makes a new key, so the stats are recomputed once per finished match, not per hit."""
    stamp = last.timestamp() if last is not None else 0
    key = f"profile-stats:{STATS_VERSION}:{user_id}:{finished}:{stamp}"
    try:
        cached = cache.get(key)
    except Exception:  # the cache is down: compute
        cached = None
    if cached is not None:
        return dict(cached)
    stats = _compute_finished_stats(user_id)
    with contextlib.suppress(Exception):  # a cache that is down keeps nothing
        cache.set(key, stats, timeout=STATS_CACHE_SECONDS)
    return stats


def _bot_at(index: int) -> Subquery:
    """The bot level at seat ``index`` of the outer seat's match ("" for a person): one lookup on the unique
    (match, index) key, so the seats' query brings the table's bots along instead of one query per match."""
    return Subquery(Seat.objects.filter(match=OuterRef("match"), index=index, kind=Seat.Kind.BOT).values("bot")[:1])


def _level_order(level: str) -> tuple[int, str]:
    return (list(LEVELS).index(level), "") if level in LEVELS else (len(LEVELS), level)


def _compute_finished_stats(user_id: int) -> dict[str, Any]:
    seats = (Seat.objects.filter(user_id=user_id, kind=Seat.Kind.HUMAN, match__status=Match.Status.FINISHED)
             .select_related("match").annotate(**{f"bot{i}": _bot_at(i) for i in range(4)})
             .order_by("-match__finished_at")[:200])
    matches = wins = deals = made = 0
    total = 0
    levels: dict[str, list[int]] = {}  # level -> [played, won, sum of places]
    states = match_store.states_of([seat.match for seat in seats])
    for seat in seats:
        state = states[seat.match_id]
        matches += 1
        won = seat.index in state.winners
        wins += won
        total += state.totals[seat.index]
        for deal in state.completed:
            deals += 1
            made += deal.tricks_won[seat.index] >= deal.bids[seat.index]
        place = ranks_by_totals(state.totals)[seat.index]
        for level in {getattr(seat, f"bot{i}") for i in range(4)} - {None, ""}:
            row = levels.setdefault(level, [0, 0, 0])
            row[0], row[1], row[2] = row[0] + 1, row[1] + won, row[2] + place
    return {
        "matches": matches,
        "wins": wins,
        "mean_score": round(total / matches) if matches else None,  # tenths
        "bids_made_pct": round(100 * made / deals, 1) if deals else None,
        "bot_levels": [{"level": level, "played": n, "won": won, "mean_place": round(places / n, 2)}
                       for level, (n, won, places) in sorted(levels.items(), key=lambda kv: _level_order(kv[0]))],
    }


def match_change(user_id: int, match_id: int) -> dict[str, Any] | None:
    """A person's rating change at one rated match, as people see it (the end-of-match dialog asks for it):
    the shown number before and after, the change, and whether the rating after is still provisional."""
    if not 0 < match_id < 2**63:  # not an id (a database cannot even bind it): no match, no change
        return None
    ch = RatingChange.objects.filter(rating__user_id=user_id, match_id=match_id).first()
    if ch is None:
        return None
    return {"match_id": match_id, "rank": ch.rank,
            **change_json(ch.mu_before, ch.sigma_before, ch.mu_after, ch.sigma_after)}


def unrated_finished(limit: int = 100) -> list[int]:
    """Rated matches that finished but were never rated (a rating task lost with a worker)."""
    return list(Match.objects.filter(status=Match.Status.FINISHED, rated=True, rated_at__isnull=True)
                .values_list("pk", flat=True)[:limit])
