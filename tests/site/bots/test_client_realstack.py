"""The client on the real stack (gunicorn with two Uvicorn processes, PostgreSQL, Redis, a Celery worker playing
the house bots): the client process, started by the test, plays a whole match as a bot account at a table with
house bots, its connection cut once mid-match by a proxy between it and the site (every connection dropped,
new ones refused for a moment); it reconnects, resumes after the last event it answered, and misses no turn:
every bid and card of its seat is its own (none by the autopilot, whose deadline is the table's 60 s)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from hardening.test_crowd_realstack import stack  # noqa: F401  (the fixture)
from hardening.test_sockets_realstack import RedisProxy as TcpProxy

from bots.test_client import auth, host_a_table_with, sign_up, start_client
from games.models import Action

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("events", ["stream", "socket"])
def test_the_client_plays_a_whole_match_and_survives_a_cut(stack: Any, tmp_path: Path,  # noqa: F811
                                                            events: str) -> None:
    url = stack(worker=True)
    port = int(url.rsplit(":", 1)[1])
    proxy = TcpProxy(("127.0.0.1", port))
    host, bot = sign_up(url, "hostr"), sign_up(url, "robotr")
    assert httpx.post(f"{url}/api/bot/account/upgrade/", headers=auth(bot)).status_code == 201
    log = tmp_path / "client.log"
    proc = start_client(f"http://127.0.0.1:{proxy.port}", bot, log, "--bot", "heuristic", "--events", events)
    try:
        match_id = host_a_table_with(url, host, "robotr", proc, log)
        deadline = time.monotonic() + 240
        while Action.objects.filter(match_id=match_id, seat=2).count() < 30:  # mid-match
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        proxy.cut()
        while proxy.refused == 0:  # until the client has tried again and been refused
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        proxy.restore()
        assert proc.wait(timeout=300) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text()
    done = re.search(r"done: 1 matches finished, (\d+) actions, (\d+) reconnects", text)
    assert done and int(done[2]) >= 1, text
    # The client counts the actions whose answer it read: one sent as the cut came lands on the site with its
    # answer lost, so the client may count one less; the site's log says whose every action was.
    assert int(done[1]) in (69, 70), text
    made_by = list(Action.objects.filter(match_id=match_id, seat=2).order_by("seq").values_list("made_by", flat=True))
    assert made_by == ["player"] * 70, text
