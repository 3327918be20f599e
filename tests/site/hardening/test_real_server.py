"""On a real server (gunicorn with a Uvicorn worker, as `make serve`): a body over the limit gets its 413 (the
body is drained first, up to a bound, so the client is not reset mid-send); tokens never reach the log."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from servers import Server, migrated_sqlite, web_server

LIMIT = 256 * 1024


@pytest.fixture(scope="module")
def sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_sqlite(tmp_path_factory.mktemp("server"))


@pytest.fixture(scope="module")
def server(sqlite: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("server-log") / "server.log"
    with web_server(sqlite, log, ACCESS_LOG="1", LOG_LEVEL="info", MAX_REQUEST_BYTES=str(LIMIT)) as running:
        yield running


async def _stream(size: int) -> AsyncIterator[bytes]:
    chunk = b"x" * 65536
    sent = 0
    while sent < size:
        piece = chunk[: size - sent]
        sent += len(piece)
        yield piece


async def test_an_async_client_sees_the_413_every_time(server: Server) -> None:
    """httpx.AsyncClient sends the whole body before it reads the answer: answered (and closed) before the
    body was read, 16 of 18 tries saw a connection reset instead of the 413."""
    url = f"{server.url}/api/auth/signup/"
    headers = {"content-type": "application/json"}
    async with httpx.AsyncClient(timeout=30) as client:
        for size in (LIMIT + 1, 1024 * 1024, 3 * 1024 * 1024):
            answers = await asyncio.gather(*(client.post(url, content=b"x" * size, headers=headers)
                                             for _ in range(6)))
            assert [r.status_code for r in answers] == [413] * 6, size
            assert all(r.json()["code"] == "too_large" for r in answers)
        for _ in range(3):  # streamed (chunked, no Content-Length): refused once past the limit
            r = await client.post(url, content=_stream(2 * 1024 * 1024), headers=headers)
            assert r.status_code == 413 and r.json()["code"] == "too_large"
        # the connection stays usable: an ordinary request after them is answered
        r = await client.get(f"{server.url}/api/leaderboard/")
        assert r.status_code in (200, 401, 403)
