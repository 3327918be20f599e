"""Positions with the same public history and other hidden hands: a decision made from a seat's view
must not change when the cards it cannot see are dealt anew."""

from __future__ import annotations

import random

from engine.cards import mask_cards
from engine.match import MatchState


def shuffled_twin(state: MatchState, seat: int, rng: random.Random) -> MatchState:
    """The same public history, the other seats' unplayed cards dealt anew (same counts)."""
    twin = state.copy()
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in mask_cards(state.hands[s])]
    rng.shuffle(pool)
    for s in others:
        n = state.hands[s].bit_count()
        twin.hands[s] = sum(1 << c for c in pool[:n])
        pool = pool[n:]
    return twin
