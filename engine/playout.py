"""Fast random playouts on masks, for benchmarks and for bots that simulate.

These loops inline the rules of :mod:`engine.rules` (a test checks them against
:func:`engine.rules.legal_mask`) because a bot runs thousands of playouts per decision and a
function call per card would halve the speed.  A uniform pick from a one-suit set is a lookup in
``SUIT_BITS``; only leads and free discards walk the suits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import ABOVE, SPADES_MASK
from .rules import NON_SPADES_MASK

#: ``ABOVE_IN_SUIT[c]``: the ranks above ``c`` in its suit as a 13-bit pattern.
ABOVE_IN_SUIT: tuple[int, ...] = tuple(ABOVE[c] >> (13 * (c // 13)) for c in range(52))
#: The three seats that play after ``s`` in a trick.
_NEXT3: tuple[tuple[int, ...], ...] = tuple(tuple((s + i) % 4 for i in (1, 2, 3)) for s in range(4))

#: ``SUIT_BITS[m]``: the ranks (0..12) present in the 13-bit suit pattern ``m``.
SUIT_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)




def random_playout(
    hands: Sequence[int],
    leader: int,
    rng: random.Random,
    trick: Sequence[int] = (),
    won: Sequence[int] = (0, 0, 0, 0),
    first_trick: bool = True,
) -> list[int]:
    """Play the rest of a deal uniformly at random over legal cards; return tricks won per seat.

    ``hands`` are the unplayed cards of each seat, ``trick`` the cards already in the current
    trick led by ``leader``.  Picks are ``getrandbits(32) % n``: twice as fast as scaling a float,
    and the bias (n / 2**32, under 10**-8) is far below anything a bot or a test could notice.

    Legality decides the winner as a side effect: a card forced to beat the table, or a spade
    forced onto an untrumped trick, always takes the lead; a free discard never does.  So no
    comparison is needed once the card is picked.
    """
    h = list(hands)
    won = list(won)
    bits32 = rng.getrandbits
    above = ABOVE_IN_SUIT
    spades = SPADES_MASK
    ns = NON_SPADES_MASK
    suit_bits = SUIT_BITS
    nexts = _NEXT3
    first = first_trick
    seat = leader
    done = len(trick)
    while True:
        if done:
            # Resume a trick in progress: recompute its leading card and whether it is trumped.
            win = trick[0]
            winner = leader
            for i in range(1, done):
                c = trick[i]
                if (c // 13 == win // 13 and c > win) or (c < 13 <= win):
                    win = c
                    winner = (leader + i) & 3
            led = trick[0] // 13
            trumped = led != 0 and win < 13
            followers = nexts[seat][done - 1:]
            done = 0
            first = False  # the restriction is on the first lead, which is already made
        else:
            hand = h[seat]
            if not hand:
                return won
            legal = hand & ns if (first and hand & ns) else hand
            first = False
            k = bits32(32) % legal.bit_count()
            base = 0
            while True:
                bits = suit_bits[(legal >> base) & 8191]
                if k < len(bits):
                    win = base + bits[k]
                    break
                k -= len(bits)
                base += 13
            h[seat] = hand ^ (1 << win)
            winner = seat
            led = win // 13
            trumped = False
            followers = nexts[seat]
        shift = led * 13
        for p in followers:
            hand = h[p]
            same = (hand >> shift) & 8191
            if same:
                if not trumped:
                    beat = same & above[win]
                    if beat:
                        bits = suit_bits[beat]
                        win = shift + (bits[bits32(32) % len(bits)] if len(bits) > 1 else bits[0])
                        winner = p
                        h[p] = hand ^ (1 << win)
                        continue
                bits = suit_bits[same]
                c = shift + (bits[bits32(32) % len(bits)] if len(bits) > 1 else bits[0])
                h[p] = hand ^ (1 << c)
                continue
            sp = hand & spades
            if sp and trumped:
                sp &= above[win]  # spades are suit 0, so the in-suit pattern is the card mask
            if sp:
                bits = suit_bits[sp]
                win = bits[bits32(32) % len(bits)] if len(bits) > 1 else bits[0]
                winner = p
                trumped = True
                h[p] = hand ^ (1 << win)
                continue
            k = bits32(32) % hand.bit_count()
            base = 0
            while True:
                bits = suit_bits[(hand >> base) & 8191]
                if k < len(bits):
                    h[p] = hand ^ (1 << (base + bits[k]))
                    break
                k -= len(bits)
                base += 13
        won[winner] += 1
        seat = winner


def random_deal_scores(hands: Sequence[int], dealer: int, rng: random.Random) -> list[int]:
    """A whole random deal from dealt hands: uniform bids 1..13, random play, scores in tenths."""
    bids = [rng.randint(1, 13) for _ in range(4)]
    won = random_playout(hands, (dealer + 1) % 4, rng)
    return [b * 10 + (w - b) if w >= b else -b * 10 for b, w in zip(bids, won, strict=True)]
