"""Sockets on the real stack (gunicorn with two Uvicorn processes as `make serve` runs them, PostgreSQL, Redis):

- Redis cut (every connection to it dropped, a dozen new ones refused, through a proxy in the test): sockets
  that lose it are closed or refused cleanly (never an HTTP 500 at the handshake), and once Redis is back every
  client is connected again and has its view;
- one person opens 300 sockets at once: past the cap they are closed with 4429 (never a 500), and another
  person's socket opens and gets its view meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import Counter
from typing import Any

import pytest
import websockets
from django.conf import settings

from hardening.test_crowd_realstack import stack  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

PASSWORD = "socket-password-9"


class RedisProxy:
    """A TCP proxy in front of Redis that the test can cut: ``cut()`` drops every connection and refuses new
    ones until ``restore()``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.loop = asyncio.new_event_loop()
        self.down = False
        self.writers: set[asyncio.StreamWriter] = set()
        self.refused = 0  # connections refused while cut: someone met the outage
        self._cut_done = threading.Event()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.sock = sock
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._client, sock=self.sock))
        self.loop.run_forever()
        server.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            self.refused += 1
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers -= {writer, up_writer}

    def _cut(self) -> None:
        self.down = True
        for writer in list(self.writers):
            transport = writer.transport
            transport.abort()
        self.writers.clear()
        self._cut_done.set()

    def cut(self) -> None:
        """Returns once every connection is dropped."""
        self._cut_done.clear()
        self.loop.call_soon_threadsafe(self._cut)
        assert self._cut_done.wait(10), "the proxy did not cut"

    def restore(self) -> None:
        self.down = False

    def url(self) -> str:
        parsed = settings.REDIS_URL.rsplit("/", 1)
        return f"redis://127.0.0.1:{self.port}/{parsed[1] if len(parsed) > 1 else 0}"


def _sign_up_and_start(url: str, name: str) -> tuple[str, int]:
    import httpx

    r = httpx.post(f"{url}/api/auth/signup/", json={"username": name, "password": PASSWORD}, timeout=60)
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    m = httpx.post(f"{url}/api/matches/", json={"opponents": "bots", "bot": "random"},
                   headers={"Authorization": f"Token {token}"}, timeout=60)
    assert m.status_code == 201, m.text
    return token, int(m.json()["id"])


class Client:
    """One person's tab: the match socket, reconnecting with backoff; records every handshake refusal's HTTP
    status, every close code, and when it last had a view."""

    def __init__(self, ws_url: str, token: str, match_id: int) -> None:
        self.url = f"{ws_url}/ws/matches/{match_id}/?token={token}"
        self.statuses: Counter[int] = Counter()
        self.closes: Counter[int] = Counter()
        self.viewed_at = 0.0
        self.connected = False

    async def run(self, until: float) -> None:
        delay = 0.2
        while time.monotonic() < until:
            try:
                async with websockets.connect(self.url, open_timeout=10, close_timeout=2) as sock:
                    self.connected = True
                    delay = 0.2
                    while time.monotonic() < until:
                        try:
                            frame = await asyncio.wait_for(sock.recv(), timeout=1)
                        except TimeoutError:
                            continue
                        if json.loads(frame).get("type") == "match":
                            self.viewed_at = time.monotonic()
            except websockets.exceptions.InvalidStatus as err:
                self.statuses[err.response.status_code] += 1
            except websockets.exceptions.ConnectionClosed as err:
                self.closes[err.rcvd.code if err.rcvd else 1006] += 1
            except (OSError, TimeoutError):
                self.closes[0] += 1
            self.connected = False
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)


def test_redis_cut_every_socket_comes_back_with_no_5xx(stack: Any) -> None:  # noqa: F811
    host, port = "127.0.0.1", 6379
    from urllib.parse import urlparse

    parsed = urlparse(settings.REDIS_URL)
    proxy = RedisProxy((parsed.hostname or host, parsed.port or port))
    url = stack(REDIS_URL=proxy.url(), CACHE_RETRY_SECONDS="2")
    people = [_sign_up_and_start(url, f"cut{i}") for i in range(12)]
    ws_url = url.replace("http://", "ws://")
    clients = [Client(ws_url, token, match_id) for token, match_id in people]

    async def scenario() -> float:
        end = time.monotonic() + 45
        runs = [asyncio.create_task(c.run(end)) for c in clients]
        while not all(c.connected and c.viewed_at for c in clients):  # every client in, with its view
            assert time.monotonic() < end, [c.connected for c in clients]
            await asyncio.sleep(0.1)
        proxy.cut()
        # the outage lasts until the server has tried Redis again and again (about two a second here), past
        # CACHE_RETRY_SECONDS: a dozen connections refused
        while proxy.refused < 12:
            assert time.monotonic() < end, proxy.refused
            await asyncio.sleep(0.1)
        proxy.restore()
        back = time.monotonic()
        while time.monotonic() < end and not all(c.connected and c.viewed_at > back for c in clients):
            await asyncio.sleep(0.5)
        recovered = time.monotonic() - back
        for run in runs:
            run.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        return recovered

    recovered = asyncio.run(scenario())
    statuses = sum((c.statuses for c in clients), Counter())
    closes = sum((c.closes for c in clients), Counter())
    assert not [s for s in statuses if s >= 500], (statuses, closes)
    assert all(c.viewed_at for c in clients)
    assert recovered < 30, (recovered, statuses, closes)


def test_three_hundred_sockets_of_one_person_and_another_still_gets_in(stack: Any) -> None:  # noqa: F811
    url = stack(SOCKETS_PER_USER="30")
    token, match_id = _sign_up_and_start(url, "greedy")
    other_token, other_match = _sign_up_and_start(url, "patient")
    ws_url = url.replace("http://", "ws://")

    async def one() -> str:
        try:
            sock = await websockets.connect(f"{ws_url}/ws/me/?token={token}", open_timeout=30)
        except websockets.exceptions.InvalidStatus as err:
            return f"http {err.response.status_code}"
        except (OSError, TimeoutError) as err:
            return type(err).__name__
        try:
            frame = await asyncio.wait_for(sock.recv(), timeout=3)
            return f"message {json.loads(frame).get('code')}"
        except websockets.exceptions.ConnectionClosed as err:
            return f"closed {err.rcvd.code if err.rcvd else 1006}"
        except TimeoutError:
            return "open"
        finally:
            opened.append(sock)

    async def other() -> dict[str, Any]:
        await asyncio.sleep(0.2)  # in the middle of the burst
        async with websockets.connect(f"{ws_url}/ws/matches/{other_match}/?token={other_token}",
                                      open_timeout=30) as sock:
            return json.loads(await asyncio.wait_for(sock.recv(), timeout=30))  # type: ignore[no-any-return]

    opened: list[Any] = []

    async def scenario() -> tuple[list[str], dict[str, Any]]:
        outcomes = asyncio.gather(*(one() for _ in range(300)))
        theirs = await other()
        mine = await outcomes
        for sock in opened:
            await sock.close()
        return mine, theirs

    mine, theirs = asyncio.run(scenario())
    counts = Counter(mine)
    assert not [o for o in counts if o.startswith("http 5")], counts
    assert theirs["type"] == "match"
    open_now = counts["open"]
    assert 0 < open_now <= 2 * 30, counts  # the cap, per process: two processes
    assert counts["message too_many_sockets"] >= 300 - 2 * 30 - counts.get("TimeoutError", 0), counts
