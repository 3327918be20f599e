"""The matches' Celery tasks: thin, idempotent, taking ids only; each calls one command: an expired turn, a
reminder (a task for an old ``seq`` finds the match moved on and does nothing). The bots' tasks are
in ``botturns.tasks``. Task names stay ``games.tasks.<function>``, as brokers and beat's schedule know them.
"""

from __future__ import annotations

from celery import shared_task

from games.platform.task_options import DB_RETRY

from . import commands


@shared_task(name="games.tasks.expire_turn", acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def expire_turn(match_id: int, seq: int) -> bool:
    return commands.play_expired_turn(match_id, seq)


@shared_task(name="games.tasks.remind_turn", acks_late=True, ignore_result=True, **DB_RETRY)
def remind_turn(match_id: int, seq: int) -> bool:
    return commands.send_reminder(match_id, seq)
