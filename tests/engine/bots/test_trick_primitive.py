"""The trick step every play-out, search and bot takes (:class:`engine.rules.DealInPlay`), and the forced-play reading
(:func:`engine.bots.inference.forbidden_by_play`, read off :func:`engine.rules.legal_mask`) against the readings
written out rule by rule."""

from __future__ import annotations

import itertools
import random

from engine import apply, new_match
from engine.bots.inference import forbidden_by_play
from engine.cards import ABOVE, NON_SPADES_MASK, SPADES_MASK, SUIT_MASKS, card_str, mask_cards
from engine.match import Bid, Play
from engine.rules import DealInPlay


def _by_the_rules(trick: list[int], card: int, first: bool) -> int:
    """The readings of a forced play written out rule by rule (:mod:`engine.bots.inference`'s list), apart from
    :func:`engine.rules.legal_mask` on which ``forbidden_by_play`` is built."""
    if not trick:
        return NON_SPADES_MASK if first and card < 13 else 0  # a spade leads the first trick only from all spades
    led = trick[0] // 13
    best_led = max((c for c in trick if c // 13 == led), default=-1)
    best_spade = max((c for c in trick if c < 13), default=-1)
    if card // 13 != led:
        no = SUIT_MASKS[led]  # void in the led suit
        if led:
            if best_spade < 0:
                if card >= 13:
                    no |= SPADES_MASK  # an untrumped side-suit trick: any spade would have won, so was forced
            elif card >= 13 or card < best_spade:
                no |= ABOVE[best_spade]  # could not over-trump
        return no
    if led == 0:
        return ABOVE[best_spade] if card < best_spade else 0  # spade led: beat the highest spade when able
    if best_spade < 0 and card < best_led:
        return ABOVE[best_led]  # untrumped: beat the highest card of the led suit when able
    return 0


def test_forbidden_by_play_is_the_rules_reading_on_every_short_trick() -> None:
    checked = 0
    for size in (0, 1, 2):
        for trick in itertools.permutations(range(52), size):
            for card in range(52):
                if card in trick:
                    continue
                for first in (False, True):
                    assert forbidden_by_play(list(trick), card, first) == _by_the_rules(list(trick), card, first), (
                        trick, card, first)
                    checked += 1
    assert checked > 250_000


def test_forbidden_by_play_is_the_rules_reading_on_three_card_tricks() -> None:
    rng = random.Random(3)
    for _ in range(20_000):
        cards = rng.sample(range(52), 4)
        trick, card = cards[:3], cards[3]
        assert forbidden_by_play(trick, card, False) == _by_the_rules(trick, card, False), (trick, card)


def test_deal_in_play_keeps_the_engine_s_tricks_leaders_and_turns() -> None:
    """Random legal cards through whole deals: after every card the :class:`DealInPlay` names the engine's seat to
    play and its legal cards, and its hands, trick on the table, leader and tricks won are the engine's."""
    rng = random.Random(11)
    cards_played = 0
    for m in range(8):
        state = new_match(f"trick-step-{m}")
        while state.phase == "bidding":
            assert state.turn is not None
            state = apply(state, Bid(state.turn, rng.randint(1, 5)))
        deal = DealInPlay(state.hands, state.trick_leader, state.trick, state.tricks_won, first=True)
        while not state.completed:
            seat = state.turn
            assert seat is not None and not deal.over
            assert (deal.to_play, deal.legal_mask()) == (seat, state.legal_cards())
            card = rng.choice(mask_cards(state.legal_cards()))
            deal.play(card)
            state = apply(state, Play(seat, card_str(card)))
            cards_played += 1
            if not state.completed:
                assert (deal.hands, deal.trick, deal.leader, deal.won, deal.first) == (
                    state.hands, state.trick, state.trick_leader, state.tricks_won, not state.tricks)
        assert deal.over and deal.won == list(state.completed[-1].tricks_won) and deal.hands == [0, 0, 0, 0]
    assert cards_played == 8 * 52
