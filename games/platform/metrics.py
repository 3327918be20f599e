"""The site's own measurements, for Prometheus (``prometheus-client``): what operators watch and what
``bench/load.py`` reads beside its client figures.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``make serve``, the Celery worker: several processes each) every process
writes its samples to files there and one scrape adds them up; without it (``make run``, tests) they stay in
this process. The metrics are collected at ``/metrics`` (``callbreak_site.ops``) and, for a worker, on its
own port (``WORKER_METRICS_PORT``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, multiprocess

# From a millisecond to a few seconds: a request, a socket action, a bot's reply.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0,
                   1.5, 2.0, 3.0, 5.0, 10.0)

REQUEST_SECONDS = Histogram(
    "callbreak_http_request_seconds", "HTTP requests, from the first byte in to the last byte out, by route.",
    ["route", "method", "status"], buckets=LATENCY_BUCKETS)
SOCKET_ACTION_SECONDS = Histogram(
    "callbreak_socket_action_seconds", "A bid or card sent on a match socket until its answer is sent, by outcome.",
    ["outcome"], buckets=LATENCY_BUCKETS)
BOT_REPLY_SECONDS = Histogram(
    "callbreak_bot_reply_seconds", "From a bot move's task being sent until the bots' moves are committed "
    "(the wait for a worker included).", buckets=LATENCY_BUCKETS)
ARENA_SEAT_DELAY_SECONDS = Histogram(
    "callbreak_arena_seat_delay_seconds", "From the moment an arena's rules let a group sit (its fourth person free, "
    "or its first one's wait for bots over) until the pairing run seats it: the pairing's own delay, not the rules'.",
    buckets=LATENCY_BUCKETS + (20.0, 30.0, 60.0, 120.0, 300.0))
BOT_MOVES = Counter("callbreak_bot_moves_total", "Bot moves played by the bot tasks.")
OPEN_SOCKETS = Gauge("callbreak_open_sockets", "WebSockets open now, by kind.", ["kind"],
                     multiprocess_mode="livesum")
QUEUE_DEPTH = Gauge("callbreak_queue_depth", "Tasks waiting in each Celery queue (read at scrape time).", ["queue"],
                    multiprocess_mode="max")
POOL_WAITING = Gauge("callbreak_db_pool_waiting", "Requests waiting for a pooled database connection now.",
                     multiprocess_mode="livesum")
POOL_WAIT_SECONDS = Counter("callbreak_db_pool_wait_seconds", "Time spent waiting for a pooled connection.")
POOL_WAITS = Counter("callbreak_db_pool_waits_total", "Connections handed out after a wait.")


@contextmanager
def timed(histogram: Histogram, *labels: str) -> Iterator[None]:
    """Observe how long the block took (also when it raises)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        (histogram.labels(*labels) if labels else histogram).observe(time.perf_counter() - started)


def registry() -> Any:
    """Every process's samples when they are written to ``PROMETHEUS_MULTIPROC_DIR``, else this process's."""
    if settings.PROMETHEUS_MULTIPROC_DIR:
        combined = CollectorRegistry()
        multiprocess.MultiProcessCollector(combined, path=settings.PROMETHEUS_MULTIPROC_DIR)  # type: ignore[no-untyped-call]
        return combined
    return REGISTRY
