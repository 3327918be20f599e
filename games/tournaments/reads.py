"""Reads of arenas: one arena as the API and the socket show it (with its standings), the list of arenas, a
person's entry, and which arenas the sweeps must look at."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, Sum
from django.utils import timezone

from games.platform.errors import GameError
from games.platform.rating_scale import shown
from games.ratings.models import Rating

from . import scoring
from .models import ArenaMatch, Entry, Result, Tournament

#: Finished arenas the list shows (the newest).
FINISHED_LISTED = 20


class TournamentNotFound(GameError):
    status = 404

    def __init__(self) -> None:
        super().__init__("not_found", "No such tournament.")


def tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first() if 0 < tournament_id < 2**63 else None
    if found is None:
        raise TournamentNotFound()
    return found


def summary(t: Tournament, now: datetime | None = None, players: int | None = None) -> dict[str, Any]:
    """The arena without its standings (``players``: its entries, when the caller has counted them)."""
    now = now or timezone.now()
    return {"id": t.pk, "name": t.name, "pool": t.pool, "starts_at": t.starts_at.isoformat(),
            "ends_at": t.ends_at.isoformat(), "minutes": t.minutes, "move_seconds": t.move_seconds,
            "rated": t.rated, "rating_limit": t.rating_limit, "phase": t.phase(now),
            "seconds_left": max(0, round((t.ends_at - now).total_seconds())),
            "players": t.entries.count() if players is None else players}


def listing(now: datetime | None = None) -> list[dict[str, Any]]:
    """Running and upcoming arenas (soonest first), then the newest finished ones."""
    now = now or timezone.now()
    live = list(Tournament.objects.filter(closed_at__isnull=True).order_by("starts_at", "id"))
    done = list(Tournament.objects.filter(closed_at__isnull=False).order_by("-starts_at", "-id")[:FINISHED_LISTED])
    return [summary(t, now) for t in [*live, *done]]


def standings_of(tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """The arena's standings as its page and socket show them; None if there is no such arena."""
    try:
        return standings(tournament(tournament_id), now)
    except TournamentNotFound:
        return None


def standings(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """The arena and its standings: every entry by points (then fewer matches, then who joined first), each with
    their results (match ids, for the replays), and the podium once finished. Read as value rows, not model
    objects: the page, the join's answer and every standings send read all of an arena's entries (2 ms instead of
    11 for 200 people and 400 results)."""
    now = now or timezone.now()
    entries = list(Entry.objects.filter(tournament=t).order_by("-points", "matches", "joined_at", "id")
                   .values_list("id", "user_id", "user__username", "status", "points", "matches", "streak",
                                "match_id"))
    results: dict[int, list[dict[str, Any]]] = {e[0]: [] for e in entries}
    for entry_id, match_id, place, points, doubled in (
            Result.objects.filter(entry__tournament=t).order_by("game__started_at", "game_id")
            .values_list("entry_id", "game__match_id", "place", "points", "doubled")):
        results[entry_id].append({"match_id": match_id, "place": place, "points": points, "doubled": doubled})
    rows = [{"rank": rank, "user_id": user_id, "username": username, "status": status, "points": points,
             "points_text": scoring.text(points), "matches": matches, "streak": streak,
             "on_fire": streak >= scoring.STREAK_DOUBLES_AT, "playing": playing, "results": results[entry_id]}
            for rank, (entry_id, user_id, username, status, points, matches, streak, playing)
            in enumerate(entries, start=1)]
    data = summary(t, now, players=len(entries))
    data["standings"] = rows
    data["podium"] = rows[:3] if data["phase"] == "finished" else []
    return data


def with_me(data: dict[str, Any], user: Any) -> dict[str, Any]:
    """The standings with ``me`` (the viewer's entry, None when not joined or signed out), taken from the rows just
    read: no read of its own, and the same moment as the standings (the join's answer to a crowd: one read less)."""
    row = next((r for r in data["standings"] if r["user_id"] == user.pk), None) if user.is_authenticated else None
    data["me"] = None if row is None else {
        "status": row["status"], "points": row["points"], "points_text": row["points_text"],
        "matches": row["matches"], "streak": row["streak"], "playing": row["playing"]}
    return data


def shown_rating(user_id: int) -> int:
    mu = Rating.objects.filter(user_id=user_id).values_list("mu", flat=True).first()
    return shown(float(mu) if mu is not None else 25.0)


def running_ids(now: datetime) -> list[int]:
    """Arenas whose clock runs now (new matches start)."""
    return [t.pk for t in Tournament.objects.filter(closed_at__isnull=True, starts_at__lte=now)
            if now < t.ends_at]


def uncounted_ended(limit: int = 200) -> list[int]:
    """Arena matches finished or aborted but not yet counted (a counting task lost with a worker)."""
    return list(ArenaMatch.objects.filter(counted_at__isnull=True)
                .filter(Q(match__status="finished") | Q(match__status="aborted"))
                .values_list("match_id", flat=True)[:limit])


def to_close(now: datetime) -> list[int]:
    """Arenas past their time, not closed, with no match left to count."""
    return [t.pk for t in Tournament.objects.filter(closed_at__isnull=True, starts_at__lte=now)
            if now >= t.ends_at and not ArenaMatch.objects.filter(tournament=t, counted_at__isnull=True).exists()]


def is_arena_match(match_id: int) -> bool:
    return ArenaMatch.objects.filter(match_id=match_id).exists()


def top_tables(limit: int) -> list[int]:
    """The Watch page's arena section (``games.watching.reads.ARENA_TOP_TABLES``): the running arena matches whose
    people have the most points between them, best first."""
    rows = (Entry.objects.filter(match__isnull=False, match__status="active", tournament__closed_at__isnull=True)
            .order_by().values("match_id").annotate(total=Sum("points")).order_by("-total", "-match_id")[:limit])
    return [int(r["match_id"]) for r in rows]
