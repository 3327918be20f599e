"""The league's rule styles as rules alone: bids from a hand, cards from a position.

Both :mod:`.league` (the sparring bots, which read them off a seat's view) and :mod:`.styles` (the opponent
models, which replay finished deals with them and so sit below the search) use them; keeping them here keeps the
search from importing the league's bots, which are built on the search.
"""

from __future__ import annotations

from ..cards import ABOVE, SPADES_MASK, SUIT_MASKS
from .evaluation import estimate_tricks
from .heuristic import strength, takes_trick


def _clamp(bid: int) -> int:
    return max(1, min(13, bid))


# --- bids -------------------------------------------------------------------------------------------------------

def capped_bid(hand: int, share: float = 0.7, cap: int = 3) -> int:
    """A conservative bid: ``share`` of the sure tricks, rounded down, at most ``cap``.

    >>> from engine.cards import cards_to_mask
    >>> capped_bid(cards_to_mask("AS KS QS JS TS AH KH AD KD AC KC 2C 3C".split()))
    3
    """
    return _clamp(min(cap, int(estimate_tricks(hand) * share)))


def aggressive_bid(hand: int) -> int:
    """The sure tricks plus one, rounded to the nearest: it counts on winning a trick it cannot see yet.

    >>> from engine.cards import cards_to_mask
    >>> aggressive_bid(cards_to_mask("KS JS 6S 5S 2S AH 8H AD QD 7D 9C 6C 3C".split()))   # 4.8 sure tricks
    6
    """
    return _clamp(int(estimate_tricks(hand) + 1.5))


#: Tricks from the trump suit by its length alone (0..13 spades), before its top cards.
SPADE_LENGTH_TRICKS = (0.0, 0.0, 0.0, 0.3, 0.8, 1.6, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5)
#: Tricks from a side suit's top cards by its length (index 1..13; 0 unused): the ace, the king, the queen.
SIDE_TOP_TRICKS = {
    12: (0.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.7, 0.5, 0.4, 0.3, 0.3, 0.3, 0.3, 0.3),
    11: (0.0, 0.0, 0.6, 0.7, 0.7, 0.5, 0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1),
    10: (0.0, 0.0, 0.0, 0.3, 0.4, 0.3, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
}
#: Ruffing tricks from a short side suit (void, singleton, doubleton), given spades to ruff with.
SHORT_SUIT_TRICKS = (1.2, 0.8, 0.3)


def length_bid(hand: int) -> int:
    """A bid from suit-length tables: the spades by their length and their top three, each side suit's ace, king
    and queen by the suit's length, and a ruff for each short side suit while the spades last; rounded down.

    >>> from engine.cards import cards_to_mask
    >>> length_bid(cards_to_mask("KS JS 6S 5S 2S AH 8H AD QD 7D 9C 6C 3C".split()))   # 1.6 + 0.8, 1.3, 1.3, 0
    5
    """
    spades = hand & SPADES_MASK
    ns = spades.bit_count()
    est = SPADE_LENGTH_TRICKS[ns]
    for rank, worth in ((12, 1.0), (11, 0.8), (10, 0.5)):
        if spades >> rank & 1 and ns >= 13 - rank:
            est += worth
    spare = max(0, ns - 2)
    for suit in (1, 2, 3):
        cards = hand & SUIT_MASKS[suit]
        n = cards.bit_count()
        for rank, table in SIDE_TOP_TRICKS.items():
            if cards >> (13 * suit + rank) & 1:
                est += table[n]
        if n <= 2 and spare > 0:
            est += SHORT_SUIT_TRICKS[n]
            spare -= 1
    return _clamp(int(est))


# --- cards from a position -------------------------------------------------------------------------------

def cheap_choice(legal: list[int], trick: list[int], need: bool) -> int:
    """:func:`cheap_card` from the position alone (the opponent models replay finished deals with it)."""
    if not trick:
        if need:
            aces = [c for c in legal if c >= 13 and c % 13 == 12]
            if aces:
                return aces[0]
        side = [c for c in legal if c >= 13]
        return min(side or legal, key=strength)
    if need:
        winners = [c for c in legal if takes_trick(trick, c)]
        if winners:
            return min(winners, key=strength)
    return min(legal, key=strength)


def greedy_choice(legal: list[int], trick: list[int]) -> int:
    """:func:`greedy_card` from the position alone."""
    if not trick:
        return max(legal, key=strength)
    winners = [c for c in legal if takes_trick(trick, c)]
    if winners:
        return min(winners, key=strength) if len(trick) == 3 else max(winners, key=strength)
    return min(legal, key=strength)


def bid_choice(legal: list[int], trick: list[int], need: bool, unseen: int) -> int:
    """:func:`bid_card` from the position alone (``unseen``: the cards neither in its hand nor played)."""
    if need:
        if not trick:
            masters = [c for c in legal if not unseen & ABOVE[c]]
            return max(masters or legal, key=strength)
        winners = [c for c in legal if takes_trick(trick, c)]
        if winners:
            return min(winners, key=strength) if len(trick) == 3 else max(winners, key=strength)
        return min(legal, key=strength)
    if not trick:
        return min(legal, key=strength)
    losers = [c for c in legal if not takes_trick(trick, c)]
    if losers:
        return max(losers, key=strength)
    return min(legal, key=strength)
