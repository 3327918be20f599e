"""Sampled deals always satisfy every hard constraint, with the right hand sizes."""

from __future__ import annotations

import random

import pytest

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.inference import knowledge
from engine.bots.sampler import Infeasible, sample_hands, sample_worlds
from engine.cards import SUIT_MASKS


def _views(seed: str, bots: list[str], stop_deal: int = 2):  # type: ignore[no-untyped-def]
    state = new_match(seed)
    while not state.is_finished and state.deal_number <= stop_deal:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        if state.phase == "playing":
            yield view
        state = apply(state, decide(bots[seat], view, seed))


def test_samples_satisfy_constraints_and_sizes() -> None:
    rng = random.Random(7)
    checked = 0
    for m in range(4):
        for view in _views(f"sampler-{m}", ["heuristic", "random", "heuristic", "random"]):
            kn = knowledge(view)
            for hands, weight in sample_worlds(kn, view.bids, 5, rng):
                assert weight > 0
                assert hands[kn.me] == view.hand
                union = 0
                for s in range(4):
                    assert union & hands[s] == 0
                    union |= hands[s]
                    assert hands[s].bit_count() == view.hand_counts[s]
                    if s != kn.me:
                        assert hands[s] & ~kn.allowed[s] == 0
                assert union == kn.unseen | view.hand
                checked += 1
    assert checked > 1000


def test_tight_constraints_are_always_met() -> None:
    """Two seats void in whole suits force the rest: Hall's check never dead-ends."""
    rng = random.Random(1)
    unseen = SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]  # 39 cards
    allowed = [0, SUIT_MASKS[1] | SUIT_MASKS[2], SUIT_MASKS[2] | SUIT_MASKS[3], unseen]
    for _ in range(300):
        hands = sample_hands(unseen, allowed, [0, 13, 13, 13], [1, 2, 3], rng)
        assert all(hands[s] & ~allowed[s] == 0 and hands[s].bit_count() == 13 for s in (1, 2, 3))


def test_infeasible_constraints_are_reported() -> None:
    unseen = SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
    allowed = [0, SUIT_MASKS[1], SUIT_MASKS[1], unseen]
    with pytest.raises(Infeasible):
        sample_hands(unseen, allowed, [0, 13, 13, 13], [1, 2, 3], random.Random(0))
