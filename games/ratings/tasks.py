"""The ratings' Celery task (thin, idempotent, by id)."""

from __future__ import annotations

from celery import shared_task

from games.platform.task_options import DB_RETRY

from . import commands


@shared_task(name="games.tasks.rate_match", acks_late=True, reject_on_worker_lost=True, ignore_result=True, **DB_RETRY)
def rate_match(match_id: int) -> bool:
    return commands.rate_match(match_id)
