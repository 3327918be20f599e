"""Arenas' Celery tasks (thin: each calls one command, takes ids, is idempotent, retries on database faults)."""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

from games.platform import outbox
from games.platform.groups import tournament_group
from games.platform.task_options import DB_RETRY

from . import commands, reads


@shared_task(name="games.tasks.pair_arena", acks_late=True, ignore_result=True, **DB_RETRY)
def pair_arena(tournament_id: int) -> int:
    """Seat whoever of the arena is free and can be seated now (safe to run twice at once and to redeliver). The
    mark of a run due goes first: a change committed after it sends another run."""
    cache.delete(pair_due_key(tournament_id))
    return len(commands.pair(tournament_id))


@shared_task(name="games.tasks.count_arena_match", acks_late=True, ignore_result=True, **DB_RETRY)
def count_arena_match(match_id: int) -> bool:
    """Count an arena match that ended into the standings (once)."""
    return commands.count_match(match_id)


def send_standings(tournament_id: int) -> None:
    """Read the arena's standings once and send them to every open standings socket of it (the time of the send
    marked for ``reactions.standings_changed``'s spacing)."""
    cache.set(standings_sent_key(tournament_id), time.time(), timeout=3600)
    standings = reads.standings_of(tournament_id, timezone.now())
    if standings is not None:
        outbox.group_send_now(tournament_group(tournament_id),
                              {"type": "tournament.standings", "standings": standings})


@shared_task(name="games.tasks.send_standings_due", acks_late=True, ignore_result=True, **DB_RETRY)
def send_standings_due(tournament_id: int) -> None:
    """The standings held back by the spacing (``reactions.standings_changed``): the mark goes first, so a change
    made while these are read is sent again."""
    cache.delete(standings_due_key(tournament_id))
    send_standings(tournament_id)


#: How long a run marked due and never started (its worker lost) holds back the next; beat's sweep pairs meanwhile.
PAIR_DUE_SECONDS = 5


def pair_due_key(tournament_id: int) -> str:
    """The shared cache's mark of a pairing run sent and not yet started (``reactions.pair_soon``)."""
    return f"arena:{tournament_id}:pair-due"


def pair_at_key(tournament_id: int, at: int) -> str:
    """The shared cache's mark of a pairing run sent for the whole second ``at`` (``reactions.pair_soon``)."""
    return f"arena:{tournament_id}:pair-at:{at}"


def standings_sent_key(tournament_id: int) -> str:
    """The shared cache's time of the arena's last standings sent."""
    return f"arena:{tournament_id}:standings-sent"


def standings_due_key(tournament_id: int) -> str:
    """The shared cache's mark of standings held back and due at the spacing's end."""
    return f"arena:{tournament_id}:standings-due"


def sweep() -> dict[str, int]:
    """Beat's sweep of the arenas: pair every running one, count ended matches left uncounted, close the arenas
    whose time is up, make the scheduled ones."""
    now = timezone.now()
    running = reads.running_ids(now)
    for tournament_id in running:
        outbox.task_now(pair_arena, tournament_id)
    lost = reads.uncounted_ended()
    for match_id in lost:
        outbox.task_now(count_arena_match, match_id)
    closed = sum(commands.close(tid, now) for tid in reads.to_close(now))
    made = commands.schedule(now)
    return {"running": len(running), "counted": len(lost), "closed": closed, "made": len(made)}


@shared_task(name="games.tasks.sweep_arenas", acks_late=True, ignore_result=True, **DB_RETRY)
def sweep_arenas() -> dict[str, int]:
    """Beat, every ``TOURNAMENT_SWEEP_SECONDS``: ``sweep``."""
    return sweep()
