"""The first group message after Redis came back reaches the sockets (issue 39), on the real stack: a web process
as `make serve` runs it, its Redis behind a proxy the test cuts (every connection dropped, as when Redis
restarts) and restores. The connections the process had pooled are dead then; the first chat line sent on one
was stored but never shown, with no error to its author."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import websockets
from django.conf import settings
from matches.test_realstack import _free_port
from site_helpers import token_for

from games.matches import commands
from games.matches.commands import SeatSpec
from hardening.test_crowd_realstack import Process, _env
from hardening.test_sockets_realstack import RedisProxy

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

BIN = Path(sys.executable).parent


@pytest.fixture
def proxy() -> RedisProxy:
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    parsed = urlparse(settings.REDIS_URL)
    proxy = RedisProxy((parsed.hostname or "127.0.0.1", parsed.port or 6379))
    deadline = time.monotonic() + 10
    while True:  # its thread listens a moment after it is made
        try:
            socket.create_connection(("127.0.0.1", proxy.port), timeout=1).close()
            return proxy
        except OSError:
            assert time.monotonic() < deadline, "the proxy does not listen"
            time.sleep(0.05)


@pytest.fixture
def web(proxy: RedisProxy) -> Iterator[str]:
    """One web process (one event loop, one group-sender loop) whose Redis is the proxy."""
    port = _free_port()
    server = Process("group-send-web", [str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py",
                                        "callbreak_site.asgi:application"],
                     _env(WEB_CONCURRENCY="1", HOST="127.0.0.1", PORT=str(port), REDIS_URL=proxy.url()))
    try:
        yield server.wait_answers(f"http://127.0.0.1:{port}")
    finally:
        server.stop()


async def _until(sock: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next frame of type ``kind`` (the others skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await sock.recv())
            if frame.get("type") == kind:
                return frame  # type: ignore[no-any-return]


async def _open(url: str, timeout: float = 30) -> Any:
    """A match socket that is in (its chat history received), trying again while the process refuses it."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock = await websockets.connect(url, open_timeout=10)
            await _until(sock, "chat_history")
            return sock
        except (websockets.exceptions.WebSocketException, OSError, TimeoutError):
            assert time.monotonic() < deadline, f"{url}: no socket"
            await asyncio.sleep(0.3)


def test_the_first_chat_line_after_redis_comes_back_reaches_the_sockets(make_user: Any, proxy: RedisProxy,
                                                                        web: str) -> None:
    people = [make_user(f"chat{i}") for i in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in people], chat=True)
    ws = web.replace("http://", "ws://")
    author, reader = (f"{ws}/ws/matches/{match.pk}/?token={token_for(u)}" for u in people[:2])

    async def scenario() -> dict[str, Any]:
        writing, reading = await _open(author), await _open(reader)
        await writing.send(json.dumps({"type": "chat", "text": "before"}))
        assert (await _until(reading, "chat"))["message"]["text"] == "before"  # the group sender has a connection
        proxy.cut()  # every pooled connection to Redis is dropped when it returns
        proxy.restore()
        for sock in (writing, reading):
            await sock.close()
        writing, reading = await _open(author), await _open(reader)
        await writing.send(json.dumps({"type": "chat", "text": "after"}))
        try:
            return await _until(reading, "chat")
        finally:
            await writing.close()
            await reading.close()

    seen = asyncio.run(scenario())
    assert seen["message"]["text"] == "after"
