"""engine.solo: the offline match the installed app plays in a worker, and the replay the server verifies."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
import engine.bots
from engine.solo import SAVE_FORMAT, SoloMatch, handle


def _human_move(match: SoloMatch, rng: random.Random) -> dict[str, Any]:
    view = match.view()
    assert view["your_turn"] and view["legal"]
    key = "bid" if view["phase"] == "bidding" else "card"
    return {"seq": view["seq"], key: rng.choice(view["legal"])}


def _play_out(match: SoloMatch, rng: random.Random) -> list[dict[str, Any]]:
    messages = [match.play_bots()]
    while not match.state.is_finished:
        messages.append(match.act(_human_move(match, rng)))
    return messages


def test_a_whole_match_exports_a_replay_the_verifier_accepts() -> None:
    match = SoloMatch("solo-1", level="easy", seat=2, name="asha", match_id="local-1")
    messages = _play_out(match, random.Random(1))
    doc = json.loads(json.dumps(match.export()))
    state = engine.verify_replay(doc)
    assert state.actions == match.state.actions
    assert doc["seed_commitment"] == engine.seed_commitment("solo-1") and doc["match_id"] == "local-1"
    assert [p["kind"] for p in doc["players"]] == ["bot", "bot", "human", "bot"]
    assert doc["players"][2]["name"] == "asha" and doc["players"][0]["bot"] == "easy"
    # each message carries the actions from its `since` to its view's seq, as the match socket does
    for msg in messages:
        assert msg["since"] + len(msg["actions"]) == msg["match"]["seq"]
    assert sum(len(m["actions"]) for m in messages) == match.state.version == 5 * (4 + 52)


def test_the_view_is_the_human_seats_and_keeps_the_seed_until_the_end() -> None:
    match = SoloMatch("solo-2", level="easy")
    match.play_bots()
    view = match.view()
    assert view["seat"] == 0 and len(view["hand"]) == 13 and view["seed"] is None
    assert view["seed_commitment"] == engine.seed_commitment("solo-2")
    assert view["seats"][0]["you"] and view["seats"][1]["kind"] == "bot" and view["status"] == "active"
    assert view["your_turn"] and view["rated"] is False
    _play_out(match, random.Random(2))
    end = match.view()
    assert end["seed"] == "solo-2" and end["status"] == "finished" and end["winners"]


def test_bots_decide_as_on_the_server() -> None:
    """Seeded by (bot seed, seq, seat) from their own seat's view: the same move the site's bot makes."""
    match = SoloMatch("solo-3", level="normal", bot_seed="b")
    match.play_bots()
    for action in match.state.actions:
        before = engine.replay("solo-3", match.state.actions[:match.state.actions.index(action)])
        assert engine.bots.decide("normal", engine.player_view(before, action.seat), "b") == action


def test_an_illegal_or_stale_move_changes_nothing() -> None:
    match = SoloMatch("solo-4", level="easy")
    match.play_bots()
    seq = match.state.version
    with pytest.raises(engine.EngineError) as stale:
        match.act({"seq": seq + 1, "bid": 3})
    assert stale.value.code == "stale_seq"
    with pytest.raises(engine.EngineError):
        match.act({"seq": seq, "bid": 14})
    assert match.state.version == seq


def test_a_saved_match_resumes_where_it_stopped() -> None:
    match = SoloMatch("solo-5", level="normal", name="ram")
    match.play_bots()
    rng = random.Random(5)
    for _ in range(10):
        match.act(_human_move(match, rng))
    saved = json.loads(json.dumps(match.save()))
    assert saved["format"] == SAVE_FORMAT
    again = SoloMatch.load(saved)
    assert again.state.actions == match.state.actions and again.view() == match.view()


def test_only_the_offline_levels() -> None:
    with pytest.raises(engine.EngineError):
        SoloMatch("s", level="hard")


def test_the_worker_entry_speaks_json() -> None:
    start = json.loads(handle(json.dumps({"op": "start", "seed": "solo-6", "level": "easy", "name": "sita"})))
    assert start["match"]["your_turn"] and start["save"]["seed"] == "solo-6" and "replay" not in start
    bad = json.loads(handle(json.dumps({"op": "act", "seq": start["match"]["seq"], "bid": 0})))
    assert bad["error"]["code"] and bad["error"]["detail"]
    assert json.loads(handle("not json"))["error"]["code"] == "bad_request"
    resumed = json.loads(handle(json.dumps({"op": "resume", "save": start["save"]})))
    assert resumed["match"] == start["match"]
    rng = random.Random(6)
    answer = resumed
    while "replay" not in answer:
        view = answer["match"]
        key = "bid" if view["phase"] == "bidding" else "card"
        answer = json.loads(handle(json.dumps({"op": "act", "seq": view["seq"], key: rng.choice(view["legal"])})))
        assert "error" not in answer
    assert engine.verify_replay(answer["replay"]).is_finished
