"""A bid or card goes the same way over ``POST /api/matches/{id}/actions/`` and over the match's socket: the
same command, the same checks and error codes (stale ``seq``, illegal cards, malformed bodies, autopilot,
aborted), the same rate limits. Every test here runs once per path."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from rest_framework.test import APIClient
from site_helpers import ORIGIN, choose, token_for

from callbreak_site.asgi import application
from games.matches import commands
from games.models import Match

pytestmark = [pytest.mark.django_db(transaction=True)]

sync = database_sync_to_async


class Path:
    """One way to act: ``act`` answers ``(ok, body)``: the view (REST) or the accepted view (socket), else the
    error's JSON, whose ``code`` the two paths must share."""

    name: str

    async def open(self, user: Any, match_id: int) -> dict[str, Any]:
        raise NotImplementedError

    async def act(self, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        raise NotImplementedError

    async def close(self) -> None:
        return None


class Rest(Path):
    name = "rest"

    async def open(self, user: Any, match_id: int) -> dict[str, Any]:
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {await sync(token_for)(user)}")
        self.match_id = match_id
        return (await sync(self.client.get)(f"/api/matches/{match_id}/")).json()  # type: ignore[no-any-return]

    async def act(self, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        r = await sync(self.client.post)(f"/api/matches/{self.match_id}/actions/", body, format="json")
        return r.status_code == 200, r.json()


class Socket(Path):
    name = "socket"

    async def open(self, user: Any, match_id: int) -> dict[str, Any]:
        key = await sync(token_for)(user)
        self.comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/?token={key}", headers=[ORIGIN])
        connected, _ = await self.comm.connect()
        assert connected
        return (await self.comm.receive_json_from(timeout=10))["match"]  # type: ignore[no-any-return]

    async def act(self, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        await self.comm.send_json_to({**body, "ref": "r1"})
        answer = await self.comm.receive_json_from(timeout=10)
        while answer["type"] == "match":  # a view the socket was sending anyway (a seat handed over, say)
            answer = await self.comm.receive_json_from(timeout=10)
        assert answer["ref"] == "r1"
        if answer["type"] == "error":
            return False, answer
        assert answer["type"] == "accepted"
        view = await self.comm.receive_json_from(timeout=10)
        assert view["type"] == "match" and view["match"]["seq"] >= answer["seq"]
        assert view["actions"][0]["seat"] == view["match"]["seat"]  # mine first, then the bots' answers
        return True, view["match"]

    async def close(self) -> None:
        await self.comm.disconnect()


@pytest.fixture(params=[Rest, Socket], ids=["rest", "socket"])
def path(request: Any) -> Path:
    return request.param()  # type: ignore[no-any-return]


async def test_a_whole_match(path: Path, make_user: Any) -> None:
    user = await sync(make_user)()
    match = await sync(commands.create_bot_match)(user)
    view = await path.open(user, match.pk)
    rng = random.Random(3)
    mine = 0
    while view["phase"] != "finished":
        assert view["your_turn"]  # eager bots have answered before the answer
        ok, view = await path.act(choose(view, rng))
        assert ok, view
        mine += 1
    assert mine == 70 and (await sync(Match.objects.get)(pk=match.pk)).status == "finished"
    await path.close()


async def test_the_same_refusals(path: Path, make_user: Any) -> None:
    user = await sync(make_user)()
    match = await sync(commands.create_bot_match)(user)
    view = await path.open(user, match.pk)
    seq = view["seq"]
    refusals = {
        "stale_seq": {"seq": seq + 5, "bid": 3},
        "bad_seq": {"seq": "x", "bid": 3},
        "bad_action": {"seq": seq, "bid": 3, "card": "QH"},
        "bad_bid": {"seq": seq, "bid": "3"},
        "bad_card": {"seq": seq, "card": 7},
        "bad_bid_range": {"seq": seq, "bid": 14},
    }
    codes = {}
    for name, body in refusals.items():
        ok, answer = await path.act(body)
        assert not ok, (name, answer)
        codes[name] = answer["code"]
    assert codes == {"stale_seq": "stale_seq", "bad_seq": "bad_seq", "bad_action": "bad_action",
                     "bad_bid": "bad_bid", "bad_card": "bad_card", "bad_bid_range": "bid_out_of_range"}
    ok, answer = await path.act({"seq": seq + 5, "bid": 3})
    assert answer["seq"] == seq  # a stale seq tells the current one
    ok, view = await path.act({"seq": seq, "bid": 1})
    assert ok
    while view["phase"] == "bidding":
        ok, view = await path.act({"seq": view["seq"], "bid": 1})
    locked = view["locked"]
    if locked:  # a card the rules lock answers with the engine's reason
        ok, answer = await path.act({"seq": view["seq"], "card": next(iter(locked))})
        assert not ok and answer["code"] == next(iter(locked.values()))
    await sync(commands.resign)(user, match.pk)
    ok, answer = await path.act({"seq": (await sync(Match.objects.get)(pk=match.pk)).seq, "card": "AS"})
    assert not ok and answer["code"] in ("autopilot", "match_over", "stale_seq")
    await path.close()


async def test_an_aborted_match_refuses_actions(path: Path, make_user: Any) -> None:
    user = await sync(make_user)()
    match = await sync(commands.create_bot_match)(user)
    view = await path.open(user, match.pk)
    assert await sync(commands.abort_match)(match)
    ok, answer = await path.act({"seq": view["seq"], "bid": 2})
    assert not ok and answer["code"] == "aborted"
    await path.close()


@pytest.mark.rate_limits
async def test_the_same_rate_limits(path: Path, make_user: Any, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "action": ("user", "3/min")}
    cache.clear()
    user = await sync(make_user)()
    match = await sync(commands.create_bot_match)(user)
    view = await path.open(user, match.pk)
    answers = [await path.act({"seq": view["seq"] + 100, "bid": 1}) for _ in range(4)]
    assert [a["code"] for _, a in answers] == ["stale_seq"] * 3 + ["throttled"]
    assert answers[-1][1]["scope"] == "action" and answers[-1][1]["retry_after"] >= 1
    await path.close()
