"""What operators expect: /healthz, /readyz (the database, Redis, a worker: each "ok" or "failed", why in the
log), /metrics for Prometheus with the HTTP latency by route, the socket actions, the bots' replies and the open
sockets; metrics only for loopback clients or with the operators' token."""

from __future__ import annotations

import socket
import time
from typing import Any

import httpx
import pytest
from channels.db import database_sync_to_async
from django.test import Client
from hardening.test_redis_away import SilentRedis
from site_helpers import ORIGIN, token_for

from callbreak_site import ops
from callbreak_site.asgi import application
from games.matches import commands

pytestmark = pytest.mark.django_db(transaction=True)


def test_healthz_and_readyz(client: Client, monkeypatch: pytest.MonkeyPatch,
                            caplog: pytest.LogCaptureFixture) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready", "checks": {"database": "ok", "worker": "ok"}}

    def down() -> None:
        raise ConnectionError('connection to server at "db.internal" (10.0.0.7), port 5432 failed')

    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    monkeypatch.setattr(ops, "_database", down)
    with caplog.at_level("WARNING", logger="callbreak_site.ops"):
        r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json() == {"status": "not ready", "checks": {"database": "failed", "worker": "ok"}}
    assert "db.internal" not in r.content.decode() and "ConnectionError" not in r.content.decode()
    assert "db.internal" in caplog.text  # the reason is for operators, in the log
    assert client.get("/readyz").status_code == 503  # kept a few seconds: probes cannot load the services


def test_readyz_for_a_balancer_leaves_the_worker_out(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """``?scope=node``: a worker slow to answer (or away) fails the site's /readyz, never a web node's own, which a
    balancer asks of each node: failing them all at once took every node out together."""
    from django.test import override_settings

    def no_worker() -> None:
        raise RuntimeError("no Celery worker answered")

    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    monkeypatch.setattr(ops, "_node_ready", (0.0, 0, {}))
    monkeypatch.setattr(ops, "_worker", no_worker)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        assert client.get("/readyz").status_code == 503
        r = client.get("/readyz?scope=node")
    assert r.status_code == 200 and r.json() == {"status": "ready", "checks": {"database": "ok"}}

    def down() -> None:
        raise ConnectionError("the database is away")

    monkeypatch.setattr(ops, "_node_ready", (0.0, 0, {}))
    monkeypatch.setattr(ops, "_database", down)
    r = client.get("/readyz?scope=node")
    assert r.status_code == 503 and r.json()["checks"] == {"database": "failed"}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_readyz_pings_redis_itself(client: Client, monkeypatch: pytest.MonkeyPatch, settings: Any,
                                   caplog: pytest.LogCaptureFixture) -> None:
    """The cache answers from the process's memory while Redis is away: /readyz said `"cache": "ok"` then. It
    asks Redis (and the cache's Redis when that is another), on a connection of its own, with a short timeout."""
    settings.REDIS_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    settings.CACHE_URL = settings.REDIS_URL
    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    with caplog.at_level("WARNING", logger="callbreak_site.ops"):
        r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["checks"] == {"database": "ok", "redis": "failed", "worker": "ok"}
    assert "refused" not in r.content.decode().lower() and "refused" in caplog.text.lower()

    silent = SilentRedis()  # takes the connection, never answers
    try:
        settings.CACHE_URL = f"redis://127.0.0.1:{silent.port}/0"
        monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
        started = time.monotonic()
        r = client.get("/readyz")
        assert time.monotonic() - started < 5 * ops.PROBE_SECONDS
    finally:
        silent.close()
    assert r.status_code == 503
    assert r.json()["checks"] == {"database": "ok", "redis": "failed", "cache": "failed", "worker": "ok"}


def test_metrics_for_operators_only(settings: Any) -> None:
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 403
    settings.METRICS_TOKEN = "s3cret"  # METRICS_TOKEN in the environment
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 403  # with a token, only the token
    r = Client(REMOTE_ADDR="203.0.113.9").get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert r.status_code == 200


def _sample(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def test_the_histograms_move(make_user: Any) -> None:
    from channels.testing import WebsocketCommunicator

    user = await database_sync_to_async(make_user)()
    key = await database_sync_to_async(token_for)(user)
    match = await database_sync_to_async(commands.create_bot_match)(user)
    transport = httpx.ASGITransport(app=application, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        before = (await http.get("/metrics")).text
        r = await http.get(f"/api/matches/{match.pk}/", headers={"Authorization": f"Token {key}"})
        assert r.status_code == 200
        comm = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/?token={key}", headers=[ORIGIN])
        assert (await comm.connect())[0]
        view = (await comm.receive_json_from(timeout=10))["match"]
        during = (await http.get("/metrics")).text
        await comm.send_json_to({"seq": view["seq"], "bid": 2})
        assert (await comm.receive_json_from(timeout=10))["type"] == "accepted"
        await comm.receive_json_from(timeout=10)
        await comm.disconnect()
        after = (await http.get("/metrics")).text
    route = "api/matches/<int:match_id>/"
    count = "callbreak_http_request_seconds_count"
    assert _sample(after, count, route=route, method="GET", status="2xx") == \
        _sample(before, count, route=route, method="GET", status="2xx") + 1
    assert _sample(during, "callbreak_open_sockets", kind="match") == \
        _sample(before, "callbreak_open_sockets", kind="match") + 1
    assert _sample(after, "callbreak_open_sockets", kind="match") == _sample(before, "callbreak_open_sockets",
                                                                              kind="match")
    assert _sample(after, "callbreak_socket_action_seconds_count", outcome="accepted") == \
        _sample(before, "callbreak_socket_action_seconds_count", outcome="accepted") + 1
    assert _sample(after, "callbreak_bot_moves_total") > _sample(before, "callbreak_bot_moves_total")
