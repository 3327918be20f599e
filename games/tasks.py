"""Celery's view of the app: every task (each concept keeps its own in ``<concept>/tasks.py``, named
``games.tasks.<function>`` as brokers and beat's schedule know them) and beat's sweeps.

Tasks are thin, idempotent and take ids only; each calls one command.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from .accounts import commands as account_commands
from .accounts import reads as account_reads
from .analysis.tasks import analyze_seat, start_analyses
from .matches import commands as match_commands
from .matches import reads as match_reads
from .matches.botturns.tasks import bot_move, resume_stalled_bot_turns
from .matches.tasks import expire_turn, remind_turn
from .notices.tasks import send_notice_email
from .platform import outbox
from .platform.task_options import DB_RETRY
from .presence import commands as presence_commands
from .push.tasks import push_notice
from .quickmatch.tasks import pair_quick_matches
from .ratings import reads as rating_reads
from .ratings.tasks import rate_match
from .tables import commands as table_commands
from .tournaments.tasks import count_arena_match, pair_arena, sweep_arenas
from .watching import commands as watching_commands

__all__ = ["analyze_seat", "bot_move", "count_arena_match", "expire_turn", "pair_arena", "pair_quick_matches",
           "push_notice", "rate_match", "remind_turn", "remove_idle_guests", "resume_stalled_bot_turns",
           "send_notice_email", "start_analyses", "sweep",
           "sweep_arenas", "sweep_deadlines"]


def sweep() -> dict[str, int]:
    """Play expired turns, send due reminders, rate finished matches left unrated, hand the seats of
    deactivated people to bots, expire unstarted public tables, forget stale presence, drop expired API
    tokens."""
    now = timezone.now()
    expired = match_reads.expired_turns(now)
    for match_id, seq in expired:
        outbox.task_now(expire_turn, match_id, seq)
    due = match_reads.due_reminders(now)
    for match_id, seq in due:
        outbox.task_now(remind_turn, match_id, seq)
    # a rating task lost with a worker: rate_match is idempotent, so sending it again is safe
    unrated = rating_reads.unrated_finished()
    for match_id in unrated:
        outbox.task_now(rate_match, match_id)
    handed = 0
    for user_id in match_reads.deactivated_people_seated():
        handed += len(match_commands.hand_seats_to_bots(user_id))
    tables = table_commands.expire_tables(now)
    presence_commands.forget_stale_presence()
    watching_commands.forget_stale_watchers()
    tokens = account_commands.drop_expired_tokens()
    return {"expired": len(expired), "reminded": len(due), "rated": len(unrated), "handed": handed,
            "tables": tables, "tokens": tokens}


@shared_task(name="games.tasks.sweep_deadlines", acks_late=True, ignore_result=True, **DB_RETRY)
def sweep_deadlines() -> dict[str, int]:
    """Beat, every ``DEADLINE_SWEEP_SECONDS``: the seven jobs of ``sweep`` (expired turns get the autopilot, due
    reminders go out, finished matches left unrated are rated, deactivated people's seats go to bots, unstarted
    public tables expire, stale presence is forgotten, expired API tokens are dropped)."""
    return sweep()


def remove_guests(now: datetime | None = None) -> dict[str, int]:
    """Guests idle for ``GUEST_IDLE_DAYS``: their seats in past matches read "Guest" (first, so a run cut short
    is finished by the next), then each is removed (``account_commands.remove_guest``)."""
    before = (now or timezone.now()) - timedelta(days=settings.GUEST_IDLE_DAYS)
    counts = {"deleted": 0, "anonymised": 0}
    for user_id in account_reads.idle_guest_ids(before):
        match_commands.rename_seats(user_id, account_commands.GUEST_SEAT_NAME)
        outcome = account_commands.remove_guest(user_id)
        if outcome:
            counts[outcome] += 1
    return counts


@shared_task(name="games.tasks.remove_idle_guests", acks_late=True, ignore_result=True, **DB_RETRY)
def remove_idle_guests() -> dict[str, int]:
    """Beat: guests idle for ``GUEST_IDLE_DAYS`` are removed; their matches' logs and replays stay."""
    return remove_guests()

