"""The push task (thin, idempotent, by ids), on its own ``push`` queue: a slow push service never delays a bot's
move. Network faults, 429 and 5xx answers are tried again after a short backoff."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import commands

QUEUE = "push"
MAX_RETRIES = 4


@shared_task(name="games.tasks.push_notice", bind=True, acks_late=True, ignore_result=True, max_retries=MAX_RETRIES)
def push_notice(self: Any, notice_id: int, subscription_id: int) -> str:
    attempt = self.request.retries
    while True:
        outcome = commands.push_notice(notice_id, subscription_id, last_try=attempt >= MAX_RETRIES)
        if outcome.result != "retry":
            return outcome.result
        if not self.request.is_eager:
            raise self.retry(countdown=outcome.delay)
        attempt += 1  # eager (`make run`, tests): no broker to wait with, so again at once
