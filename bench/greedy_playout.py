"""The strong bot's first play-out policy, kept for comparison: every seat sees all four hands.

``bench/ab_deals.py`` registers ``strong-greedy``, a strong bot whose play-outs use this policy
instead of the knowledge-limited one of :mod:`engine.bots.playout`.  Its defenders never misjudge a
finesse or a ruff, so the bot under test is credited with too few tricks (strategy fusion): on paired deals it
scored 0.12 ± 0.16 points a deal below the knowledge-limited play-outs (``docs/bots.md``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.playout import NS
from engine.cards import ABOVE, SPADES_MASK, SUIT_MASKS
from engine.rules import legal_mask, trick_winner_index

_SIDE = (1, 2, 3)


def low_card(mask: int) -> int:
    """The cheapest card of ``mask`` (lowest side card, else lowest spade)."""
    best = -1
    best_rank = 99
    for s in _SIDE:
        b = (mask >> (13 * s)) & 8191
        if b:
            r = (b & -b).bit_length() - 1
            if r < best_rank:
                best_rank = r
                best = 13 * s + r
    if best >= 0:
        return best
    sp = mask & SPADES_MASK
    return (sp & -sp).bit_length() - 1


def high_card(mask: int) -> int:
    """The most valuable card of ``mask`` (highest spade, else highest side card)."""
    sp = mask & SPADES_MASK
    if sp:
        return sp.bit_length() - 1
    best = -1
    best_rank = -1
    for s in _SIDE:
        b = (mask >> (13 * s)) & 8191
        if b:
            r = b.bit_length() - 1
            if r > best_rank:
                best_rank = r
                best = 13 * s + r
    return best


def policy_card(
    h: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int], bids: Sequence[int],
    first: bool,
) -> int:
    """The greedy policy's card for ``seat`` in a fully known deal."""
    hand = h[seat]
    lg = legal_mask(hand, trick, first)
    if not lg & (lg - 1):
        return lg.bit_length() - 1
    left = hand.bit_count()
    need = bids[seat] - won[seat]
    want = 0 < need <= left
    if not trick:
        if not want:
            for q in range(4):
                if q != seat and 0 < bids[q] - won[q] <= left:
                    want = True
                    break
        if want:
            others = 0
            for q in range(4):
                if q != seat:
                    others |= h[q]
            osp = others & SPADES_MASK
            sp = lg & SPADES_MASK
            if sp and not first:
                top = sp.bit_length() - 1
                if not osp & ABOVE[top]:
                    return top
            for s in _SIDE:
                b = lg & SUIT_MASKS[s]
                if not b:
                    continue
                top = b.bit_length() - 1
                if others & ABOVE[top]:
                    continue
                risky = False
                for q in range(4):
                    if q != seat and not h[q] & SUIT_MASKS[s] and h[q] & SPADES_MASK:
                        risky = True
                        break
                if not risky:
                    return top
        return low_card(lg)
    led = trick[0] // 13
    bi = trick_winner_index(trick)
    best = trick[bi]
    w = lg & SPADES_MASK & ABOVE[best] if best < 13 else lg & ABOVE[best] | lg & SPADES_MASK
    n = len(trick)
    later = [(seat + i) & 3 for i in range(1, 4 - n)]
    if not want:
        current = (leader + bi) & 3
        if 0 < bids[current] - won[current] <= left and current != seat:
            want = True
        else:
            for q in later:
                if 0 < bids[q] - won[q] <= left:
                    want = True
                    break
    if want:
        if not w:
            return low_card(lg)
        for part in (w & NS, w & SPADES_MASK):
            while part:
                low = part & -part
                c = low.bit_length() - 1
                part ^= low
                safe = True
                for q in later:
                    hq = h[q]
                    if c < 13:
                        if hq & ABOVE[c] and (led == 0 or not hq & SUIT_MASKS[led]):
                            safe = False
                            break
                    elif hq & ABOVE[c] or (not hq & SUIT_MASKS[led] and hq & SPADES_MASK):
                        safe = False
                        break
                if safe:
                    return c
        rest = lg & ~w
        return low_card(rest) if rest else low_card(w)
    rest = lg & ~w
    if rest:
        return high_card(rest)
    return high_card(lg) if not later else low_card(lg)


def greedy_play_out(
    hands: Sequence[int],
    pub: Sequence[int],
    leader: int,
    trick: Sequence[int],
    won: Sequence[int],
    bids: Sequence[int],
    first: bool,
) -> list[int]:
    """Finish the deal with every seat playing :func:`policy_card`; ``pub`` is ignored (all hands are seen).

    The same signature as :func:`engine.bots.playout.play_out`, so it can replace it in the strong bot.
    """
    h = list(hands)
    w = list(won)
    t = list(trick)
    seat = (leader + len(t)) & 3
    while True:
        if not t and not h[seat]:
            return w
        c = policy_card(h, seat, leader, t, w, bids, first)
        h[seat] ^= 1 << c
        t.append(c)
        if len(t) == 4:
            winner = (leader + trick_winner_index(t)) & 3
            w[winner] += 1
            leader = winner
            seat = winner
            t = []
            first = False
        else:
            seat = (seat + 1) & 3
