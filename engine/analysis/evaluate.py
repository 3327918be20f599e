"""The expected value of every choice of one decision, judged from the deciding seat's view only.

The strong bot's machinery, turned from choosing to reviewing: K deals of the unseen cards are
sampled consistently with everything the seat knew at that moment (:func:`..bots.inference.knowledge`,
:func:`..bots.sampler.sample_worlds`, earlier bids as soft evidence); every distinct choice is played
out to the end of the deal in the *same* K deals (common random numbers, so the luck of a deal cancels
between choices) with every seat, the reviewed one included, playing the knowledge-limited heuristic
of :func:`..bots.playout.play_out`.  A choice is worth the seat's expected score of the deal, in
tenths; in the fifth deal its chance of winning the match, times :data:`WIN_SCALE` (tenths per unit
of win chance).  Everything here reads a :class:`~engine.views.PlayerView` and nothing else, so the
hidden hands cannot leak into a value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import native
from ..bots.evaluation import estimate_tricks, expected_bid
from ..bots.inference import BID_SIGMA, bid_likelihood, knowledge
from ..bots.playout import play_out, play_out_after
from ..bots.sampler import sample_hands, sample_worlds
from ..cards import FULL_DECK, mask_cards
from ..deal import DEALS_PER_MATCH
from ..rules import MAX_BID, MIN_BID, deal_score
from ..views import PlayerView

#: Worth of the whole match win in the fifth deal, in tenths per unit of win chance: one point of
#: total entering the fifth deal moves a seat's chance of winning by 1/WIN_SCALE on average
#: (measured: ``python -m engine.analysis.calibrate win-scale``, docs/analysis.md), so a fifth-deal
#: loss of win chance reads in the same points as a loss in the first four deals.
WIN_SCALE = 100
#: Public knowledge before any card is played: every seat may hold any card.
UNKNOWN = (FULL_DECK, FULL_DECK, FULL_DECK, FULL_DECK)
#: A bid the policy of the simulated bidders would make is ``round(careful - BID_OFFSET + N(0, σ))``,
#: the same model the inference reads earlier bids with (:func:`..bots.inference.bid_likelihood`).
BID_OFFSET = 0.4


@dataclass(frozen=True, slots=True)
class Valuation:
    """The values of the distinct choices of one decision.

    ``values[c]``: expected value of choice ``c`` (a bid, or a card number), in tenths of a point of
    the final score.  ``win[c]``: in the fifth deal, the chance of winning the match (ties share),
    of which ``values`` is ``WIN_SCALE`` times; ``None`` before.  ``classes[c]``: the legal cards that
    choice ``c`` stands for (itself included; cards of one class are equivalent, see
    :func:`card_classes`); for bids, ``(c,)``.  ``worlds``: the number of sampled deals.
    """

    kind: str
    values: dict[int, float]
    win: dict[int, float] | None
    classes: dict[int, tuple[int, ...]]
    worlds: int


def card_classes(legal: int, unseen: int) -> list[tuple[int, ...]]:
    """The legal cards grouped into classes of equivalent cards, each class lowest card first.

    Two legal cards of one suit are *equivalent* when every card of that suit ranked between them is
    either in the same hand or already played (this deal, the current trick included): no other
    seat holds a card between them, so against every card the others can ever play both win or both
    lose, they beat the same cards of the table now, the legality of every later play is the same
    whichever of them is kept, and what the table can read from the play (:func:`..bots.inference.
    forbidden_by_play`, which depends only on how the card compares with the cards on the table) is
    the same.  Playing one or the other therefore leads to the same tricks, whatever the hidden
    hands (the play-outs confirm it: ``tests/engine/test_analysis.py``).  It is the rule by which
    the strong bot evaluates each such group once (``bots.strong.distinct_cards``).

    >>> from engine.cards import cards_to_mask, card_str
    >>> hand = cards_to_mask("7H 8H TH 2S 3S 5S KD".split())
    >>> unseen = FULL_DECK & ~hand & ~cards_to_mask(["9H", "4S"])
    >>> [[card_str(c) for c in k] for k in card_classes(hand, unseen)]
    [['2S', '3S', '5S'], ['7H', '8H', 'TH'], ['KD']]
    """
    out: list[list[int]] = []
    prev = -1
    for c in mask_cards(legal):
        between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1) if prev >= 0 else 0
        if prev >= 0 and prev // 13 == c // 13 and not unseen & between:
            out[-1].append(c)
        else:
            out.append([c])
        prev = c
    return [tuple(k) for k in out]


def win_share(me: int, finals: Sequence[int]) -> float:
    """``me``'s share of the match win for final totals ``finals`` (equal highest totals share it)."""
    top = max(finals)
    return 1.0 / finals.count(top) if finals[me] == top else 0.0


