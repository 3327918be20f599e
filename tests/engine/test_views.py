"""Views: a seat sees its own hand and public facts only; nobody sees the seed before the end."""

from __future__ import annotations

import json
import random

import engine
from engine.cards import card_str, mask_cards
from tests.engine.test_match import random_match


def _unplayed(state: engine.MatchState, seat: int) -> set[str]:
    return {card_str(c) for c in mask_cards(state.hands[seat])}


def test_no_view_leaks_another_hand_or_the_seed() -> None:
    for n in range(6):
        states = random_match(f"leak-{n}", random.Random(n))
        for state in states:
            for seat in (0, 1, 2, 3, None):
                view = engine.player_view(state, seat)
                data = view.to_json()
                if not state.tricks and state.completed:
                    # At a deal's start the last trick shown is the previous deal's final one: its
                    # cards were played then and dealt again since, so they prove nothing.
                    assert data.pop("last_trick") == state.completed[-1].tricks[-1].to_json()
                text = json.dumps(data)
                for other in range(4):
                    if other == seat:
                        continue
                    for card in _unplayed(state, other):
                        assert f'"{card}"' not in text, (seat, other, card, state)
                if not state.is_finished:
                    assert state.seed not in text
                    assert view.seed is None
                else:
                    assert view.to_json()["seed"] == state.seed


def test_view_contents_for_the_seat_to_move() -> None:
    s = engine.new_match("example-seed")
    v = engine.player_view(s, 0).to_json()
    assert v["hand"] == ["QS", "TS", "6S", "4S", "QH", "9H", "JC", "3C", "KD", "TD", "7D", "6D", "2D"]
    assert v["legal"] == list(range(1, 14)) and v["locked"] == {}
    assert v["first_trick"] is True  # the first trick is still to come
    assert v["turn"] == 0 and v["dealer"] == 3 and v["version"] == 0
    assert v["seed_commitment"] == engine.seed_commitment("example-seed")
    other = engine.player_view(s, 1).to_json()
    assert other["legal"] == [] and other["locked"] == {}
    for bid in (4, 3, 5, 2):
        s = engine.apply(s, engine.Bid(s.turn, bid))  # type: ignore[arg-type]
    v = engine.player_view(s, 0).to_json()
    assert v["bids"] == [4, 3, 5, 2]
    assert v["first_trick"] is True
    assert set(v["legal"]) == set(v["hand"]) - {"QS", "TS", "6S", "4S"}
    assert v["locked"] == {c: "no_spade_lead_first_trick" for c in ("4S", "6S", "TS", "QS")}
    s = engine.apply(s, engine.Play(0, "9H"))
    v1 = engine.player_view(s, 1).to_json()
    assert v1["trick"] == {"leader": 0, "plays": [{"seat": 0, "card": "9H"}]}
    assert set(v1["legal"]) == {"5H", "6H", "2H"}
    assert set(v1["locked"].values()) == {"must_follow_suit"}
    assert v1["hand_counts"] == [12, 13, 13, 13]


def test_last_trick_and_deal_summaries() -> None:
    states = random_match("summary", random.Random(3))
    at_deal_2 = next(s for s in states if s.deal_number == 2)
    v = engine.player_view(at_deal_2, 1).to_json()
    assert v["tricks"] == [] and v["last_trick"] is not None  # the final trick of deal 1
    assert len(v["deals"]) == 1 and v["deals"][0]["number"] == 1
    assert v["totals"] == v["deals"][0]["totals"]
    final = engine.player_view(states[-1], 2).to_json()
    assert final["phase"] == "finished" and final["turn"] is None and final["legal"] == []
    assert final["winners"] == list(states[-1].winners) and len(final["deals"]) == 5


def test_spectator_view_has_no_hand() -> None:
    s = engine.new_match("spectate")
    v = engine.spectator_view(s).to_json()
    assert v["seat"] is None and v["hand"] == [] and v["legal"] == [] and v["seed"] is None
