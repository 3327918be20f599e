"""callbreak-replay/1: export, import, and a verifier that rejects every kind of corruption."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from tests.engine.test_match import random_match


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    final = random_match("replay-doc", random.Random(5))[-1]
    players = [{"seat": s, "name": f"p{s}", "kind": "bot", "bot": "random"} for s in range(4)]
    return json.loads(json.dumps(engine.export_replay(final, players, "m-1")))


def test_export_has_the_required_shape(doc: dict[str, Any]) -> None:
    assert doc["format"] == "callbreak-replay/1"
    assert doc["seed"] == "replay-doc" and doc["seed_commitment"] == engine.seed_commitment("replay-doc")
    assert len(doc["deals"]) == 5
    d = doc["deals"][0]
    assert d["number"] == 1 and len(d["hands"]) == 4 and all(len(h) == 13 for h in d["hands"])
    assert [b["seat"] for b in d["bids"]] == [(d["dealer"] + 1 + i) % 4 for i in range(4)]
    assert len(d["tricks"]) == 13 and len(d["tricks"][0]["plays"]) == 4
    for key in ("scores", "totals"):
        for x in d[key]:
            assert isinstance(x, float) and round(x, 1) == x
    assert doc["final_totals"] == doc["deals"][-1]["totals"]


def test_scores_are_written_with_one_decimal() -> None:
    final = random_match("decimals", random.Random(9))[-1]
    text = json.dumps(engine.export_replay(final))
    for d in final.completed:
        for t in d.scores:
            assert engine.format_tenths(t) in text


def test_verify_accepts_exports_of_many_matches() -> None:
    for n in range(25):
        final = random_match(f"v-{n}", random.Random(100 + n))[-1]
        doc = json.loads(json.dumps(engine.export_replay(final, None, f"m{n}")))
        state = engine.verify_replay(doc)
        assert state.totals == final.totals and state.actions == final.actions


def test_import_rebuilds_the_state(doc: dict[str, Any]) -> None:
    imported = engine.import_replay(doc)
    assert imported.match_id == "m-1" and imported.players[2]["name"] == "p2"
    assert engine.export_replay(imported.state, imported.players, "m-1") == doc


def test_export_refuses_an_unfinished_match() -> None:
    with pytest.raises(engine.EngineError) as err:
        engine.export_replay(engine.new_match("x"))
    assert err.value.code == "not_finished"


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        target: Any = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _swap_two_plays(d: dict[str, Any]) -> None:
    plays = d["deals"][2]["tricks"][5]["plays"]
    plays[1]["card"], plays[2]["card"] = plays[2]["card"], plays[1]["card"]


def _swap_cards_between_hands(d: dict[str, Any]) -> None:
    hands = d["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _reorder_bids(d: dict[str, Any]) -> None:
    bids = d["deals"][1]["bids"]
    bids[0], bids[1] = bids[1], bids[0]


CORRUPTIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "format": _set(["format"], "callbreak-replay/2"),
    "seed": _set(["seed"], "another-seed"),
    "commitment": _set(["seed_commitment"], "0" * 64),
    "first dealer": _set(["first_dealer"], 9),
    "dealer": _set(["deals", 1, "dealer"], 7),
    "hands": _swap_cards_between_hands,
    "bid out of range": _set(["deals", 0, "bids", 0, "bid"], 0),
    "bid order": _reorder_bids,
    "bid count": lambda d: d["deals"][0]["bids"].pop(),
    "swapped plays": _swap_two_plays,
    "trick winner": lambda d: d["deals"][3]["tricks"][7].update(
        winner=(d["deals"][3]["tricks"][7]["winner"] + 1) % 4),
    "trick leader": lambda d: d["deals"][3]["tricks"][8].update(
        leader=(d["deals"][3]["tricks"][8]["leader"] + 1) % 4),
    "tricks won": lambda d: d["deals"][4]["tricks_won"].reverse() if len(set(d["deals"][4]["tricks_won"])) > 1
    else d["deals"][4]["tricks_won"].__setitem__(0, 14),
    "score": lambda d: d["deals"][2]["scores"].__setitem__(0, d["deals"][2]["scores"][0] + 0.1),
    "total": lambda d: d["deals"][2]["totals"].__setitem__(3, d["deals"][2]["totals"][3] - 1),
    "final totals": lambda d: d["final_totals"].__setitem__(1, 99.9),
    "winners": lambda d: d.__setitem__("winners", [(d["winners"][0] + 1) % 4]),
    "not one decimal": lambda d: d["deals"][0]["scores"].__setitem__(0, d["deals"][0]["scores"][0] + 0.05),
    "missing deal": lambda d: d["deals"].pop(),
    "missing trick": lambda d: d["deals"][0]["tricks"].pop(),
    "missing key": lambda d: d.pop("winners"),
    "players": lambda d: d["players"].pop(),
    "card notation": _set(["deals", 0, "tricks", 0, "plays", 0, "card"], "1S"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_verify_rejects_corruption(doc: dict[str, Any], name: str) -> None:
    bad = copy.deepcopy(doc)
    CORRUPTIONS[name](bad)
    assert bad != doc
    with pytest.raises(engine.VerifyError) as err:
        engine.verify_replay(bad)
    assert str(err.value)


def test_verify_rejects_non_objects() -> None:
    for bad in (None, [], "replay", 3):
        with pytest.raises(engine.VerifyError):
            engine.verify_replay(bad)
