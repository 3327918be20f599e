"""What operators expect of the site: ``/healthz`` (the process answers), ``/readyz`` (the database, Redis and a
Celery worker answer), ``/metrics`` (Prometheus, ``games.metrics``), and the HTTP latency each request adds to
them (``MeasuredHTTP``, around Django's ASGI application).

``/metrics`` answers loopback clients, or anyone with ``Authorization: Bearer <METRICS_TOKEN>`` when that is set.
"""

from __future__ import annotations

import ipaddress
import os
import time
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.crypto import constant_time_compare
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from games import metrics

READY_CACHE_SECONDS = 5.0
_ready: tuple[float, int, dict[str, str]] = (0.0, 0, {})


def healthz(request: HttpRequest) -> HttpResponse:
    """The process is up and answers (nothing else is asked: a load balancer restarts what fails this)."""
    return JsonResponse({"status": "ok"})


def _check(name: str, probe: Callable[[], str]) -> tuple[str, bool]:
    try:
        return probe(), True
    except Exception as err:  # any failure means not ready; say which
        return f"{type(err).__name__}: {err}"[:200], False


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _cache() -> str:
    key = "readyz"
    cache.set(key, "1", timeout=10)
    if cache.get(key) != "1":
        raise RuntimeError("the cache did not keep a value")
    return "ok"


def _worker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager (tasks run in the web process)"
    replies = current_app.control.ping(timeout=1.0)
    if not replies:
        raise RuntimeError("no Celery worker answered within a second")
    return f"{len(replies)} answering"


def readyz(request: HttpRequest) -> HttpResponse:
    """200 when the database, the cache (Redis) and a Celery worker answer, else 503 naming what failed;
    the answer is kept a few seconds, so probes cannot load the services."""
    global _ready
    at, status, checks = _ready
    if time.monotonic() - at > READY_CACHE_SECONDS:
        results = {name: _check(name, probe) for name, probe in
                   (("database", _database), ("cache", _cache), ("worker", _worker))}
        checks = {name: text for name, (text, _) in results.items()}
        status = 200 if all(ok for _, ok in results.values()) else 503
        _ready = (time.monotonic(), status, checks)
    return JsonResponse({"status": "ready" if status == 200 else "not ready", "checks": checks}, status=status)


def _allowed(request: HttpRequest) -> bool:
    token = os.environ.get("METRICS_TOKEN", "")
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
