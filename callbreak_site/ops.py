"""What operators expect of the site: ``/healthz`` (the process answers), ``/readyz`` (the database, Redis and a
Celery worker answer; ``?scope=node``, what a balancer asks of a web node, leaves the worker out), ``/metrics``
(Prometheus, ``games.platform.metrics``), and the HTTP latency each request adds to them (``MeasuredHTTP``, around
Django's ASGI application).

``/metrics`` answers loopback clients, or anyone with ``Authorization: Bearer <METRICS_TOKEN>`` when that is set.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import redis
from celery import current_app
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.crypto import constant_time_compare
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.backoff import NoBackoff
from redis.retry import Retry

from games.platform import metrics

log = logging.getLogger(__name__)

READY_CACHE_SECONDS = 5.0
# How long a readiness probe waits for Redis (to connect, then for each answer): the answer must come quickly
# while a Redis that is away says so within seconds.
PROBE_SECONDS = 1.0
_ready: tuple[float, int, dict[str, str]] = (0.0, 0, {})
_node_ready: tuple[float, int, dict[str, str]] = (0.0, 0, {})


def healthz(request: HttpRequest) -> HttpResponse:
    """The process is up and answers (nothing else is asked: a load balancer restarts what fails this)."""
    return JsonResponse({"status": "ok"})


def _check(name: str, probe: Callable[[], None]) -> bool:
    """Whether ``probe`` passed; why it did not goes to the log only (the answer is public: no internal text)."""
    try:
        probe()
        return True
    except Exception as err:  # any failure means not ready
        log.warning("readiness check %s failed: %s: %s", name, type(err).__name__, err)
        return False


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _redis(url: str) -> None:
    """A PING to that Redis on a connection of its own: the cache would answer from this process's memory
    while Redis is away (``callbreak_site.cache``), and its breaker would not even ask."""
    client = redis.Redis.from_url(url, socket_connect_timeout=PROBE_SECONDS, socket_timeout=PROBE_SECONDS,
                                  retry=Retry(NoBackoff(), 0))
    try:
        if not client.ping():
            raise RuntimeError("Redis did not answer PONG")
    finally:
        client.close()


def _worker() -> None:
    """A Celery worker answers a ping, asked on a connection that gives up within seconds (the broker's own
    connections wait for a silent Redis without end)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # tasks run in the web process
    options = {"socket_connect_timeout": PROBE_SECONDS, "socket_timeout": 2 * PROBE_SECONDS}
    with current_app.connection_for_write(transport_options=options) as conn:
        conn.ensure_connection(max_retries=0)
        if not current_app.control.ping(timeout=PROBE_SECONDS, connection=conn):
            raise RuntimeError("no Celery worker answered")


def _probes(node: bool) -> list[tuple[str, Callable[[], None]]]:
    probes: list[tuple[str, Callable[[], None]]] = [("database", _database)]
    if settings.REDIS_URL:  # the channel layer and the broker
        probes.append(("redis", partial(_redis, settings.REDIS_URL)))
    if settings.CACHE_URL and settings.CACHE_URL != settings.REDIS_URL:
        probes.append(("cache", partial(_redis, settings.CACHE_URL)))
    if not node:
        probes.append(("worker", _worker))
    return probes


def readyz(request: HttpRequest) -> HttpResponse:
    """200 when the database, Redis (and the cache's Redis, when it is another) and a Celery worker answer, else
    503; each check is named with "ok" or "failed" only (why goes to the log). The answer is kept a few
    seconds, so probes cannot load the services.

    ``?scope=node`` leaves the worker out: what a balancer asks of each web node. A worker slow to answer its ping
    (a busy machine) or away makes no node worse than another, and failing them all together took every node out
    of the balancer at once (the site answered 503 for seconds while it could serve every page and move)."""
    global _ready, _node_ready
    node = request.GET.get("scope") == "node"
    at, status, checks = _node_ready if node else _ready
    if time.monotonic() - at > READY_CACHE_SECONDS:
        checks = {name: "ok" if _check(name, probe) else "failed" for name, probe in _probes(node)}
        status = 200 if all(result == "ok" for result in checks.values()) else 503
        if node:
            _node_ready = (time.monotonic(), status, checks)
        else:
            _ready = (time.monotonic(), status, checks)
    return JsonResponse({"status": "ready" if status == 200 else "not ready", "checks": checks}, status=status)


def _allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        return constant_time_compare(given, f"Bearer {token}")
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not _allowed(request):
        return JsonResponse({"code": "forbidden", "detail": "Metrics are for operators."}, status=403)
    _queue_depths()
    return HttpResponse(generate_latest(metrics.registry()), content_type=CONTENT_TYPE_LATEST)


def _queue_depths() -> None:
    """The broker's queue lengths, read at scrape time (Redis lists named after the queues)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        with current_app.connection_for_read() as conn:
            client = conn.default_channel.client
            for queue in settings.CELERY_QUEUES_WATCHED:
                metrics.QUEUE_DEPTH.labels(queue).set(client.llen(queue))
    except Exception:  # the broker is away: the scrape still answers, without these
        return


class MeasuredHTTP:
    """ASGI middleware: each HTTP request's time, from its scope to its last body byte, by Django route
    (``MetricsMiddleware`` names it in the scope); the wait for a thread is in it, as clients feel it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = {"code": 500}

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                route = scope.get("callbreak.route", "unmatched")
                metrics.REQUEST_SECONDS.labels(route, scope.get("method", ""), f"{status['code'] // 100}xx").observe(
                    time.perf_counter() - started)

        await self.app(scope, receive, sending)


class MetricsMiddleware:
    """Django middleware (sync, next to the innermost): names the route a request resolved to in its ASGI
    scope, and records the database pool's waits."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        scope = getattr(request, "scope", None)
        match = getattr(request, "resolver_match", None)
        if scope is not None:
            scope["callbreak.route"] = (match.route or match.url_name or "unnamed") if match else "unmatched"
        pool = getattr(connection, "pool", None)
        if pool is not None:
            stats = pool.pop_stats()
            metrics.POOL_WAITING.set(stats.get("requests_waiting", 0))
            metrics.POOL_WAIT_SECONDS.inc(stats.get("requests_wait_ms", 0) / 1000)
            metrics.POOL_WAITS.inc(stats.get("requests_queued", 0))
        return response
