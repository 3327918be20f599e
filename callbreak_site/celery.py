"""The Celery app; settings come from Django's (``CELERY_*``), so one environment drives both."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")

app = Celery("callbreak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
