"""Celery tasks: thin, idempotent, taking ids only.

``bot_move(match_id, seq)`` plays the bot move due at ``seq`` and nothing else: a redelivery or a
task for an old ``seq`` finds ``match.seq`` moved on and does nothing. After its commit the service
enqueues the task for the next ``seq`` if a bot is to act again, so bots chain until a human's turn.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db.models import F, Q

_local = threading.local()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_move(match_id: int, seq: int) -> bool:
    from .services import play_bot_turn

    return play_bot_turn(match_id, seq)


@shared_task(acks_late=True, ignore_result=True)
def resume_stalled_bot_turns() -> int:
    """Beat's recovery sweep: enqueue the due bot move of every active match waiting on a bot."""
    from .models import Match, Seat

    bot_to_act = Q(seats__index=F("turn")) & (Q(seats__kind=Seat.Kind.BOT) | Q(seats__autopilot=True))
    due = Match.objects.filter(bot_to_act, status=Match.Status.ACTIVE, turn__isnull=False)
    count = 0
    for match_id, seq in due.values_list("pk", "seq").distinct():
        enqueue_bot_move(match_id, seq)
        count += 1
    return count


def enqueue_bot_move(match_id: int, seq: int) -> None:
    """Send ``bot_move`` to the broker; in eager mode run the chain as a loop, not a recursion.

    In eager mode each move's on-commit hook would otherwise call the next task from inside the
    previous one, nesting a whole match (hundreds of moves) on the stack. The outermost call drains
    a queue instead, so each task runs after the previous transaction has fully finished.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        delay = settings.BOT_DELAY_SECONDS
        bot_move.apply_async((match_id, seq), countdown=delay if delay > 0 else None)
        return
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((match_id, seq))
        return
    _local.pending = deque([(match_id, seq)])
    try:
        while _local.pending:
            args = _local.pending.popleft()
            bot_move.apply(args=args, throw=True)
    finally:
        _local.pending = None


def run_task(task: Any, *args: Any) -> None:
    """Send a task (eager mode runs it in-process; ``.delay`` honours CELERY_TASK_ALWAYS_EAGER)."""
    task.delay(*args)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines() -> dict[str, int]:
    """Beat: expired turns get the autopilot, due reminders go out, stale public tables expire."""
    from .correspondence import sweep

    return sweep()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def expire_turn(match_id: int, seq: int) -> bool:
    from .correspondence import play_expired_turn

    return play_expired_turn(match_id, seq)


@shared_task(acks_late=True, ignore_result=True)
def remind_turn(match_id: int, seq: int) -> bool:
    from .correspondence import send_reminder

    return send_reminder(match_id, seq)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def rate_match(match_id: int) -> bool:
    from .ratings import rate_match as rate

    return rate(match_id)


@shared_task(acks_late=True, ignore_result=True)
def send_notice_email(notice_id: int) -> bool:
    from .notifications import send_notice_email as send

    return send(notice_id)
