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
from . import native
from .inference import BID_SIGMA, Knowledge, bid_likelihood


class Infeasible(ValueError):
    """The constraints admit no deal (they never should for a real view)."""


def _subsets(seats: Sequence[int], allowed: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Every non-empty set of seats as (union of their allowed cards, the seats)."""
    out = []
    n = len(seats)
    for sub in range(1, 1 << n):
        members = tuple(seats[i] for i in range(n) if sub >> i & 1)
        union = 0
        for s in members:
            union |= allowed[s]
        out.append((union, members))
    return out


def _hall_ok(rest: int, subsets: Sequence[tuple[int, tuple[int, ...]]], room: Sequence[int]) -> bool:
    for union, members in subsets:
        need = 0
        for s in members:
            need += room[s]
        if need and (rest & union).bit_count() < need:
            return False
    return True


def sample_hands(
    unseen: int, allowed: Sequence[int], counts: Sequence[int], seats: Sequence[int], rng: random.Random
) -> list[int]:
    """Hands (masks, indexed by seat; 0 for seats not in ``seats``) dealing out all of ``unseen``.

    Cards that some seat may not hold are placed first, one by one under Hall's check; the cards
    any seat may hold are then dealt into the room left, which can never fail.
    """
    room = [0, 0, 0, 0]
    for s in seats:
        room[s] = counts[s]
    if sum(room) != unseen.bit_count():
        raise Infeasible(f"{unseen.bit_count()} unseen cards for {sum(room)} places")
    common = unseen
    for s in seats:
        common &= allowed[s]
    constrained = mask_cards(unseen & ~common)
    hands = [0, 0, 0, 0]
    if constrained:
        subsets = _subsets(seats, [a & unseen for a in allowed])
        if not _hall_ok(unseen, subsets, room):
            raise Infeasible("no deal satisfies the constraints")
        rng.shuffle(constrained)
        constrained.sort(key=lambda c: sum(1 for s in seats if allowed[s] >> c & 1))
        rest = unseen
        for c in constrained:
            bit = 1 << c
            rest ^= bit
            options = [s for s in seats if room[s] and allowed[s] & bit]
            while options:
                total = 0
                for s in options:
                    total += room[s]
                x = rng.random() * total
                pick = options[-1]
                for s in options:
                    x -= room[s]
                    if x < 0:
                        pick = s
                        break
                room[pick] -= 1
                if _hall_ok(rest, subsets, room):
                    hands[pick] |= bit
                    break
                room[pick] += 1
                options.remove(pick)
            else:
                raise Infeasible("dead end")  # unreachable while Hall's condition held before
    free = mask_cards(common)
    rng.shuffle(free)
    i = 0
    for s in seats:
        for c in free[i:i + room[s]]:
            hands[s] |= 1 << c
        i += room[s]
    return hands


def sample_worlds(
    kn: Knowledge, bids: Sequence[int | None], n: int, rng: random.Random, sigma: float = BID_SIGMA,
) -> list[tuple[list[int], float]]:
    """``n`` full deals of the hidden cards (the viewer's own hand filled in) with bid-evidence weights.

    With the C kernel the deals are made in C from ``rng``'s own state, draw for draw (the same worlds,
    the same weights, ``rng`` left where Python would leave it), about twenty times faster.
    """
    if native.KERNEL is not None:
        worlds: list[tuple[list[int], float]]
        state, worlds = native.KERNEL.sample_worlds(
            rng.getstate(), kn.me, kn.hand, kn.unseen, kn.allowed, kn.counts, kn.played_by,
            [-1 if b is None else b for b in bids], n, sigma)
        rng.setstate(state)
        return worlds
    return py_sample_worlds(kn, bids, n, rng, sigma)


def py_sample_worlds(
    kn: Knowledge, bids: Sequence[int | None], n: int, rng: random.Random, sigma: float = BID_SIGMA,
) -> list[tuple[list[int], float]]:
    """:func:`sample_worlds` in Python (without the kernel, and for the tests that compare them)."""
    seats = [s for s in range(4) if s != kn.me]
    out: list[tuple[list[int], float]] = []
    for _ in range(n):
        hands = sample_hands(kn.unseen, kn.allowed, kn.counts, seats, rng)
        hands[kn.me] = kn.hand
        weight = 1.0
        for s in seats:
            b = bids[s]
            if b is not None:
                weight *= bid_likelihood(hands[s] | kn.played_by[s], b, sigma)
        out.append((hands, weight))
    return out
