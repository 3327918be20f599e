"""What arenas do once a write has committed: pair after a join or a match's end (and again after the wait),
count an arena match that ended, tell the seated people where to go, send the standings to their sockets."""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games.matches.events import MatchAdvanced, SeatsChanged
from games.platform import outbox
from games.platform.groups import user_group, user_message
from games.platform.metrics import ARENA_SEAT_DELAY_SECONDS

from . import tasks
from .events import ArenaBatchFull, ArenaFreed, ArenaJoined, ArenaSeated, StandingsChanged


def pair_soon(event: ArenaJoined | ArenaFreed) -> None:
    """Pair at once, and again just after the wait for people ends (beat's sweep pairs anyway, as a net). A crowd
    joining at once sends few runs, not one of each per join (sending a task is a few ms of a web process): a run
    sent and not yet started reads every change committed before it starts (``tasks.pair_due_key``: the next change
    after it starts sends the next), and the runs after the wait go at whole seconds, one per second (each person's
    within a second after their wait ends). In eager mode the delayed run is a timer thread of this process
    (``TOURNAMENT_EAGER_TIMER``)."""
    arena = event.tournament_id
    if settings.CELERY_TASK_ALWAYS_EAGER:
        outbox.task_now(tasks.pair_arena, arena)
        if settings.TOURNAMENT_EAGER_TIMER:
            outbox.task_now(tasks.pair_arena, arena, countdown=event.bots_after + 0.5, eager="thread")
        return
    if cache.add(tasks.pair_due_key(arena), 1, timeout=tasks.PAIR_DUE_SECONDS):
        outbox.task_now(tasks.pair_arena, arena)
    at = math.ceil(time.time() + event.bots_after + 0.5)
    if cache.add(tasks.pair_at_key(arena, at), 1, timeout=math.ceil(event.bots_after) + 10):
        outbox.task_now(tasks.pair_arena, arena, eta=datetime.fromtimestamp(at, UTC))


def pair_rest(event: ArenaBatchFull) -> None:
    """The free people beyond a full batch: the next run now (each run seats someone, so the chain ends)."""
    outbox.task_now(tasks.pair_arena, event.tournament_id)


def match_ended(event: MatchAdvanced) -> None:
    """A match finished: if an arena started it, count it (the task finds out; most matches are no arena's)."""
    if event.finished and not event.match.offline:
        outbox.task_now(tasks.count_arena_match, event.match_id)


def match_aborted(event: SeatsChanged) -> None:
    if event.match.status == "aborted":
        outbox.task_now(tasks.count_arena_match, event.match_id)


def seated(event: ArenaSeated) -> None:
    """Every open tab of each seated person hears where to go (``/ws/me/``); ``/metrics`` counts the pairing's
    own delay, from the moment the rules let the group sit until its seat is committed."""
    ARENA_SEAT_DELAY_SECONDS.observe(max(0.0, (timezone.now() - event.seatable_at).total_seconds()))
    for user_id in event.user_ids:
        outbox.group_send_now(user_group(user_id), user_message(
            {"type": "arena_seated", "tournament_id": event.tournament_id, "match_id": event.match_id}))


def standings_changed(event: StandingsChanged) -> None:
    """Every open standings socket of the arena gets the new standings: now if none went out in the last
    ``TOURNAMENT_STANDINGS_SPACING``, else once at its end (one send holds every change since). The time of the
    last send is in the shared cache, so web and worker processes space them together (a time, not a key that
    expires: the cache's expiry counts whole seconds). In eager mode (``make run``, the tests: one process, no crowd)
    they go at once: a held-back send would be a timer thread of the process, and its process-local cache outlives a
    test's database, whose arena ids come again."""
    spacing = float(settings.TOURNAMENT_STANDINGS_SPACING)
    since = time.time() - float(cache.get(tasks.standings_sent_key(event.tournament_id), 0.0))
    if spacing <= 0 or settings.CELERY_TASK_ALWAYS_EAGER or since >= spacing:
        tasks.send_standings(event.tournament_id)
    elif cache.add(tasks.standings_due_key(event.tournament_id), 1, timeout=5):
        outbox.task_now(tasks.send_standings_due, event.tournament_id, countdown=spacing - since, eager="thread")
