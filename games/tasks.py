"""Celery tasks: thin, idempotent, taking ids only. Each calls one command.

``bot_move(match_id, seq)`` plays the bot move due at ``seq`` and nothing else: a redelivery or a
task for an old ``seq`` finds ``match.seq`` moved on and does nothing. After its commit the command
sends the task for the next ``seq`` if a bot is to act again (``games.effects``), so bots chain until a
person's turn. Tasks are sent by name from ``games.effects``; their names are ``games.tasks.<function>``.

A task that meets a database fault (``OperationalError``, ``InterfaceError``: the database restarted, a pooled
connection died) is retried after a pause drawn up to 1, 2, 4, 4… seconds, 30 times (about a minute) before beat's
sweeps take over: nothing else would send it again before them, so a match waited a minute or more for its bots.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from . import effects
from .analysis import commands as analysis_commands
from .matches import commands as match_commands
from .matches import reads as match_reads
from .matches.models import Match
from .players import commands as player_commands
from .players import notices
from .tables import commands as table_commands

# Celery's options for every task that touches the database: retried on a database fault, soon. Not in eager
# mode (`make run`, tests): there the task runs inside a request, which answers the fault itself (503).
DB_RETRIES = 30
DB_RETRY: dict[str, Any] = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 1,
                            "retry_backoff_max": 4, "retry_jitter": True,
                            "max_retries": 0 if settings.CELERY_TASK_ALWAYS_EAGER else DB_RETRIES}


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def bot_move(self: Any, match_id: int, seq: int) -> bool:
    """Play the bot move due at ``seq`` and the bot moves that follow it (``effects.bot_chain``). A retry
    goes on from the match's current ``seq``: the fault may have struck moves after ``seq`` in the chain."""
    if self.request.retries:
        now = Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()
        seq = seq if now is None else now
    return effects.bot_chain(match_commands.play_bot_turn, match_id, seq) > 0


@shared_task(acks_late=True, ignore_result=True, **DB_RETRY)
def resume_stalled_bot_turns() -> int:
    """Beat's recovery sweep: send the due bot move of every running match waiting on a bot."""
    due = match_reads.waiting_on_a_bot()
    for match_id, seq in due:
        effects.enqueue_bot_move(match_id, seq)
    return len(due)


def sweep() -> dict[str, int]:
    """Play expired turns, send due reminders, rate finished matches left unrated, expire unstarted
    public tables, forget stale presence, drop expired API tokens."""
    now = timezone.now()
    expired = match_reads.expired_turns(now)
    for match_id, seq in expired:
        effects.send_task(effects.EXPIRE_TURN, match_id, seq)
    due = match_reads.due_reminders(now)
    for match_id, seq in due:
        effects.send_task(effects.REMIND_TURN, match_id, seq)
    # a rating task lost with a worker: rate_match is idempotent, so sending it again is safe
    unrated = match_reads.unrated_finished()
    for match_id in unrated:
        effects.send_task(effects.RATE_MATCH, match_id)
    tables = table_commands.expire_tables(now)
    player_commands.forget_stale_presence()
    tokens = player_commands.drop_expired_tokens()
    return {"expired": len(expired), "reminded": len(due), "rated": len(unrated), "tables": tables,
            "tokens": tokens}


@shared_task(acks_late=True, ignore_result=True, **DB_RETRY)
def sweep_deadlines() -> dict[str, int]:
    """Beat: expired turns get the autopilot, due reminders go out, stale public tables expire."""
    return sweep()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def expire_turn(match_id: int, seq: int) -> bool:
    return match_commands.play_expired_turn(match_id, seq)


@shared_task(acks_late=True, ignore_result=True, **DB_RETRY)
def remind_turn(match_id: int, seq: int) -> bool:
    return match_commands.send_reminder(match_id, seq)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def rate_match(match_id: int) -> bool:
    return player_commands.rate_match(match_id)


@shared_task(acks_late=True, ignore_result=True, **DB_RETRY)
def send_notice_email(notice_id: int) -> bool:
    return notices.send_notice_email(notice_id)


@shared_task(acks_late=True, ignore_result=True, **DB_RETRY)
def start_analyses(match_id: int) -> int:
    """A match finished: an analysis of each person's seat, each its own task on the analysis queue."""
    return len(analysis_commands.queue_for_match(match_id))


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def analyze_seat(analysis_id: int) -> bool:
    """Review one seat; resumes after the last decision stored if an earlier run was interrupted."""
    return analysis_commands.run(analysis_id)
