"""Arenas: join, pause, withdraw; the pairing run that seats free people; counting a finished match into the
standings; closing an arena whose time is up; the arenas beat makes on a schedule.

The pairing run locks the free entries it takes (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, as quick
match locks its seeks) and seats them in one transaction: two runs at once share the entries out and never seat
a person twice, and a run that fails rolls back whole, leaving everyone free for the next. An entry holds the
match it plays (``Entry.match``), so a person is in one match of an arena at a time; counting that match frees
it again, under the entry's lock.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.accounts import reads as account_reads
from games.matches import store
from games.matches.commands import SeatSpec, bots_at_cap
from games.matches.models import Match
from games.platform import outbox
from games.platform.errors import Forbidden, GameError, TableConflict
from games.quickmatch import reads as quick_reads
from games.ratings.reads import YARDSTICKS
from games.tables import reads as table_reads
from games.tables.commands import start_full_table

from . import reads, scoring
from .events import ArenaBatchFull, ArenaFreed, ArenaJoined, ArenaSeated, StandingsChanged
from .models import ArenaMatch, Entry, Result, Tournament

#: Free entries one pairing run takes (the longest free first), as quick match's ``PAIRING_BATCH``.
PAIRING_BATCH = 64


def bots_after() -> float:
    return float(settings.TOURNAMENT_BOTS_AFTER)


def _tell_standings(t: Tournament) -> None:
    outbox.emit(StandingsChanged(t.pk))


def _check_may_join(user: Any, t: Tournament) -> None:
    is_bot = account_reads.is_bot_account(user)
    if t.pool == Tournament.Pool.BOTS and not is_bot:
        raise Forbidden("bots_only", "This arena is for bot accounts only.")
    if t.pool == Tournament.Pool.PEOPLE and is_bot:
        raise Forbidden("people_only", "This arena is for people; bot accounts play in the bots' arenas.")
    if t.rated:
        account_reads.check_may_play_rated(user)  # 403 guest_unrated
    if t.rating_limit is not None and reads.shown_rating(user.pk) > t.rating_limit:
        raise Forbidden("rating_over_limit", f"This arena is for ratings up to {t.rating_limit}.",
                        limit=t.rating_limit)


def join(user: Any, tournament_id: int, now: datetime | None = None) -> Entry:
    """Join an arena before or while it runs, or come back after a pause. 409 ``tournament_over`` once its time
    is up, 409 ``withdrawn`` after withdrawing; 403 ``bots_only`` / ``people_only`` for the wrong kind of
    account, ``guest_unrated`` for a guest at a rated one, ``rating_over_limit`` above its rating limit."""
    now = now or timezone.now()
    t = reads.tournament(tournament_id)
    if not user.is_active:
        raise GameError("inactive", "This account is deactivated.")
    if t.phase(now) not in ("upcoming", "running"):
        raise TableConflict("tournament_over", "This tournament is over; no one joins it now.")
    try:
        with transaction.atomic():
            entry = Entry.objects.select_for_update().filter(tournament=t, user_id=user.pk).first()
            if entry is None:
                _check_may_join(user, t)
                entry = Entry.objects.create(tournament=t, user=user, free_since=now)
            elif entry.status == Entry.Status.WITHDRAWN:
                raise TableConflict("withdrawn", "You withdrew from this tournament.")
            elif entry.status == Entry.Status.PAUSED:
                entry.status = Entry.Status.ACTIVE
                if entry.match_id is None:
                    entry.free_since = now
                entry.save(update_fields=["status", "free_since"])
            if t.phase(now) == "running":
                outbox.emit(ArenaJoined(t.pk, bots_after()))
            _tell_standings(t)
    except IntegrityError:  # joined twice at once: the other request made the entry
        entry = Entry.objects.get(tournament=t, user_id=user.pk)
    entry.tournament = t  # read once: the answer's standings are of this arena
    return entry


def _set_status(user: Any, tournament_id: int, status: str, now: datetime | None = None) -> Entry:
    now = now or timezone.now()
    t = reads.tournament(tournament_id)
    with transaction.atomic():
        entry = Entry.objects.select_for_update().filter(tournament=t, user_id=user.pk).first()
        if entry is None:
            raise GameError("not_joined", "You have not joined this tournament.")
        if entry.status == Entry.Status.WITHDRAWN:
            return entry
        if entry.status != status:
            entry.status = status
            entry.save(update_fields=["status"])
            _tell_standings(t)
    return entry


def pause(user: Any, tournament_id: int) -> Entry:
    """Not seated again until they join again (a match under way finishes and counts)."""
    return _set_status(user, tournament_id, Entry.Status.PAUSED)


def withdraw(user: Any, tournament_id: int) -> Entry:
    """Leave for good: never seated again (a match under way finishes and counts)."""
    return _set_status(user, tournament_id, Entry.Status.WITHDRAWN)


def _seat(t: Tournament, group: list[Entry], users: dict[int, Any], now: datetime) -> int:
    """Start a match for ``group`` at a started private table (the tables' start path), bots in the other seats:
    at the level nearest the people's skill, or in a bots' arena the ladder's house bots."""
    chance = random.SystemRandom()
    seats = [SeatSpec(user=users[e.user_id]) for e in group]
    rated_bots: tuple[str, ...] | None = None
    if t.pool == Tournament.Pool.BOTS:
        house = tuple(n for n in settings.BOT_LADDER_HOUSE_BOTS if n in YARDSTICKS) or tuple(YARDSTICKS)
        seats += [SeatSpec(bot=chance.choice(house)) for _ in range(4 - len(seats))]
        rated_bots = tuple(YARDSTICKS)
    elif len(seats) < 4:
        skill = sum(quick_reads.skill_of(e.user_id) for e in group) / len(group)
        level = quick_reads.nearest_bot_level(skill)
        seats += [SeatSpec(bot=level) for _ in range(4 - len(seats))]
    chance.shuffle(seats)
    match = start_full_table(users[group[0].user_id], seats, move_seconds=t.move_seconds, rated=t.rated,
                             rated_bots=rated_bots)
    ArenaMatch.objects.create(tournament=t, match=match, started_at=now)
    key = scoring.four_key([e.user_id for e in group])
    Entry.objects.filter(pk__in=[e.pk for e in group]).update(match=match, free_since=None, last_four=key)
    outbox.emit(ArenaSeated(t.pk, match.pk, tuple(e.user_id for e in group),
                            seatable_at([e.free_since or now for e in group], bots_after())))
    return match.pk


def seatable_at(free_since: list[datetime], wait: float) -> datetime:
    """When the rules let this group sit: four people once the last of them is free; fewer (with bots) once the
    longest free of them has waited ``wait`` seconds too."""
    seatable = max(free_since)
    if len(free_since) < 4:
        seatable = max(seatable, min(free_since) + timedelta(seconds=wait))
    return seatable


def pair(tournament_id: int, now: datetime | None = None) -> list[int]:
    """Seat the arena's free active people (``scoring.groups``: closest in points first, never the same four twice
    in a row, bots after ``TOURNAMENT_BOTS_AFTER`` s). Only while its clock runs. Entries of deactivated accounts,
    or of the wrong kind of account, are withdrawn. A run takes ``PAIRING_BATCH`` of them at most; one that took a
    whole batch and seated some sends the next run. Returns the new matches' ids.

    Runs of one arena take turns on its row (``FOR NO KEY UPDATE``: joins, which only reference the row, go on):
    two at once would each lock part of the free people and could each hold a four who just played together, the
    eight seating no one until beat's sweep. A run still skips entries another transaction holds (``SKIP LOCKED``),
    so a crash loses no one and nothing waits on a person's own request."""
    now = now or timezone.now()
    made: list[int] = []
    with transaction.atomic():
        t = Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
        if t is None or t.phase(now) != "running":
            return made
        entries = list(Entry.objects.select_for_update(skip_locked=True, of=("self",))
                       .filter(tournament=t, status=Entry.Status.ACTIVE, match__isnull=True)
                       .order_by("free_since", "id")[:PAIRING_BATCH])
        if not entries:
            return made
        users = {u.pk: u for u in get_user_model().objects.filter(pk__in={e.user_id for e in entries})}
        programs = account_reads.bot_account_ids(set(users))
        busy: set[int] = set()
        if t.pool == Tournament.Pool.BOTS:
            ids = [e.user_id for e in entries]
            busy = bots_at_cap(ids, table_reads.open_seats_held_by(ids))
        free: list[scoring.Free] = []
        by_id: dict[int, Entry] = {}
        dropped = False
        for e in entries:
            user = users.get(e.user_id)
            if user is None or not user.is_active or (e.user_id in programs) != (t.pool == Tournament.Pool.BOTS):
                e.status = Entry.Status.WITHDRAWN
                e.save(update_fields=["status"])
                dropped = True
            elif e.user_id not in busy:
                by_id[e.pk] = e
                free.append(scoring.Free(e.pk, e.points, e.free_since or now, e.last_four))
        user_of = {e.pk: e.user_id for e in by_id.values()}
        for group in scoring.groups(free, user_of, now, bots_after()):
            made.append(_seat(t, [by_id[f.entry_id] for f in group], users, now))
        if made or dropped:
            _tell_standings(t)
        if made and len(entries) == PAIRING_BATCH:
            outbox.emit(ArenaBatchFull(t.pk))
    return made


def count_match(match_id: int, now: datetime | None = None) -> bool:
    """Put a finished arena match's results in the standings and free its people (once: the row is locked and
    marked counted). An aborted match frees them and counts nothing. False if there is nothing to do."""
    now = now or timezone.now()
    with transaction.atomic():
        game = (ArenaMatch.objects.select_for_update().select_related("tournament")
                .filter(match_id=match_id, counted_at__isnull=True).first())
        if game is None:
            return False
        match = store.load(match_id)
        if match is None or match.status == Match.Status.ACTIVE:
            return False
        t = game.tournament
        entries = {e.user_id: e for e in Entry.objects.select_for_update().filter(tournament=t, match_id=match_id)
                   .order_by("pk")}
        if match.status == Match.Status.FINISHED:
            totals = store.state_of(match).totals
            people = [(s.index, entries[s.user_id]) for s in store.seats_of(match)
                      if s.user_id is not None and s.user_id in entries]
            for (_, entry), (place, share) in zip(people, scoring.places([totals[i] for i, _ in people]), strict=True):
                points, entry.streak, doubled = scoring.award(share, place, entry.streak)
                Result.objects.create(game=game, entry=entry, place=place, points=points, doubled=doubled)
                entry.points += points
                entry.matches += 1
        for entry in entries.values():
            entry.match, entry.free_since = None, now
            entry.save(update_fields=["points", "matches", "streak", "match", "free_since"])
        game.counted_at = now
        game.save(update_fields=["counted_at"])
        left = ArenaMatch.objects.filter(tournament=t, counted_at__isnull=True).exists()
        if t.phase(now) == "finishing" and not left:
            t.closed_at = now
            t.save(update_fields=["closed_at"])
        elif t.phase(now) == "running":
            outbox.emit(ArenaFreed(t.pk, bots_after()))
        _tell_standings(t)
    return True


def close(tournament_id: int, now: datetime | None = None) -> bool:
    """Close an arena whose time is up and whose matches are all counted: the results stand (the podium)."""
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id, closed_at__isnull=True).first()
        if t is None or t.phase(now) != "finishing":
            return False
        if ArenaMatch.objects.filter(tournament=t, counted_at__isnull=True).exists():
            return False
        t.closed_at = now
        t.save(update_fields=["closed_at"])
        _tell_standings(t)
    return True


