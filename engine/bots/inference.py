"""What the public history of a deal proves about the hidden hands (the seeds' 从强制出牌里读牌).

Every rule reads one forced play.  Since cards only ever leave a hand, "seat ``s`` did not hold
card ``c`` at that moment" stays true for the rest of the deal, so each reading removes cards from
the set a seat *may* hold:

* a seat that did not follow the led suit holds none of it (a void);
* following the led suit below the best card of that suit, on a trick not yet trumped (or a spade
  lead), proves the seat holds nothing above that best card in the suit ("nothing above X");
* discarding off-suit on an untrumped side-suit trick proves the seat holds no spade at all
  (any spade would have won, so one was forced);
* discarding (off-suit, or a lower spade) when a spade is already on the table proves the seat holds
  no spade above the table's highest;
* leading a spade to the first trick proves the leader held only spades.

The bids are soft evidence: :func:`bid_likelihood` weighs a sampled hand by how well it explains a
bid (the sampler uses it to re-weight otherwise legal samples).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import FULL_DECK, SUIT_MASKS
from ..rules import legal_mask
from ..views import PlayerView
from .evaluation import estimate_tricks, expected_bid

#: Spread, in tricks, of a bid around a careful bidder's count (soft evidence, see bid_likelihood).
BID_SIGMA = 1.0


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of a deal in progress, derived from its view only.

    ``allowed[s]`` is the set of unseen cards seat ``s`` may still hold (0 for the viewer itself);
    ``counts[s]`` how many cards seat ``s`` holds; ``unseen`` the cards neither in the viewer's hand
    nor played.  ``played_by[s]`` are the cards each seat has played this deal, which a sample
    completes into the hand it was dealt (for the bid evidence).  ``public[s]`` is what the whole
    table can tell about every seat, the viewer included: the cards not yet played that seat ``s``
    has not been proven not to hold (the simulated players reason from it).
    """

    me: int
    hand: int
    unseen: int
    allowed: tuple[int, int, int, int]
    counts: tuple[int, int, int, int]
    played_by: tuple[int, int, int, int]
    public: tuple[int, int, int, int]


def forbidden_by_play(trick: Sequence[int], card: int, first_trick: bool) -> int:
    """The cards a seat is proven not to hold by playing ``card`` on ``trick`` (the cards before it).

    Exactly the cards whose presence in the hand would have made ``card`` illegal, read off
    :func:`engine.rules.legal_mask` on the widest hand that may have played it: every card, or, off the led suit,
    every card but the led suit's (so a void shows).  What that hand would have had to play instead, when
    ``card`` is not among it, the seat cannot hold.  tests/engine/bots/test_trick_primitive.py checks it against
    the readings written out rule by rule (the module's list) on every trick of up to two cards.

    >>> from engine.cards import mask_to_strs, parse_card
    >>> mask_to_strs(forbidden_by_play([parse_card("TH")], parse_card("3H"), False))   # nothing above the 10♥
    ['JH', 'QH', 'KH', 'AH']
    >>> len(mask_to_strs(forbidden_by_play([parse_card("TH")], parse_card("2C"), False)))   # no ♥, no ♠
    26
    """
    if trick:
        led = SUIT_MASKS[trick[0] // 13]
        if not led >> card & 1:
            demanded = legal_mask(FULL_DECK & ~led, trick, first_trick)
            return led if demanded >> card & 1 else led | demanded
    demanded = legal_mask(FULL_DECK, trick, first_trick)
    return 0 if demanded >> card & 1 else demanded


def forbidden_from_plays(plays: Sequence[tuple[int, int]], first_trick: bool) -> dict[int, int]:
    """Cards each seat is proven not to hold, from one trick's plays ``[(seat, card), ...]`` in order.

    Returns ``{seat: mask of cards that seat cannot hold}`` (after the trick; cards played are not
    included, the caller removes them anyway).
    """
    out: dict[int, int] = {}
    for i, (seat, c) in enumerate(plays):
        no = forbidden_by_play([x for _, x in plays[:i]], c, first_trick)
        if no:
            out[seat] = out.get(seat, 0) | no
    return out


def deal_plays(view: PlayerView) -> list[tuple[list[tuple[int, int]], bool]]:
    """Every trick of the current deal (completed and in progress) as ``(plays, first_trick)``."""
    out: list[tuple[list[tuple[int, int]], bool]] = []
    for i, t in enumerate(view.tricks):
        out.append((t.plays(), i == 0))
    if view.trick:
        out.append((view.trick_plays(), not view.tricks))
    return out


def knowledge(view: PlayerView) -> Knowledge:
    """The hard constraints on every other seat's hand, from ``view`` alone."""
    assert view.seat is not None
    me = view.seat
    played = view.played
    unseen = FULL_DECK & ~played & ~view.hand
    forbid = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    for plays, first in deal_plays(view):
        for seat, c in plays:
            played_by[seat] |= 1 << c
        for seat, no in forbidden_from_plays(plays, first).items():
            forbid[seat] |= no
    allowed = [0, 0, 0, 0]
    for s in range(4):
        if s != me:
            allowed[s] = unseen & ~forbid[s]
    counts = tuple(view.hand_counts)
    return Knowledge(
        me=me,
        hand=view.hand,
        unseen=unseen,
        allowed=(allowed[0], allowed[1], allowed[2], allowed[3]),
        counts=(counts[0], counts[1], counts[2], counts[3]),
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        public=(
            ~played & ~forbid[0] & FULL_DECK, ~played & ~forbid[1] & FULL_DECK,
            ~played & ~forbid[2] & FULL_DECK, ~played & ~forbid[3] & FULL_DECK,
        ),
    )


def bid_likelihood(dealt_hand: int, bid: int, sigma: float = BID_SIGMA) -> float:
    """Soft evidence: how plausible ``bid`` is from ``dealt_hand`` for a careful bidder (unnormalised).

    A Gaussian in the difference between the bid and the careful bid on the hand
    (:func:`.evaluation.expected_bid`); wide enough that unusual bidders are never ruled out.
    """
    diff = bid + 0.4 - expected_bid(estimate_tricks(dealt_hand))
    return math.exp(-diff * diff / (2 * sigma * sigma)) + 0.02
