"""Fast playouts on masks for the ``strong`` bot's simulations.

Two policies, both the heuristic's plan reduced to bit operations inside one sampled deal: a seat
that still needs tricks cashes masters and wins as cheaply as no later seat can beat, one whose bid
is made throws its highest losing card unless an opponent who still needs tricks would take the
trick.  :func:`kl_card` (the one the bot uses) judges "no later seat can beat" from what the seat
could know; :func:`policy_card` (the first version) from the actual hands.  :func:`play_out`
finishes a deal with either; it is deterministic, so a playout is a function of the sampled hands
alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..cards import ABOVE, SPADES_MASK, SUIT_MASKS
from ..rules import legal_mask, trick_winner_index
from .heuristic import strength, takes_trick
from .inference import forbidden_by_play

NS = ((1 << 52) - 1) & ~SPADES_MASK
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
    best = trick[0]
    bi = 0
    for i in range(1, len(trick)):
        c = trick[i]
        if (c // 13 == best // 13 and c > best) or (c < 13 <= best):
            best = c
            bi = i
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


def play_out(
    hands: Sequence[int],
    pub: Sequence[int] | None,
    leader: int,
    trick: Sequence[int],
    won: Sequence[int],
    bids: Sequence[int],
    first: bool,
) -> list[int]:
    """Finish the deal; return the tricks won per seat.

    With the public readings ``pub`` every seat plays :func:`kl_card` (what the bot uses); with
    ``None``, :func:`policy_card`, whose seats see all hands (the first version, for comparison).
    """
    h = list(hands)
    p = list(pub) if pub is not None else None
    w = list(won)
    t = list(trick)
    seat = (leader + len(t)) & 3
    while True:
        if not t and not h[seat]:
            return w
        if p is None:
            c = policy_card(h, seat, leader, t, w, bids, first)
        else:
            c = kl_card(h, p, seat, leader, t, w, bids, first)
            p[seat] &= ~forbidden_by_play(t, c, first)
        h[seat] ^= 1 << c
        t.append(c)
        if len(t) == 4:
            best = t[0]
            bi = 0
            for i in range(1, 4):
                x = t[i]
                if (x // 13 == best // 13 and x > best) or (x < 13 <= best):
                    best = x
                    bi = i
            winner = (leader + bi) & 3
            w[winner] += 1
            leader = winner
            seat = winner
            t = []
            first = False
        else:
            seat = (seat + 1) & 3


def deal_score(bid: int, won: int) -> int:
    return bid * 10 + (won - bid) if won >= bid else -bid * 10


def utility(
    me: int, bids: Sequence[int], won: Sequence[int], totals: Sequence[int], last_deal: bool, deal_number: int = 1
) -> float:
    """What a finished simulated deal is worth to ``me`` (tenths).

    Before the last deal: the deal's score minus a weighted mean of the opponents' scores, each
    weighted by how much of a rival it is in the standings (the leaders count more as the match
    goes on; in the first deal it is the plain margin over the field).  In the last deal the share
    of the match win, with the margin only to break ties (so a player far behind takes whatever
    gamble can still win, and a leader plays safe).  An earlier version also paid a losing seat for
    closing the gap to the leader; it won fewer matches from the same fifth-deal positions
    (``bench/ab_deals.py --last``).
    """
    scores = [deal_score(bids[s], won[s]) for s in range(4)]
    margin = scores[me] - (sum(scores) - scores[me]) / 3
    if not last_deal:
        scale = 30.0 * math.sqrt(6 - deal_number)
        weights = [math.exp((totals[q] - totals[me]) / scale) if q != me else 0.0 for q in range(4)]
        norm = sum(weights)
        return scores[me] - sum(weights[q] * scores[q] for q in range(4)) / norm
    finals = [totals[s] + scores[s] for s in range(4)]
    top = max(finals)
    if finals[me] == top:
        return 300.0 / finals.count(top) + 0.2 * margin
    return 0.01 * margin


# --- Knowledge-limited playouts -------------------------------------------------------------------
#
# The greedy policy above lets every seat see all four hands of the sampled deal, so simulated
# defenders never misjudge a finesse or a ruff and the bot under test is credited with too few
# tricks (strategy fusion).  The policy below plays every seat as the heuristic bot does, from what
# that seat could know: its own hand, the cards played, and the public readings of forced plays
# (``pub[q]``: the cards seat ``q`` may still hold as far as the table can tell, narrowed by
# :func:`.inference.forbidden_by_play` as each card falls).

def _may_trump(pq: int, others: int, suit: int) -> bool:
    """The heuristic's guess: ``q`` (possible cards ``pq``) holds a spade and is, or may soon be, void."""
    if not pq & SPADES_MASK:
        return False
    if not pq & SUIT_MASKS[suit]:
        return True
    return (others & SUIT_MASKS[suit]).bit_count() <= 1


