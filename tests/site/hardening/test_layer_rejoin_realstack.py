"""A socket that stays open while Redis restarts empty still hears its match (issue 39's chaos soak).

channels_redis keeps group memberships in Redis; a Redis restarted without persistence (``--save ""``) forgets
them, and a socket that stayed open through the restart heard nothing more of its match: the person's next card
came a minute later. The channel layer (``callbreak_site.channel_layer``) now notices the restart, puts its
process's channels back in their groups, and tells each of them (``layer.rejoined``): the match socket sends its
seat's view again, the user socket closes with 1012 so the page reconnects and refetches.

A web process (gunicorn with one Uvicorn worker, as `make serve` runs it) on a Redis server of the test's own,
killed (SIGKILL) and started again on the same port; the machine's Redis is never touched.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets
from matches.test_realstack import _free_port
from site_helpers import token_for

from games.matches import commands
from games.matches.commands import SeatSpec
from games.models import Match
from hardening.test_crowd_realstack import BIN, Process, _env
from hardening.test_worker_outage_realstack import OwnRedis, own_redis  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

HEARD_WITHIN = 8.0  # seconds: the layer checks Redis every 2 s


async def _match_frame(ws: Any, seq: int, within: float) -> dict[str, Any]:
    """The first ``match`` frame whose view is at ``seq`` or later, waited for at most ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no view at seq {seq} within {within} s")
        try:
            frame = json.loads(await asyncio.wait_for(ws.recv(), left))
        except TimeoutError:
            raise AssertionError(f"no view at seq {seq} within {within} s") from None
        if frame.get("type") == "match" and frame["match"]["seq"] >= seq:
            return frame  # type: ignore[no-any-return]


def test_an_open_socket_hears_its_match_after_redis_restarts_empty(own_redis: OwnRedis,  # noqa: F811
                                                                    make_user: Any) -> None:
    users = [make_user() for _ in range(4)]
    match = Match.objects.get(pk=commands.create_match(seats=[SeatSpec(user=u) for u in users]).pk)
    tokens = {u.pk: token_for(u) for u in users}
    seat_users = {seat.index: seat.user_id for seat in match.seats.all()}
    watcher = seat_users[(match.turn + 3) % 4]  # the last to bid: watches the first three bids
    port = _free_port()
    web = Process("rejoin-web", [str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py",
                                 "callbreak_site.asgi:application"],
                  _env(REDIS_URL=own_redis.url, CELERY_BROKER_URL=own_redis.url, CACHE_URL=own_redis.url,
                       WEB_CONCURRENCY="1", HOST="127.0.0.1", PORT=str(port)))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert web.proc.poll() is None and time.monotonic() < deadline, web.log.read_text()[-3000:]
            try:
                httpx.get(f"{base}/api/leaderboard/", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.3)

        def bid(seq: int) -> None:
            """The seat whose turn it is bids 3, through the API; tried again while the process reconnects."""
            mover = seat_users[(match.turn + seq) % 4]
            give_up = time.monotonic() + 20
            while True:
                r = httpx.post(f"{base}/api/matches/{match.pk}/actions/", json={"seq": seq, "bid": 3},
                               headers={"Authorization": f"Token {tokens[mover]}"}, timeout=10)
                if r.status_code == 200:
                    return
                assert r.status_code >= 500 and time.monotonic() < give_up, (r.status_code, r.text)
                time.sleep(0.2)

        async def scenario() -> tuple[float, float, int | None]:
            ws_url = f"ws://127.0.0.1:{port}/ws"
            async with websockets.connect(f"{ws_url}/matches/{match.pk}/?token={tokens[watcher]}") as table, \
                    websockets.connect(f"{ws_url}/me/?token={tokens[watcher]}") as me:
                await _match_frame(table, 0, 10)
                await asyncio.to_thread(bid, 0)
                await _match_frame(table, 1, 10)  # the group works before the restart

                await asyncio.to_thread(own_redis.kill)
                await asyncio.to_thread(own_redis.start)  # empty: every group membership is gone
                restarted = time.monotonic()
                await asyncio.to_thread(bid, 1)
                await _match_frame(table, 2, HEARD_WITHIN)  # the missed bid, or the view sent again
                heard = time.monotonic() - restarted

                moved = time.monotonic()
                await asyncio.to_thread(bid, 2)
                await _match_frame(table, 3, 5)  # back in the match's group: the next bid comes as it is made
                next_heard = time.monotonic() - moved

                try:  # the user socket is closed so that the page reconnects and refetches what it shows
                    while True:
                        await asyncio.wait_for(me.recv(), HEARD_WITHIN)
                except websockets.exceptions.ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                except TimeoutError:
                    code = None
                return heard, next_heard, code

        heard, next_heard, code = asyncio.run(scenario())
        assert heard < HEARD_WITHIN and next_heard < 5
        assert code == 1012
        assert "Traceback" not in web.log.read_text(), web.log.read_text()[-6000:]
    finally:
        web.stop()
