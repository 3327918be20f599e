"""What operators expect: /healthz, /readyz (the database, the cache, a worker), /metrics for Prometheus with
the HTTP latency by route, the socket actions, the bots' replies and the open sockets; metrics only for
loopback clients or with the operators' token."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from channels.db import database_sync_to_async
from django.test import Client
from site_helpers import ORIGIN, token_for

from callbreak_site import ops
from callbreak_site.asgi import application
from games.matches import commands

pytestmark = pytest.mark.django_db(transaction=True)


def test_healthz_and_readyz(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    r = client.get("/readyz")
    assert r.status_code == 200 and set(r.json()["checks"]) == {"database", "cache", "worker"}

    def down() -> str:
        raise ConnectionError("refused")

    monkeypatch.setattr(ops, "_ready", (0.0, 0, {}))
    monkeypatch.setattr(ops, "_database", down)
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["checks"]["database"].startswith("ConnectionError")
    assert client.get("/readyz").status_code == 503  # kept a few seconds: probes cannot load the services


def test_metrics_for_operators_only(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 403
    monkeypatch.setenv("METRICS_TOKEN", "s3cret")
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