def _sample_bid(hand: int, rng: random.Random) -> int:
    """A bid for a seat still to bid: the inference's bid model, drawn rather than weighed."""
    b = round(expected_bid(estimate_tricks(hand)) - BID_OFFSET + rng.gauss(0.0, BID_SIGMA))
    return max(MIN_BID, min(MAX_BID, b))


class _Tally:
    """Weighted means of deal score (tenths) and, in the fifth deal, of the match-win share."""

    def __init__(self, me: int, view: PlayerView, choices: Sequence[int]) -> None:
        self.me = me
        self.last = view.deal_number == DEALS_PER_MATCH
        self.totals = view.totals
        self.score = dict.fromkeys(choices, 0.0)
        self.win = dict.fromkeys(choices, 0.0)
        self.weight = 0.0

    def add(self, choice: int, bids: Sequence[int], won: Sequence[int], weight: float) -> None:
        me = self.me
        if self.last:
            finals = [self.totals[s] + deal_score(bids[s], won[s]) for s in range(4)]
            self.win[choice] += weight * win_share(me, finals)
        else:
            self.score[choice] += weight * deal_score(bids[me], won[me])

    def put(self, choices: Sequence[int], weight: float, sums: Sequence[float]) -> None:
        """The kernel's tally of every world (``card_values``/``bid_values``): the same sums as ``add``'s."""
        self.weight = weight
        (self.win if self.last else self.score).update(zip(choices, sums, strict=True))

    def totals_if_last(self) -> list[int] | None:
        """What the kernel's tally needs to value the fifth deal by the match win (None before it)."""
        return list(self.totals) if self.last else None

    def valuation(self, kind: str, classes: dict[int, tuple[int, ...]], worlds: int) -> Valuation:
        w = self.weight or 1.0
        if self.last:
            win = {c: v / w for c, v in self.win.items()}
            return Valuation(kind, {c: p * WIN_SCALE for c, p in win.items()}, win, classes, worlds)
        return Valuation(kind, {c: v / w for c, v in self.score.items()}, None, classes, worlds)


def value_cards(view: PlayerView, candidates: Sequence[int], worlds: int, rng: random.Random) -> Valuation:
    """Expected value of playing each of ``candidates`` (legal cards of the seat to move), in the same
    ``worlds`` sampled deals; every candidate is its own class (see :func:`evaluate`)."""
    assert view.seat is not None
    me = view.seat
    kn = knowledge(view)
    sampled = sample_worlds(kn, view.bids, worlds, rng)
    bids = [b or 0 for b in view.bids]
    tally = _Tally(me, view, candidates)
    first = view.first_trick
    if native.KERNEL is not None:  # every play-out and its tally in one call; the same sums as the loop below
        weight, sums = native.KERNEL.card_values(sampled, me, candidates, kn.public, view.trick_leader, view.trick,
                                                 view.tricks_won, bids, first, tally.totals_if_last())
        tally.put(candidates, weight, sums)
        return tally.valuation("card", {c: (c,) for c in candidates}, worlds)
    for hands, weight in sampled:
        tally.weight += weight
        for c in candidates:
            tally.add(c, bids, play_out_after(me, c, hands, kn.public, view.trick, view.tricks_won, view.trick_leader,
                                              bids, first), weight)
    return tally.valuation("card", {c: (c,) for c in candidates}, worlds)


