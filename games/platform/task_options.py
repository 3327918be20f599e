"""Celery's options for every task that touches the database: retried on a database fault, soon.

A task that meets a database fault (``OperationalError``, ``InterfaceError``: the database restarted, a pooled
connection died) is retried after a pause drawn up to 1, 2, 4, 4… seconds, 30 times (about a minute) before
beat's sweeps take over: nothing else would send it again before them, so a match waited a minute or more for
its bots. Not in eager mode (``make run``, tests): there the task runs inside a request, which answers the
fault itself (503).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError

DB_RETRIES = 30
DB_RETRY: dict[str, Any] = {"autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 1,
                            "retry_backoff_max": 4, "retry_jitter": True,
                            "max_retries": 0 if settings.CELERY_TASK_ALWAYS_EAGER else DB_RETRIES}
