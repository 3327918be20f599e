"""The analyses' Celery tasks, on the ``analysis`` queue (thin, idempotent, by id)."""

from __future__ import annotations

from celery import shared_task

from games.platform.task_options import DB_RETRY

from . import commands


@shared_task(name="games.tasks.start_analyses", acks_late=True, ignore_result=True, **DB_RETRY)
def start_analyses(match_id: int) -> int:
    """A match finished: an analysis of each person's seat, each its own task on the analysis queue."""
    return len(commands.queue_for_match(match_id))


@shared_task(name="games.tasks.analyze_seat", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             **DB_RETRY)
def analyze_seat(analysis_id: int) -> bool:
    """Review one seat; resumes after the last decision stored if an earlier run was interrupted."""
    return commands.run(analysis_id)