def bid_deals(view: PlayerView, worlds: int, rng: random.Random) -> list[tuple[list[int], list[int], float]]:
    """The deals of :func:`value_bids`: every hand, every bid (drawn for the seats still to bid), the weight.

    With the C kernel they are dealt in C from ``rng``'s own state, draw for draw (the same deals).
    """
    assert view.seat is not None
    me = view.seat
    if native.KERNEL is not None:
        deals: list[tuple[list[int], list[int], float]]
        state, deals = native.KERNEL.bid_worlds(
            rng.getstate(), me, view.hand, [-1 if b is None else b for b in view.bids], worlds, BID_OFFSET, BID_SIGMA)
        rng.setstate(state)
        return deals
    return py_bid_deals(view, worlds, rng)


def py_bid_deals(view: PlayerView, worlds: int, rng: random.Random) -> list[tuple[list[int], list[int], float]]:
    """:func:`bid_deals` in Python (without the kernel, and for the tests that compare them)."""
    assert view.seat is not None
    me = view.seat
    unseen = FULL_DECK & ~view.hand
    seats = [s for s in range(4) if s != me]
    allowed = [unseen] * 4
    counts = [13] * 4
    out: list[tuple[list[int], list[int], float]] = []
    for _ in range(worlds):
        hands = sample_hands(unseen, allowed, counts, seats, rng)
        hands[me] = view.hand
        weight = 1.0
        bids = [0, 0, 0, 0]
        for s in seats:
            b = view.bids[s]
            if b is not None:
                weight *= bid_likelihood(hands[s], b)
                bids[s] = b
            else:
                bids[s] = _sample_bid(hands[s], rng)
        out.append((hands, bids, weight))
    return out


def value_bids(view: PlayerView, candidates: Sequence[int], worlds: int, rng: random.Random) -> Valuation:
    """Expected value of bidding each of ``candidates`` in the same ``worlds`` sampled deals.

    The other hands are dealt at random from the unseen cards, weighted by how well they explain the
    bids already made; the seats still to bid are given a bid drawn from the same bid model, once
    per deal (so every candidate meets the same bids).
    """
    assert view.seat is not None
    me = view.seat
    leader = (view.dealer + 1) % 4
    tally = _Tally(me, view, candidates)
    deals = bid_deals(view, worlds, rng)
    if native.KERNEL is not None:  # every play-out and its tally in one call; the same sums as the loop below
        weight, sums = native.KERNEL.bid_values(deals, me, candidates, leader, tally.totals_if_last())
        tally.put(candidates, weight, sums)
        return tally.valuation("bid", {b: (b,) for b in candidates}, worlds)
    for hands, bids, weight in deals:
        tally.weight += weight
        for b in candidates:
            bids[me] = b
            tally.add(b, bids, play_out(hands, UNKNOWN, leader, [], [0, 0, 0, 0], bids, True), weight)
    return tally.valuation("bid", {b: (b,) for b in candidates}, worlds)


def evaluate(view: PlayerView, worlds: int, rng: random.Random, played: int | None = None) -> Valuation:
    """Every distinct choice of the seat to move in ``view``, valued over ``worlds`` sampled deals.

    Bids: every bid 1..13.  Cards: one card per class of equivalent legal cards, the card ``played``
    for its own class and the lowest card for the others.  A decision with a single class (one legal
    card, or all equivalent) is forced: nothing is sampled and the valuation has no values.
    """
    assert view.seat is not None and view.my_turn, "a decision of the seat to move"
    if view.legal_bids:
        return value_bids(view, list(view.legal_bids), worlds, rng)
    kn_unseen = FULL_DECK & ~view.played & ~view.hand
    classes = card_classes(view.legal_cards, kn_unseen)
    reps = {(played if played is not None and played in k else k[0]): k for k in classes}
    if len(reps) == 1:
        return Valuation("card", {}, None, reps, 0)
    v = value_cards(view, sorted(reps), worlds, rng)
    return Valuation("card", v.values, v.win, reps, worlds)
