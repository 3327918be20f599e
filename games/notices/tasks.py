"""The notices' Celery task (thin, idempotent, by id)."""

from __future__ import annotations

from celery import shared_task

from games.platform.task_options import DB_RETRY

from . import commands


@shared_task(name="games.tasks.send_notice_email", acks_late=True, ignore_result=True, **DB_RETRY)
def send_notice_email(notice_id: int) -> bool:
    return commands.send_notice_email(notice_id)
