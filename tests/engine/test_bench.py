"""The benchmark's random playout inlines the rules: check it plays exactly what the rules allow.

With a source whose ``getrandbits`` always returns the same value ``v``, the playout always takes
the ``v % n``-th lowest legal card: a deterministic policy we can re-run through the slow path.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.bench import random_deal_scores, random_playout
from engine.cards import mask_cards
from engine.deal import deal_masks
from engine.rules import legal_mask, trick_winner_index


class Constant(random.Random):
    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def getrandbits(self, k: int) -> int:
        return self.value


def slow_playout(hands: list[int], leader: int, value: int, trick: list[int], first: bool) -> list[int]:
    hands = list(hands)
    won = [0, 0, 0, 0]
    trick = list(trick)
    seat = (leader + len(trick)) % 4
    while hands[seat] or trick:
        legal = mask_cards(legal_mask(hands[seat], trick, first))
        card = legal[value % len(legal)]
        hands[seat] ^= 1 << card
        trick.append(card)
        if len(trick) == 4:
            winner = (leader + trick_winner_index(trick)) % 4
            won[winner] += 1
            leader = seat = winner
            trick = []
            first = False
        else:
            seat = (seat + 1) % 4
    return won


@pytest.mark.parametrize("value", [0, 1, 2, 3, 5, 7, 11, 2**32 - 1, 123456789])
def test_playout_from_dealt_hands_follows_the_rules(value: int) -> None:
    for i in range(60):
        dealer = i % 4
        hands = deal_masks(f"po-{i}", 1, dealer)
        leader = (dealer + 1) % 4
        assert random_playout(hands, leader, Constant(value)) == slow_playout(hands, leader, value, [], True)


def test_playout_from_positions_in_the_middle_of_a_trick() -> None:
    rng = random.Random(4)
    checked = 0
    for n in range(30):
        state = engine.new_match(f"mid-{n}")
        while state.turn is not None and state.deal_number == 1:
            if state.phase == engine.PLAYING and state.trick:
                for value in (0, 3, 2**31 + 5):
                    fast = random_playout(state.hands, state.trick_leader, Constant(value), state.trick,
                                          state.tricks_won, not state.tricks)
                    slow = slow_playout(state.hands, state.trick_leader, value, state.trick, not state.tricks)
                    assert fast == [a + b for a, b in zip(slow, state.tricks_won, strict=True)]
                    checked += 1
            seat = state.turn
            if state.phase == engine.BIDDING:
                action: engine.Action = engine.Bid(seat, 3)
            else:
                action = engine.Play(seat, rng.choice(mask_cards(state.legal_cards())))
            state = engine.apply(state, action)
    assert checked > 500


def test_random_playouts_sum_to_13_and_vary() -> None:
    rng = random.Random(1)
    hands = deal_masks("vary", 1, 0)
    outcomes = {tuple(random_playout(hands, 1, rng)) for _ in range(300)}
    assert all(sum(o) == 13 for o in outcomes)
    assert len(outcomes) > 10
    scores = random_deal_scores(hands, 0, rng)
    assert len(scores) == 4 and all(-130 <= s <= 130 for s in scores)
