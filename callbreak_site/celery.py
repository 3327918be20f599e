"""The Celery app; settings come from Django's (``CELERY_*``), so one environment drives both."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")

app = Celery("callbreak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect  # type: ignore[untyped-decorator]
def _persistent_group_sender(**_: Any) -> None:
    """Workers send their group messages on one long-lived event loop (see ``games.effects``)."""
    from games import effects  # Django is set up only once the worker starts

    effects.use_sender_loop()
