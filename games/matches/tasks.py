"""The matches' Celery tasks: thin, idempotent, taking ids only; each calls one command.

``bot_move(match_id, seq)`` plays the bot move due at ``seq`` (and the bot moves it leads to, see
``botchain``): a redelivery or a task for an old ``seq`` finds the match moved on and does nothing. Task
names stay ``games.tasks.<function>``, as brokers and beat's schedule know them.
"""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task
from django.conf import settings

from games import metrics, outbox
from games.task_options import DB_RETRY

from . import botchain, botlane, commands, reads


@shared_task(name="games.tasks.bot_move", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             **DB_RETRY)
def bot_move(self: Any, match_id: int, seq: int, sent_at: float | None = None) -> bool:
    """Play the bot move due at ``seq`` and the bot moves that follow it (``sent_at``: when the task was sent,
    for the bots' reply latency). A retry goes on from the match's current ``seq``: the fault may have struck
    moves after ``seq`` in the chain."""
    if self.request.retries:
        seq = reads.current_seq(match_id, default=seq)
    played = botchain.run(commands.play_bot_turn, match_id, seq)
    if played:
        metrics.BOT_MOVES.inc(played)
        if sent_at is not None:
            metrics.BOT_REPLY_SECONDS.observe(max(0.0, time.time() - sent_at))
    return played > 0


def enqueue_bot_move(match_id: int, seq: int, level: str = "") -> None:
    """Have the bot move due at ``seq`` played now: on the bot chain running in this thread if there is one,
    on this web process's bot lane if the bot (of ``level``) is quick (see ``botlane``), else by a ``bot_move``
    task (after ``BOT_DELAY_SECONDS`` with a real worker; at once in eager mode)."""
    if botchain.queue_if_chaining(match_id, seq):
        return
    if botlane.takes(level):
        botlane.submit(match_id, seq, _send_bot_move)
        return
    delay = settings.BOT_DELAY_SECONDS
    _send_bot_move(match_id, seq, time.time() + max(delay, 0.0))


def _send_bot_move(match_id: int, seq: int, sent_at: float) -> None:
    delay = settings.BOT_DELAY_SECONDS
    outbox.task_now(bot_move, match_id, seq, sent_at, countdown=delay if delay > 0 else None)


@shared_task(name="games.tasks.resume_stalled_bot_turns", acks_late=True, ignore_result=True, **DB_RETRY)
def resume_stalled_bot_turns() -> int:
    """Beat's recovery sweep: send the due bot move of every running match waiting on a bot."""
    due = reads.waiting_on_a_bot()
    for match_id, seq in due:
        enqueue_bot_move(match_id, seq)
    return len(due)


@shared_task(name="games.tasks.expire_turn", acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def expire_turn(match_id: int, seq: int) -> bool:
    return commands.play_expired_turn(match_id, seq)


@shared_task(name="games.tasks.remind_turn", acks_late=True, ignore_result=True, **DB_RETRY)
def remind_turn(match_id: int, seq: int) -> bool:
    return commands.send_reminder(match_id, seq)
