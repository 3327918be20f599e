"""The ``random`` bot and a simple legal ``heuristic`` (replaced by stronger play in its own module)."""

from __future__ import annotations

import random

from ..cards import SPADES_MASK, card_str, mask_cards
from ..match import Action, Bid, Play
from ..rules import trick_winner_index
from ..views import PlayerView
from .heuristic import strength
from .registry import register


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        if view.legal_bids:
            return Bid(view.seat, rng.choice(view.legal_bids))
        return Play(view.seat, card_str(rng.choice(mask_cards(view.legal_cards))))


class SimpleBot:
    """Counts sure tricks to bid; wins a trick as cheaply as it can, otherwise throws its lowest card."""

    name = "simple"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        if view.legal_bids:
            return Bid(view.seat, simple_bid(view.hand))
        legal = mask_cards(view.legal_cards)
        winners = [c for c in legal if _wins(view, c)]
        if winners and view.trick:
            return Play(view.seat, card_str(min(winners, key=strength)))
        if not view.trick:
            aces = [c for c in legal if c % 13 == 12 and c >= 13]
            if aces:
                return Play(view.seat, card_str(aces[0]))
        return Play(view.seat, card_str(min(legal, key=strength)))


def _wins(view: PlayerView, card: int) -> bool:
    trick = list(view.trick) + [card]
    return trick_winner_index(trick) == len(trick) - 1


def simple_bid(hand: int) -> int:
    """Side aces, high spades and one trick per three spades beyond them."""
    tricks = 0
    for s in (1, 2, 3):
        if hand >> (13 * s + 12) & 1:  # the side ace
            tricks += 1
    spades = hand & SPADES_MASK
    high = sum(1 for c in mask_cards(spades) if c >= 10)  # Q K A
    tricks += high + max(0, (spades.bit_count() - high - 2) // 2)
    return max(1, min(13, tricks))


register("random", RandomBot)
register("simple", SimpleBot)
