"""Quick match's Celery task: the pairing run (beat sends it every few seconds; each new seek sends it twice)."""

from __future__ import annotations

from celery import shared_task

from games.platform.task_options import DB_RETRY

from . import commands


@shared_task(name="games.tasks.pair_quick_matches", acks_late=True, ignore_result=True, **DB_RETRY)
def pair_quick_matches() -> int:
    """Seat whoever can be seated now (safe to run twice at once and to redeliver), then tell the home and
    lobby pages who is here if that changed."""
    made = len(commands.pair())
    commands.tell_who_is_here()
    return made
