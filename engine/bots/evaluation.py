"""Hand evaluation and the bid formula: how many tricks a hand is worth, and the careful bid on it.

One place for the count the seeds teach (:func:`estimate_tricks`) and for turning it into a bid
(:data:`BID_FACTOR`): the heuristic bids with it, the strong bot starts its candidate bids from it
and gives it to bidders still to come in its simulations, and the inference reads other seats'
bids as evidence through it.
"""

from __future__ import annotations

SIDE_SUITS = (1, 2, 3)


def _rank_bits(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & 8191


def estimate_tricks(hand: int) -> float:
    """Expected sure tricks of a 13-card hand, counted the way the seeds teach.

    >>> from engine.cards import cards_to_mask
    >>> round(estimate_tricks(cards_to_mask("KS JS 6S 5S 2S AH 8H AD QD 7D 9C 6C 3C".split())), 1)
    4.8
    """
    est = 0.0
    sp = _rank_bits(hand, 0)
    ns = sp.bit_count()
    honours = 0
    if sp >> 12 & 1:
        est += 1.0
        honours += 1
    if sp >> 11 & 1:
        est += 1.0 if ns >= 2 else 0.3
        honours += 1
    if sp >> 10 & 1:
        est += 1.0 if ns >= 3 else 0.4
        honours += 1
    if sp >> 9 & 1 and ns >= 4:
        est += 0.3
    if ns > 4:
        est += 0.5 * (ns - 4)
    spare = max(0, ns - honours - max(0, ns - 4))
    for s in SIDE_SUITS:
        bits = _rank_bits(hand, s)
        n = bits.bit_count()
        ace = bits >> 12 & 1
        king = bits >> 11 & 1
        queen = bits >> 10 & 1
        if ace:
            est += 1.0 if n <= 6 else 0.7
        if king:
            if ace:
                est += 0.8 if n <= 5 else 0.4
            elif n >= 2:
                est += 0.5 if n <= 5 else 0.3
            else:
                est += 0.1
        if queen:
            if ace or king:
                est += 0.5 if n >= 3 and n <= 5 else 0.2
            elif n >= 3:
                est += 0.25
        if spare > 0 and n <= 2:
            ruff = (1.0, 0.7, 0.5)[n]
            use = min(spare, 3 - n)
            est += ruff * min(1.0, use / (3 - n)) if n < 2 else ruff
            spare -= use
    return est


#: A careful bidder bids this share of the estimated sure tricks (bid low rather than high).
BID_FACTOR = 0.88


def expected_bid(est: float) -> float:
    """The careful bid on a hand estimated at ``est`` tricks, before rounding."""
    return est * BID_FACTOR


def careful_bid(est: float) -> int:
    """The careful bid on a hand estimated at ``est`` tricks: rounded down, within 1..13.

    >>> careful_bid(4.8), careful_bid(0.0), careful_bid(20.0)
    (4, 1, 13)
    """
    return max(1, min(13, int(expected_bid(est) + 0.1)))