def schedule(now: datetime | None = None) -> list[int]:
    """Make the next arena of each entry of ``TOURNAMENT_SCHEDULE`` (once: one per schedule and start), so people
    can join it ``TOURNAMENT_SCHEDULE_AHEAD`` seconds before it starts."""
    now = now or timezone.now()
    ahead = timedelta(seconds=float(settings.TOURNAMENT_SCHEDULE_AHEAD))
    made: list[int] = []
    items: list[dict[str, Any]] = list(settings.TOURNAMENT_SCHEDULE)
    for item in items:
        every = timedelta(hours=int(item["every_hours"]))
        day = now.replace(hour=0, minute=0, second=0, microsecond=0)
        start = day + timedelta(hours=int(item.get("at_hour", 0)), minutes=int(item.get("at_minute", 0)))
        while start <= now:
            start += every
        if start - now > ahead:
            continue
        with transaction.atomic():
            t, created = Tournament.objects.get_or_create(
                schedule=str(item["key"]), starts_at=start,
                defaults={"name": str(item["name"]), "minutes": int(item["minutes"]),
                          "move_seconds": int(item.get("move_seconds", settings.LIVE_MOVE_SECONDS)),
                          "rated": bool(item.get("rated", True)), "pool": str(item.get("pool", "people"))})
        if created:
            made.append(t.pk)
    return made
