"""The Celery app; settings come from Django's (``CELERY_*``), so one environment drives both."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")

app = Celery("callbreak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Celery's Django fix-up closes every database connection before and after each task, and in a prefork
# worker with a connection pool it closes the whole pool: each bot move opened a new PostgreSQL session
# (about 35 a second under a crowd, each a backend process to start). With DB_REUSE_MAX it does so only
# every that many tasks; a connection that broke is still dropped before the next task (below).
app.conf.CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))


@worker_init.connect  # type: ignore[untyped-decorator]
def _persistent_group_sender(**_: Any) -> None:
    """Workers send their group messages on one long-lived event loop (see ``games.outbox``)."""
    from games import metrics, outbox  # Django is set up only once the worker starts

    outbox.use_sender_loop()
    port = os.environ.get("WORKER_METRICS_PORT")
    if port:  # the worker's own /metrics (every prefork child's samples, through PROMETHEUS_MULTIPROC_DIR)
        from prometheus_client import start_http_server

        start_http_server(int(port), addr=os.environ.get("WORKER_METRICS_ADDR", "127.0.0.1"),
                          registry=metrics.registry())


@task_prerun.connect  # type: ignore[untyped-decorator]
def _drop_unusable_connections(**_: Any) -> None:
    """As Django does around each request: a connection that failed or outlived CONN_MAX_AGE is closed
    (given back to the pool when there is one) and the task gets a sound one."""
    from django.db import close_old_connections

    close_old_connections()
