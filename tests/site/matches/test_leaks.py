"""Leak test over whole matches: nothing sent to a seat (HTTP response or WebSocket message)
holds another seat's unplayed card, or the seed before the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from site_helpers import assert_no_leak, choose, client_for, token_for

import engine
from callbreak_site.asgi import application
from games.matches import commands, store
from games.matches.commands import SeatSpec
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


async def test_two_people_two_bots_whole_match_nothing_leaks(make_user: Any) -> None:
    people = [await database_sync_to_async(make_user)() for _ in range(2)]
    match = await database_sync_to_async(commands.create_match)(
        seats=[SeatSpec(user=people[0]), SeatSpec(bot="random"), SeatSpec(user=people[1]), SeatSpec(bot="random")])
    seed = match.seed
    seat_of = {0: people[0], 2: people[1]}
    apis = {s: await database_sync_to_async(client_for)(u) for s, u in seat_of.items()}
    tokens = {s: await database_sync_to_async(token_for)(u) for s, u in seat_of.items()}
    comms = {}
    for s in seat_of:
        comm = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/?token={tokens[s]}",
                                     headers=[(b"origin", b"http://testserver")])
        assert (await comm.connect())[0]
        comms[s] = comm

    states: dict[int, engine.MatchState] = {}

    def state_at(seq: int) -> engine.MatchState:
        if seq not in states:
            states[seq] = store.state_of(Match.objects.get(pk=match.pk), upto=seq)
        return states[seq]

    async def check(seat: int, message: Any) -> None:
        view = message.get("match", message)
        assert_no_leak(message, await database_sync_to_async(state_at)(view["seq"]), seat, seed)

    latest: dict[int, dict[str, Any]] = {}
    rng = random.Random(2024)
    seen: dict[int, list[int]] = {s: [] for s in seat_of}
    while True:
        # The eager bots have moved by now; read every socket up to the match's current seq,
        # checking each message against the state at its own seq.
        current = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).seq
        for s, comm in comms.items():
            while s not in latest or latest[s]["seq"] < current:
                msg = await comm.receive_json_from(timeout=10)
                await check(s, msg)
                seen[s].append(msg["match"]["seq"])
                latest[s] = msg["match"]
        view = latest[0]
        if view["phase"] == "finished":
            break
        mover = view["turn"]
        assert mover in seat_of, "bots should have moved already"
        api = apis[mover]
        r = await database_sync_to_async(lambda a=api: a.get(f"/api/matches/{match.pk}/"))()
        await check(mover, r.json())
        body = choose(r.json(), rng)
        r = await database_sync_to_async(
            lambda a=api, b=body: a.post(f"/api/matches/{match.pk}/actions/", b, format="json"))()
        assert r.status_code == 200
        await check(mover, r.json())
        lst = await database_sync_to_async(lambda a=api: a.get("/api/matches/"))()
        await check(mover, {"seq": view["seq"], "rows": lst.json()})
    for comm in comms.values():
        await comm.disconnect()
    for seqs in seen.values():  # each socket's views only moved forward, to the end (bursts coalesced)
        assert seqs == sorted(set(seqs)) and seqs[-1] == 280
    final = latest[0]
    assert final["seq"] == 280 and final["seed"] == seed  # the seed only now
    assert seed in json.dumps(final)


def test_the_leak_check_catches_a_leak() -> None:
    """The checker itself must be able to fail: another seat's hand, or the seed, is caught."""
    state = engine.new_match("example-seed")
    other = engine.player_view(state, 1).to_json()["hand"]
    with pytest.raises(AssertionError, match="other seats' cards"):
        assert_no_leak({"match": {"note": {other[0]: "x"}}}, state, 0, "example-seed")
    with pytest.raises(AssertionError, match="seed"):
        assert_no_leak({"debug": "seed=example-seed"}, state, 0, "example-seed")
    assert_no_leak(engine.player_view(state, 0).to_json(), state, 0, "example-seed")
