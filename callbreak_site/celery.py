"""The Celery app; settings come from Django's (``CELERY_*``), so one environment drives both."""

import os
from collections.abc import Callable
from queue import Empty
from typing import Any

from celery import Celery
from celery.signals import beat_init, task_prerun, worker_init
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "callbreak_site.settings")

app = Celery("callbreak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Celery's Django fix-up reads CELERY_DB_REUSE_MAX from these settings too (config/tasks.py says why it is set);
# a connection that broke is still dropped before the next task (below).

_kombu_redis_close: Callable[[Any], None] = kombu_redis.Channel.close


def _close_past_a_dead_poll(channel: Any) -> None:
    """kombu's Redis channel closes all the way when its connection died (kombu 5.7.0, the latest release).

    kombu first reads the reply of a pending BRPOP (kombu#1733); with Redis gone that read raises and the close
    stops half-way, the channel still holding its unacknowledged tasks. Celery then drops the transport and
    closes the channel again, and restoring the tasks reads Redis's address from the transport that is gone:
    ``AttributeError: 'NoneType' object has no attribute 'hostname'``, an "Unrecoverable error" that ended the
    worker after a Redis restart (issue 39; a late-acked worker nearly always holds a task while a BRPOP
    waits). Here a dead connection's reply counts as none, as if the BRPOP timed out, and the close goes on
    while the address is known. Drop this once a kombu release fixes it (tests/site/hardening/
    test_worker_outage_realstack.py).
    """
    if channel._in_poll and not channel.closed:
        try:
            channel._brpop_read()
        except Empty:
            pass
        except channel.connection_errors:
            pass  # the reply died with the connection; _brpop_read has cleared _in_poll
    _kombu_redis_close(channel)


kombu_redis.Channel.close = _close_past_a_dead_poll  # type: ignore[method-assign]


@worker_init.connect  # type: ignore[untyped-decorator]
def _persistent_group_sender(**_: Any) -> None:
    """Workers send their group messages on one long-lived event loop (see ``games.platform.outbox``)."""
    from django.conf import settings

    from games.platform import metrics, outbox  # Django is set up only once the worker starts

    outbox.use_sender_loop()
    if settings.WORKER_METRICS_PORT:  # the worker's own /metrics (every prefork child's, by PROMETHEUS_MULTIPROC_DIR)
        from prometheus_client import start_http_server

        start_http_server(settings.WORKER_METRICS_PORT, addr=settings.WORKER_METRICS_ADDR, registry=metrics.registry())


@task_prerun.connect  # type: ignore[untyped-decorator]
def _drop_unusable_connections(**_: Any) -> None:
    """As Django does around each request: a connection that failed or outlived CONN_MAX_AGE is closed
    (given back to the pool when there is one) and the task gets a sound one."""
    from django.db import close_old_connections

    close_old_connections()


@beat_init.connect  # type: ignore[untyped-decorator]
def _one_beat(sender: Any, **_: Any) -> None:
    """A beat runs the schedule only while it holds the site's beat lease (``callbreak_site.beatlock``)."""
    from django.conf import settings

    if settings.BEAT_LEASE_SECONDS > 0 and settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        from callbreak_site.beatlock import hold_or_refuse

        hold_or_refuse(sender, settings.CELERY_BROKER_URL, settings.BEAT_LEASE_SECONDS)
