"""Reads of watching: whether a match may be watched, how many watch it, and what the Watch page lists."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from games.matches import presenters, store
from games.matches.models import Match, Seat
from games.platform.errors import Forbidden, MatchNotFound
from games.ratings.models import Rating
from games.tables.models import Table
from games.web.bounds import ascii_int

from .models import Watcher

# A watcher's socket renews its row every couple of minutes; one not renewed this long is a dead process's.
WATCHER_MAX_AGE = timedelta(minutes=10)

#: A hook for arenas (tournaments, built elsewhere): each callable returns the ids of an arena's top running
#: matches, best first; the Watch page lists them in their own section. Empty until a tournament fills it.
ARENA_TOP_TABLES: list[Callable[[int], list[int]]] = []


def is_private(match: Match) -> bool:
    """A private table's match (its host and the people who came by its invitation, a friend's challenge): it has
    no watchers. Quick matches are seated at private tables too, but with no room code and no chat: watchable."""
    return bool(match.chat) or Table.objects.filter(
        match_id=match.pk, visibility=Table.Visibility.PRIVATE, room_code__isnull=False).exists()


def watchable(match_id: object) -> Match:
    """The match to watch: 404 for no such match, 403 ``private_match`` for a private table's."""
    pk = ascii_int(str(match_id))
    match = store.load(pk) if pk is not None else None
    if match is None or match.offline:
        raise MatchNotFound()
    if is_private(match):
        raise Forbidden("private_match", "A private table's match has no watchers.")
    return match


def watchers(match_id: int) -> int:
    """How many watch the match now (open watchers' sockets)."""
    since = timezone.now() - WATCHER_MAX_AGE
    return Watcher.objects.filter(match_id=match_id, seen_at__gte=since).count()


def live_matches(limit: int | None = None) -> list[dict[str, Any]]:
    """The Watch page: running matches that are not private, those of the top rated people first (by the best
    conservative rating seated; ``WATCH_TOP_PLAYERS`` of the leaderboard), then the newest others; each a row
    with its seats and how many watch."""
    limit = limit or settings.WATCH_LIST_SIZE
    top = list(Rating.objects.filter(user__isnull=False, user__is_active=True)
               .order_by("-mu", "sigma").values_list("user_id", "mu", "sigma")[:settings.WATCH_TOP_PLAYERS])
    strength = {uid: mu - 3 * sigma for uid, mu, sigma in top}
    running = (Match.objects.filter(status=Match.Status.ACTIVE, offline=False, chat=False)
               .exclude(pk__in=Table.objects.filter(visibility=Table.Visibility.PRIVATE, room_code__isnull=False,
                                                    match__isnull=False).values("match_id")))
    top_ids = list(running.filter(seats__user_id__in=list(strength), seats__kind=Seat.Kind.HUMAN)
                   .values_list("pk", flat=True).distinct()[:limit * 4])
    others = list(running.filter(seats__kind=Seat.Kind.HUMAN).exclude(pk__in=top_ids)
                  .order_by("-updated_at").values_list("pk", flat=True).distinct()[:limit])
    matches = {m.pk: m for m in Match.objects.filter(pk__in=top_ids + others).prefetch_related("seats")}

    def best(match: Match) -> float:
        return max((strength.get(s.user_id or 0, float("-inf")) for s in match.seats.all()), default=float("-inf"))

    ordered = sorted((matches[pk] for pk in top_ids if pk in matches), key=best, reverse=True)
    ordered += [matches[pk] for pk in others if pk in matches]
    shown = ordered[:limit]
    counts = watchers_of([m.pk for m in shown])
    return [_row(m, strength, counts.get(m.pk, 0)) for m in shown]


def arena_tables(limit: int = 8) -> list[dict[str, Any]]:
    """The arenas' top running matches (``ARENA_TOP_TABLES``), watchable ones only."""
    ids: list[int] = []
    for source in ARENA_TOP_TABLES:
        ids += [pk for pk in source(limit) if pk not in ids]
    rows = Match.objects.filter(pk__in=ids, status=Match.Status.ACTIVE).prefetch_related("seats")
    found = {m.pk: m for m in rows if not is_private(m)}
    counts = watchers_of(list(found))
    return [_row(found[pk], {}, counts.get(pk, 0)) for pk in ids if pk in found][:limit]


def watchers_of(match_ids: list[int]) -> dict[int, int]:
    """How many watch each of ``match_ids`` (one query)."""
    since = timezone.now() - WATCHER_MAX_AGE
    return dict(Watcher.objects.filter(match_id__in=match_ids, seen_at__gte=since).order_by()
                .values("match_id").annotate(n=Count("id")).values_list("match_id", "n"))


def _row(match: Match, strength: dict[int, float], watching: int) -> dict[str, Any]:
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    return {"id": match.pk, "url": f"/watch/{match.pk}/", "rated": match.rated, "move_seconds": match.move_seconds,
            "seq": match.seq, "watchers": watching, "created_at": match.created_at.isoformat(),
            "seats": presenters.seats_json(match, None),
            "top_rated": any(s.user_id in strength for s in seats)}

