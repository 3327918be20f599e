"""A Redis cache that does not answer: after the first call that fails, the process leaves Redis alone for
CACHE_RETRY_SECONDS (each call waited its own timeout, several a request: an anonymous profile view cost about a
second), pages still answer, and the sign-up and log-in limits still hold (counted in the process)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD

from callbreak_site.cache import BREAKER
from games.platform import ratelimit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.rate_limits]


class SilentRedis:
    """A server that takes connections and never answers (a Redis that hangs, or packets dropped)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(100)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.held: list[socket.socket] = []
        self.sock.settimeout(0.2)
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            self.held.append(conn)

    def close(self) -> None:
        self.running = False
        self.thread.join(5)
        for conn in self.held:
            conn.close()
        self.sock.close()


@pytest.fixture
def silent_redis(settings: Any) -> Iterator[SilentRedis]:
    server = SilentRedis()
    settings.CACHES = {"default": {
        "BACKEND": "callbreak_site.cache.SharedPoolRedisCache", "LOCATION": f"redis://127.0.0.1:{server.port}/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "pool_class": "redis.BlockingConnectionPool",
                    "max_connections": 10, "timeout": 1}}}
    settings.CACHE_RETRY_SECONDS = 3
    BREAKER.reset()
    ratelimit.LOCAL_COUNTS.clear()
    yield server
    BREAKER.reset()
    ratelimit.LOCAL_COUNTS.clear()
    server.close()


def test_a_silent_redis_is_asked_once_then_left_alone(silent_redis: SilentRedis, make_user: Any,
                                                       settings: Any) -> None:
    make_user("pat")
    browser = Client()
    for _ in range(8):
        assert browser.get("/players/pat/").status_code == 200
    assert silent_redis.accepted == 1  # without the breaker: a connection (and a 1 s wait) per cache call
    settings.CACHE_RETRY_SECONDS = 0.2
    BREAKER.trip()
    time.sleep(0.3)
    assert browser.get("/players/pat/").status_code == 200
    assert silent_redis.accepted == 2  # past the breaker's time Redis is tried again


def test_sign_up_and_log_in_limits_hold_while_redis_is_silent(silent_redis: SilentRedis, settings: Any) -> None:
    # the limits count in fixed windows: start the test just after a window begins (the clock runs on), so a slow
    # machine's sign-ups and log-ins never straddle two windows and the fourth log-in is counted with the three
    with time_machine.travel(datetime(2026, 1, 1, 12, 0, 1, tzinfo=UTC), tick=True):
        _limits_hold(silent_redis, settings)


def _limits_hold(silent_redis: SilentRedis, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": ("ip", "2/hour"), "login_account": ("account", "3/hour")}
    signups = [APIClient().post("/api/auth/signup/", {"username": f"sam{i}", "password": PASSWORD}, format="json")
               .status_code for i in range(3)]
    assert signups == [201, 201, 429]
    form = Client().post("/accounts/signup/", {"username": "samx", "password1": PASSWORD, "password2": PASSWORD})
    assert form.status_code == 429
    logins = [APIClient().post("/api/auth/token/", {"username": "sam0", "password": PASSWORD}, format="json",
                               REMOTE_ADDR=f"10.0.0.{i}").status_code for i in range(4)]
    assert logins == [200, 200, 200, 429]
    assert silent_redis.accepted <= 1