def kl_card(
    h: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int:
    """The heuristic bot's card for ``seat``, judged from that seat's knowledge only."""
    hand = h[seat]
    lg = legal_mask(hand, trick, first)
    if not lg & (lg - 1):
        return lg.bit_length() - 1
    left = hand.bit_count()
    others = 0
    for q in range(4):
        if q != seat:
            others |= h[q]
    need = bids[seat] - won[seat]
    want = 0 < need <= left
    needy = 0
    for q in range(4):
        if q != seat and 0 < bids[q] - won[q] <= left:
            needy |= 1 << q
    if not trick:
        if want or needy:
            osp = others & SPADES_MASK
            sp = lg & SPADES_MASK
            if sp and not first:
                top = sp.bit_length() - 1
                if not osp or not others & ABOVE[top]:
                    return top
            best = -1
            best_key = (-1, -1)
            for s in _SIDE:
                b = lg & SUIT_MASKS[s]
                if not b:
                    continue
                top = b.bit_length() - 1
                if others & ABOVE[top]:
                    continue
                if osp:
                    risky = False
                    for q in range(4):
                        if q != seat and _may_trump(pub[q] & others, others, s):
                            risky = True
                            break
                    if risky:
                        continue
                key = ((others & SUIT_MASKS[s]).bit_count(), top % 13)
                if key > best_key:
                    best_key = key
                    best = top
            if best >= 0:
                return best
        side = lg & NS
        if side:
            best = -1
            best_k = (99, 99)
            for s in _SIDE:
                b = side & SUIT_MASKS[s]
                if not b:
                    continue
                low = (b & -b).bit_length() - 1
                if want or needy:
                    k = ((hand & SUIT_MASKS[s]).bit_count(), low % 13)
                else:
                    k = (-(others & ABOVE[low]).bit_count(), low % 13)
                if k < best_k:
                    best_k = k
                    best = low
            return best
        return (lg & -lg).bit_length() - 1 if not (want or needy) else lg.bit_length() - 1
    n = len(trick)
    later = [(seat + i) & 3 for i in range(1, 4 - n)]
    if not want and needy:
        if needy >> ((leader + trick_winner_index(trick)) & 3) & 1:
            want = True
        else:
            for q in later:
                if needy >> q & 1:
                    want = True
                    break
    led = trick[0] // 13
    cards = []
    m = lg
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    if want:
        winning = [c for c in cards if takes_trick(trick, c)]
        if not winning:
            # Discard: keep spades and masters, shorten the shortest side suit.
            return min(
                cards,
                key=lambda c: (
                    1 if c < 13 else 0, 0 if others & ABOVE[c] else 1,
                    (hand & SUIT_MASKS[c // 13]).bit_count(), c % 13,
                ),
            )
        best_c = -1
        best_k = (99, 99)
        for c in winning:
            nb = 0
            for q in later:
                pq = pub[q] & others
                if c < 13:
                    if pq & ABOVE[c] and (led == 0 or not pq & SUIT_MASKS[led] or _may_trump(pq, others, led)):
                        nb += 1
                elif pq & ABOVE[c] or _may_trump(pq, others, led):
                    nb += 1
            k = (nb, strength(c) if nb == 0 or c < 13 else -strength(c))
            if k < best_k:
                best_k = k
                best_c = c
        return best_c
    losing = [c for c in cards if not takes_trick(trick, c)]
    if losing:
        return max(losing, key=strength)
    if not later:
        return max(cards, key=strength)
    return min(cards, key=strength)
