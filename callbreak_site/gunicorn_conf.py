"""Gunicorn settings for ``make serve``: several Uvicorn (ASGI) worker processes, HTTP and WebSockets.

Every setting can be overridden from the environment: ``WEB_CONCURRENCY`` (processes; default one per
CPU), ``HOST``/``PORT`` (or ``BIND``), ``GUNICORN_TIMEOUT``. Processes share nothing but PostgreSQL and
Redis (channel layer, broker), so more of them, or more machines behind a balancer, scale out.
"""

import multiprocessing
import os

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

# Bytes a WebSocket frame may have past the app's WS_MAX_FRAME_BYTES and still reach it: a frame a little too
# long gets the app's `bad_json` answer (the socket stays open); a longer one is closed by the server (1009).
WS_FRAME_HEADROOM = 4096


class Worker(UvicornWorker):  # type: ignore[misc]
    """Uvicorn's worker with the app's WebSocket frame limit. Uvicorn reads a whole frame (up to its default
    16 MiB) before the app sees it and refuses it: 30 frames of 15 MB raised two web processes by 150 MB each.
    With ``ws_max_size`` set, a frame whose header announces more is closed with 1009 before it is read."""

    def load_wsgi(self) -> None:
        super().load_wsgi()  # the application: Django's settings are loaded
        from django.conf import settings

        self.config.ws_max_size = int(settings.WS_MAX_FRAME_BYTES) + WS_FRAME_HEADROOM


# gunicorn reads this file before it loads the application, so before Django's settings exist: the environment is
# read here, not through callbreak_site/config/env.py (the one place the site's own settings read it). LOG_LEVEL
# and PROMETHEUS_MULTIPROC_DIR are also the site's settings (config/operations.py), read from the same variables.
bind = os.environ.get("BIND") or f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count())
worker_class = "callbreak_site.gunicorn_conf.Worker"
# Each worker listens on its own socket (SO_REUSEPORT) and the kernel spreads new connections over them.
# With one shared socket the worker that last waited won nearly every accept(): with long-lived keep-alive
# and WebSocket connections one process served 90% of a crowd while the other idled (py-spy, docs/performance.md).
reuse_port = True
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))  # a worker silent this long is restarted
graceful_timeout = 20
keepalive = 65  # seconds an idle connection stays open: longer than any client waits between requests
# Logs to stderr; the access log only when asked for (it costs time under load).
accesslog = "-" if os.environ.get("ACCESS_LOG") == "1" else None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
proc_name = "callbreak-web"


def child_exit(server: object, worker: object) -> None:
    """A web process ended: its live gauges (open sockets) no longer count in /metrics."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined,no-untyped-call]


def post_worker_init(worker: object) -> None:
    """A web process on Redis plays quick bots' answers itself (games/matches/botturns/lane.py); only the served
    processes do, not every importer of the application (tests, scripts)."""
    from django.conf import settings

    from games.matches.botturns import lane

    if settings.CHANNEL_LAYERS["default"]["BACKEND"] != "channels.layers.InMemoryChannelLayer":
        lane.use()
