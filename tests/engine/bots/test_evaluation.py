"""Hand evaluation and the bid formula: the seeds' example hand, and the careful bid's bounds."""

from __future__ import annotations

from engine import new_match, player_view
from engine.bots.evaluation import BID_FACTOR, careful_bid, estimate_tricks, expected_bid
from engine.bots.heuristic import heuristic_bid
from engine.cards import cards_to_mask


def test_seed_example_hand_bids_four() -> None:
    hand = cards_to_mask("KS JS 6S 5S 2S AH 8H AD QD 7D 9C 6C 3C".split())
    assert 4 <= estimate_tricks(hand) <= 5
    state = new_match("example-seed")
    view = player_view(state, state.turn)
    view = view.__class__(**{**{f: getattr(view, f) for f in view.__slots__}, "hand": hand})  # type: ignore[attr-defined]
    assert heuristic_bid(view) == 4


def test_careful_bid_is_the_rounded_down_share_of_the_estimate_within_1_to_13() -> None:
    for tenths in range(0, 200):
        est = tenths / 10
        assert expected_bid(est) == est * BID_FACTOR
        assert careful_bid(est) == max(1, min(13, int(est * 0.88 + 0.1)))
    assert careful_bid(0.0) == 1 and careful_bid(30.0) == 13
