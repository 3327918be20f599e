"""Deal the unseen cards to the other seats consistently with every hard constraint.

Each seat ``s`` may take only cards of ``allowed[s]`` and must end with exactly ``counts[s]`` of
them.  Cards are placed one at a time, most constrained first, each to a random seat weighted by
the room it has left, and a placement is kept only if Hall's condition still holds for the rest
(for every set of seats, the cards that may go to one of them are at least the room they have).
With three seats that is seven checks, and it guarantees the deal never dead-ends.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import mask_cards
from .inference import Knowledge, bid_likelihood


class Infeasible(ValueError):
    """The constraints admit no deal (they never should for a real view)."""


def _hall_ok(rest: int, seats: Sequence[int], allowed: Sequence[int], room: Sequence[int]) -> bool:
    n = len(seats)
    for sub in range(1, 1 << n):
        union = 0
        need = 0
        for i in range(n):
            if sub >> i & 1:
                union |= allowed[seats[i]]
                need += room[seats[i]]
        if (rest & union).bit_count() < need:
            return False
    return True


def sample_hands(
    unseen: int, allowed: Sequence[int], counts: Sequence[int], seats: Sequence[int], rng: random.Random
) -> list[int]:
    """Hands (masks, indexed by seat; 0 for seats not in ``seats``) dealing out all of ``unseen``."""
    room = [0, 0, 0, 0]
    for s in seats:
        room[s] = counts[s]
    if sum(room) != unseen.bit_count():
        raise Infeasible(f"{unseen.bit_count()} unseen cards for {sum(room)} places")
    if not _hall_ok(unseen, seats, allowed, room):
        raise Infeasible("no deal satisfies the constraints")
    cards = mask_cards(unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for s in seats if allowed[s] >> c & 1))
    hands = [0, 0, 0, 0]
    rest = unseen
    for c in cards:
        bit = 1 << c
        rest ^= bit
        options = [s for s in seats if room[s] and allowed[s] & bit]
        while options:
            total = sum(room[s] for s in options)
            x = rng.random() * total
            pick = options[-1]
            for s in options:
                x -= room[s]
                if x < 0:
                    pick = s
                    break
            room[pick] -= 1
            if _hall_ok(rest, seats, allowed, room):
                hands[pick] |= bit
                break
            room[pick] += 1
            options.remove(pick)
        else:
            raise Infeasible("dead end")  # unreachable while Hall's condition held before
    return hands


def sample_worlds(
    kn: Knowledge, bids: Sequence[int | None], n: int, rng: random.Random
) -> list[tuple[list[int], float]]:
    """``n`` full deals of the hidden cards (the viewer's own hand filled in) with bid-evidence weights."""
    seats = [s for s in range(4) if s != kn.me]
    out: list[tuple[list[int], float]] = []
    for _ in range(n):
        hands = sample_hands(kn.unseen, kn.allowed, kn.counts, seats, rng)
        hands[kn.me] = kn.hand
        weight = 1.0
        for s in seats:
            b = bids[s]
            if b is not None:
                weight *= bid_likelihood(hands[s] | kn.played_by[s], b)
        out.append((hands, weight))
    return out
