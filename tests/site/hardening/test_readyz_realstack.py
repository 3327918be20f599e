"""/readyz on the real stack (PostgreSQL, Redis behind a proxy the test can cut, a Celery worker): every check
"ok" and 200; with Redis cut, "redis": "failed" and 503 while the cache goes on answering from the process's
memory (the readiness check asked that cache and said "ok" while Redis was away)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from django.core.cache import cache
from django.test import Client

from callbreak_site import ops
from callbreak_site.cache import BREAKER
from hardening.test_crowd_realstack import Process, _env
from hardening.test_sockets_realstack import RedisProxy

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker() -> Iterator[Process]:
    """A Celery worker on the real Redis (not the proxy): its answer does not depend on the cut."""
    proc = Process("readyz-worker", [sys.executable, "-m", "celery", "-A", "callbreak_site", "worker", "-c", "1",
                                     "-l", "info", "--without-gossip", "--without-mingle",
                                     "-n", f"readyz-{os.getpid()}@%h"], _env())
    try:
        proc.wait_for("ready.")
        yield proc
    finally:
        proc.stop()


def test_readyz_asks_redis_itself(worker: Process, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = urlparse(settings.REDIS_URL)
    proxy = RedisProxy((parsed.hostname or "127.0.0.1", parsed.port or 6379))
    settings.REDIS_URL = settings.CACHE_URL = proxy.url()
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": proxy.url()}}
    settings.CACHE_RETRY_SECONDS = 60
    BREAKER.reset()
    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    client = Client()
    r = client.get("/readyz")
    assert r.status_code == 200, r.content
    assert r.json() == {"status": "ready", "checks": {"database": "ok", "redis": "ok", "worker": "ok"}}

    proxy.cut()
    try:
        cache.set("readyz-probe", "1", timeout=30)  # Redis is away: kept in this process's memory instead
        assert cache.get("readyz-probe") == "1" and BREAKER.is_open()
        monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
        r = client.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {"status": "not ready", "checks": {"database": "ok", "redis": "failed", "worker": "ok"}}
    finally:
        proxy.restore()
        BREAKER.reset()
