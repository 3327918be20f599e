"""The Bhoos bridge's requests against the 2022 contest's own starter code (Bhoos/callbreak-tournament-starter-code:
python_docker/src/app.py's documented /bid and /play bodies, card.py's card parser, parsers/stateToApiParser.js):
every request of a whole engine-played match is checked by the test server's ``check_request``, its ``history``
is replayed against the engine's trick rule, and the bot's answers come back to the site's notation."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from servers import ROOT

from bots.bhoos_server import BhoosServer, check_request
from engine import Bid, Play, apply, new_match, player_view, trick_winner

sys.path.insert(0, str(ROOT / "clients" / "python"))
from callbreak_client.players import (  # noqa: E402 - the client is its own package beside the site
    BhoosPlayer,
    bhoos_body,
    from_bhoos,
    legal_or_substitute,
    points,
    time_budget,
    to_bhoos,
)


def _turn(state: Any) -> int:
    assert state.turn is not None
    return int(state.turn)


def _site(card: str) -> str:
    return "A" + card[1] if card[0] == "1" else card


def test_cards_are_written_as_the_starter_code_reads_them() -> None:
    assert [to_bhoos(c) for c in ["AS", "KS", "TH", "9D", "2C"]] == ["1S", "KS", "TH", "9D", "2C"]
    assert [from_bhoos(c) for c in ["1S", "TH", "qd", " 1h ", "1C/0"]] == ["AS", "TH", "QD", "AH", "AC"]
    # not a card: left as sent, so the legality check refuses it and logs it as sent
    assert [from_bhoos(c) for c in ["1X", "AS", "10S", 3, None]] == ["1X", "AS", "10S", 3, None]


def test_points_and_time_budget() -> None:
    assert [points(t) for t in [0, 41, -30, 125, -11]] == [0, 4.1, -3, 12.5, -1.1]
    assert isinstance(points(0), int)
    assert time_budget({}, 5.0) == 5000
    assert time_budget({"seconds_left": 3}, 5.0) == 2000
    assert time_budget({"seconds_left": 0}, 5.0) == 0
    assert time_budget({"seconds_left": 60}, 1.5) == 1500


def _starter_play_sample() -> dict[str, Any]:
    """A /play body laid out as the starter code documents it (ids not in seat order, ace "1", ten "T")."""
    players = {pid: {"totalPoints": 0, "bid": 3, "won": 0} for pid in ["P3", "P0", "P2", "P1"]}
    players["P1"]["won"] = 2
    return {"timeBudget": 1200, "playerId": "P1", "playerIds": ["P0", "P1", "P2", "P3"],
            "cards": ["QC", "9C", "2C", "KH", "JH", "4H", "JD", "9D", "7D", "6D", "8S"],
            "played": ["2H", "8H"],
            "history": [[1, ["TS", "KS", "1S", "5S"], 3], [3, ["QS", "6S", "TH", "2S"], 3]],
            "context": {"round": 1, "players": players}}


def test_the_check_accepts_the_starter_layout_and_refuses_others() -> None:
    sample = _starter_play_sample()
    sample["context"]["players"]["P1"]["won"] = 0
    sample["context"]["players"]["P3"]["won"] = 2  # the two tricks' winner, index 3
    check_request("/play", sample)
    bid = {k: sample[k] for k in ["playerId", "playerIds", "context"]}
    bid["cards"] = ["1S", "TS", "8S", "7S", "6S", "4S", "3S", "9H", "6H", "5H", "1C", "1D", "JD"]
    bid["context"] = {"round": 1, "players": {p: {"totalPoints": 4.1, "bid": 0, "won": 0} for p in sample["playerIds"]}}
    check_request("/bid", bid)
    wrong: list[dict[str, Any]] = []
    for change in [{"cards": ["AS"] + sample["cards"][1:]}, {"timeBudget": 1.5}, {"played": ["10H"]},
                   {"history": [{"start": 1, "cards": ["TS", "KS", "1S", "5S"], "winner": 3}]},
                   {"context": {"round": 1, "players": {}}}, {"playerId": "P9"}]:
        wrong.append({**sample, **change})
    wrong.append({k: v for k, v in sample.items() if k != "timeBudget"})
    for body in wrong:
        with pytest.raises(AssertionError):
            check_request("/play", body)
    with pytest.raises(AssertionError):
        check_request("/bid", {**bid, "played": []})


@pytest.mark.parametrize("seed", ["bhoos-a", "bhoos-b"])
def test_every_request_of_a_whole_match_has_the_starter_shapes(seed: str) -> None:
    rng = random.Random(seed)
    state = new_match(seed)
    requests = {"/bid": 0, "/play": 0}
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat).to_json()
        view["seconds_left"] = 30
        path = "/bid" if view["phase"] == "bidding" else "/play"
        body = bhoos_body(view)
        check_request(path, body)
        requests[path] += 1
        assert body["playerIds"][seat] == body["playerId"] and body["context"]["round"] == view["deal_number"]
        assert sorted(_site(c) for c in body["cards"]) == sorted(view["hand"])
        if path == "/bid":
            state = apply(state, Bid(seat, rng.choice(view["legal"])))
            continue
        assert body["timeBudget"] == 5000
        # history: the leader's index, the cards from the leader on in play order, the winner's index
        for start, cards, winner in body["history"]:
            assert (start + trick_winner([_site(c) for c in cards])) % 4 == winner
        leader = body["history"][-1][2] if body["history"] else None
        if leader is not None:
            assert (leader + len(body["played"])) % 4 == seat
        answer = to_bhoos(rng.choice(view["legal"]))
        action = legal_or_substitute(view, {"card": from_bhoos(answer)}, "test")
        state = apply(state, Play(seat, action["card"]))
    assert requests == {"/bid": 20, "/play": 5 * 52}


def test_the_bridge_greets_and_asks_the_test_server() -> None:
    server = BhoosServer()
    try:
        player = BhoosPlayer(server.url)
        assert player.hello(wait=5) is True and server.greeted == 1
        state = new_match("bhoos-c")
        view = player_view(state, _turn(state)).to_json()
        answer = player.decide(view)
        assert answer["bid"] == answer["bhoos"] and answer["bid"] in range(1, 9)
        state = apply(state, Bid(_turn(state), answer["bid"]))
        while state.phase == "bidding":
            state = apply(state, Bid(_turn(state), 2))
        view = player_view(state, _turn(state)).to_json()
        answer = player.decide(view)
        assert answer["card"] in view["legal"] and answer["bhoos"] == to_bhoos(answer["card"])
        assert server.errors == [] and [p for p, _ in server.requests] == ["/bid", "/play"]
    finally:
        server.close()
    closed = BhoosPlayer(server.url, timeout=0.5)
    assert closed.hello(wait=0) is False
    assert closed.decide(view) == {}
