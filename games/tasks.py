"""Celery tasks: thin, idempotent, taking ids only. Each calls one command.

``bot_move(match_id, seq)`` plays the bot move due at ``seq`` and nothing else: a redelivery or a
task for an old ``seq`` finds ``match.seq`` moved on and does nothing. After its commit the command
sends the task for the next ``seq`` if a bot is to act again (``games.effects``), so bots chain until a
person's turn. Tasks are sent by name from ``games.effects``; their names are ``games.tasks.<function>``.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import effects
from .analysis import commands as analysis_commands
from .matches import commands as match_commands
from .matches import reads as match_reads
from .players import commands as player_commands
from .players import notices
from .tables import commands as table_commands


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_move(match_id: int, seq: int) -> bool:
    """Play the bot move due at ``seq`` and the bot moves that follow it (``effects.bot_chain``)."""
    return effects.bot_chain(match_commands.play_bot_turn, match_id, seq) > 0


@shared_task(acks_late=True, ignore_result=True)
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


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> dict[str, int]:
    """Beat: expired turns get the autopilot, due reminders go out, stale public tables expire."""
    return sweep()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def expire_turn(match_id: int, seq: int) -> bool:
    return match_commands.play_expired_turn(match_id, seq)


@shared_task(acks_late=True, ignore_result=True)
def remind_turn(match_id: int, seq: int) -> bool:
    return match_commands.send_reminder(match_id, seq)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def rate_match(match_id: int) -> bool:
    return player_commands.rate_match(match_id)


@shared_task(acks_late=True, ignore_result=True)
def send_notice_email(notice_id: int) -> bool:
    return notices.send_notice_email(notice_id)


@shared_task(acks_late=True, ignore_result=True)
def start_analyses(match_id: int) -> int:
    """A match finished: an analysis of each person's seat, each its own task on the analysis queue."""
    return len(analysis_commands.queue_for_match(match_id))


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def analyze_seat(analysis_id: int) -> bool:
    """Review one seat; resumes after the last decision stored if an earlier run was interrupted."""
    return analysis_commands.run(analysis_id)
