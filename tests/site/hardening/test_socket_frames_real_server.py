"""On a real server (gunicorn with a Uvicorn worker, as `make serve`): the server's WebSocket frame limit is the
app's (``WS_MAX_FRAME_BYTES`` and a little headroom, ``callbreak_site/gunicorn_conf.py``). A frame a little over
the app's limit still gets the app's ``bad_json`` answer; a larger one is closed with 1009 before it is read.
Uvicorn's own limit was 16 MiB, read whole before the app refused it: 30 frames of 15 MB raised two web
processes by 150 MB each."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import websockets.sync.client
from django.conf import settings
from servers import Server, migrated_sqlite, run_django, web_server
from websockets.exceptions import ConnectionClosed

from callbreak_site.gunicorn_conf import WS_FRAME_HEADROOM

MB = 1024 * 1024
SOCKETS = 10
FRAMES = 3


@pytest.fixture(scope="module")
def sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_sqlite(tmp_path_factory.mktemp("frames"))


@pytest.fixture(scope="module")
def server(sqlite: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("frames-log") / "server.log"
    with web_server(sqlite, log) as running:
        yield running


@pytest.fixture(scope="module")
def socket_url(server: Server, sqlite: Path) -> str:
    key = run_django(sqlite, "from django.contrib.auth.models import User\n"
                             "from games.accounts import commands\n"
                             "user = User.objects.create_user('framer', password='correct-horse-battery-9')\n"
                             "print(commands.issue_token(user, 'test')[1])")
    return f"{server.url.replace('http://', 'ws://')}/ws/me/?token={key}"


def _worker_pid(server: Server) -> int:
    """The one Uvicorn worker process under gunicorn's arbiter."""
    pid = server.proc.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def _kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise AssertionError(field)


def test_a_frame_a_little_over_the_apps_limit_gets_its_answer(socket_url: str) -> None:
    with websockets.sync.client.connect(socket_url, open_timeout=10) as sock:
        for size in (settings.WS_MAX_FRAME_BYTES + 1, settings.WS_MAX_FRAME_BYTES + WS_FRAME_HEADROOM):
            sock.send("x" * size)
            answer = json.loads(sock.recv(timeout=10))
            assert answer["type"] == "error" and answer["code"] == "bad_json", answer
        sock.send('{"type": "resync"}')  # still open and answering
        assert json.loads(sock.recv(timeout=10))["code"] == "bad_message"


def _send_large_frames(url: str) -> int | None:
    """Up to FRAMES frames of 1 MB on one socket; the close code the server sent (None: it never closed)."""
    try:
        with websockets.sync.client.connect(url, open_timeout=10, close_timeout=10) as sock:
            for _ in range(FRAMES):
                sock.send("x" * MB)
                sock.recv(timeout=10)  # the app's bad_json answer, if the frame reached it
    except ConnectionClosed as err:
        return err.rcvd.code if err.rcvd else 1006
    return None


def test_a_large_frame_is_closed_with_1009_before_it_is_read(server: Server, socket_url: str) -> None:
    pid = _worker_pid(server)
    with websockets.sync.client.connect(socket_url, open_timeout=10) as sock:  # the socket path is warm
        sock.send('{"type": "resync"}')
        sock.recv(timeout=10)
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the peak resident size starts again from now
    before = _kib(pid, "VmRSS")
    with ThreadPoolExecutor(SOCKETS) as pool:
        codes = list(pool.map(_send_large_frames, [socket_url] * SOCKETS))
    assert codes == [1009] * SOCKETS
    grown = _kib(pid, "VmHWM") - before
    assert grown < 4 * 1024, f"the web process grew by {grown} KiB at its peak"
    assert "Traceback" not in server.output()
