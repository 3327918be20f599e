"""The search bot's belief about the hidden hands: evidence weights and a Markov chain that follows them.

Worlds drawn by :mod:`.sampler` respect every hard reading, but very few explain the other seats' earlier
cards as well: a few tricks into a deal only about one in 300 does.  Weighting and resampling the drawn
worlds (as ``strong`` did until 2026-12) then leaves the search a handful of distinct worlds, most of them
contradicted by some play.  :func:`refine` moves each kept world by Metropolis–Hastings swaps of one card
between two other seats, towards the worlds the evidence favours, so the worlds the search plays out are
many and distinct and nearly all explain what the table saw.

The target weight of a world is a product over the other seats of :meth:`SeatModel.factor`, a function of
that seat's hand alone:

* the bid as any careful bidder's (the Gaussian of :func:`.inference.bid_likelihood`);
* the bid as the heuristic's bidding rule (:func:`.heuristic.bid_for`): a miss costs ``bid_miss``;
* each earlier card of the deal as the heuristic's play (:func:`.playout.knowledge_limited_card` from what that
  seat knew then, :class:`PlayEvidence`): a miss costs ``play_miss``.

Factors above 0 keep every world possible, as they must against people, who are not the heuristic.
The chain's random numbers come from :class:`SplitMix64`, seeded from the decision's own random source,
so a decision stays a function of ``(view, seed)``; the C kernel runs the same chain step for step
(``tests/engine/bots/test_posterior.py`` compares them).  It reads the sampled hands only, never a real
hidden one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..cards import FULL_DECK
from ..rules import DealInPlay, legal_mask
from ..views import PlayerView
from .evaluation import estimate_tricks, expected_bid
from .heuristic import bid_for
from .inference import BID_SIGMA, deal_plays, forbidden_by_play
from .playout import GREEDY_BID, KERNEL_MODULE, SplitMix64, knowledge_limited_card

#: Play evidence reads at most this many of the other seats' latest plays of the deal.
DEFAULT_PLAY_HORIZON = 39

#: One earlier play of another seat: (card, leader, trick before, tricks won before, first trick, the
#: table's readings before, cards not yet played before, cards that seat played from there on).
_Step = tuple[int, int, tuple[int, ...], tuple[int, ...], bool, tuple[int, ...], int, int]

class PlayEvidence:
    """The other seats' earlier cards of the deal as soft evidence about their hands.

    For each earlier play of another seat the position is rebuilt from the public history (the trick,
    the tricks won, the table's readings of forced plays so far, the cards not yet played) and the seat's
    hand then is the sampled hand plus the cards it has played since.  If in that hand
    :func:`.playout.knowledge_limited_card` (the heuristic's play from what that seat knew) would have played another
    card, the world's weight is multiplied by ``miss``.  Forced plays carry no evidence.  It reads the
    sampled hands of the other seats only, as the bid evidence does: never a real hidden hand.
    """

    def __init__(self, view: PlayerView, miss: float, horizon: int = DEFAULT_PLAY_HORIZON) -> None:
        assert view.seat is not None
        me = view.seat
        self.miss = miss
        self.bids = [b or 0 for b in view.bids]
        history = deal_plays(view)
        played_by = [0, 0, 0, 0]
        for plays, _ in history:
            for seat, c in plays:
                played_by[seat] |= 1 << c
        steps: list[tuple[int, _Step]] = []
        pub = [FULL_DECK] * 4
        left = FULL_DECK
        # The deal replayed from its start: each seat's "hand" is the cards it plays in the history, enough to
        # step through it (the trick, its leader, the tricks won), which is all that is read of the replay.
        replay = DealInPlay(played_by, (view.dealer + 1) % 4, first=True)  # the dealer's right leads
        for plays, _ in history:
            for seat, c in plays:
                if seat != me:
                    since = played_by[seat] & left
                    steps.append((seat, (c, replay.leader, tuple(replay.trick), tuple(replay.won), replay.first,
                                         tuple(pub), left, since)))
                pub[seat] &= ~forbidden_by_play(replay.trick, c, replay.first)
                replay.play(c)
                left &= ~(1 << c)
        if horizon < len(steps):
            steps = steps[len(steps) - horizon:] if horizon > 0 else []
        self.steps: dict[int, list[_Step]] = {}
        for seat, step in steps:
            self.steps.setdefault(seat, []).append(step)
        self.cache: dict[tuple[int, int], float] = {}

    def misses(self, seat: int, hand: int) -> int:
        """How many of ``seat``'s earlier cards the heuristic would not have played from ``hand``."""
        n = 0
        bids = self.bids
        hands = [0, 0, 0, 0]
        other = (seat + 1) & 3
        for c, leader, trick, won, first, pub, left, since in self.steps.get(seat, ()):
            then = hand | since
            legal = legal_mask(then, trick, first)
            if not legal & (legal - 1):
                continue
            hands[seat] = then
            hands[other] = left & ~then
            if knowledge_limited_card(hands, pub, seat, leader, trick, won, bids, first) != c:
                n += 1
        return n

    def seat_weight(self, seat: int, hand: int) -> float:
        key = (seat, hand)
        weight = self.cache.get(key)
        if weight is None:
            weight = self.cache[key] = self.miss ** self.misses(seat, hand)
        return weight

    def weight(self, hands: Sequence[int]) -> float:
        weight = 1.0
        for seat in self.steps:
            weight *= self.seat_weight(seat, hands[seat])
        return weight

    def packed(self) -> list[int]:
        """The steps as a flat list for the C kernel: per step seat, card, leader, trick length, the trick
        (3 slots), tricks won (4), first, readings (4), cards left, cards played since: 18 numbers."""
        out: list[int] = []
        for seat, steps in self.steps.items():
            for c, leader, trick, won, first, pub, left, since in steps:
                trick_slots = list(trick) + [0] * (3 - len(trick))
                out += [seat, c, leader, len(trick), *trick_slots, *won, int(first), *pub, left, since]
        return out


def bid_policy_weights(
    view: PlayerView, played_by: Sequence[int], worlds: list[tuple[list[int], float]], miss: float,
) -> list[tuple[list[int], float]]:
    """Each world's weight times ``miss`` for every other seat whose bid the heuristic's bidding
    (:func:`.heuristic.bid_for`) would not have made from that world's dealt hand.

    Sharper than the Gaussian of :func:`.inference.bid_likelihood`, which the worlds already carry: that one
    is any careful bidder, this one the table's known policy; ``miss`` > 0 keeps every world possible.
    """
    assert view.seat is not None
    checks = [(s, b) for s, b in enumerate(view.bids) if s != view.seat and b is not None]
    cache: dict[tuple[int, int], bool] = {}
    out = []
    for hands, weight in worlds:
        for s, b in checks:
            dealt = hands[s] | played_by[s]
            hit = cache.get((s, dealt))
            if hit is None:
                hit = cache[(s, dealt)] = bid_for(estimate_tricks(dealt), s, view.totals, view.deal_number) == b
            if not hit:
                weight *= miss
        out.append((hands, weight))
    return out


class SeatModel:
    """The target weight of one other seat's hand: bids and earlier cards as evidence (see the module)."""

    def __init__(
        self, view: PlayerView, played_by: Sequence[int], allowed: Sequence[int], sigma: float = BID_SIGMA,
        bid_miss: float = 1.0, play_miss: float = 1.0, horizon: int = DEFAULT_PLAY_HORIZON,
        style: Sequence[Sequence[float]] | None = None,
    ) -> None:
        assert view.seat is not None
        self.me = view.seat
        self.bids = [-1 if b is None else b for b in view.bids]
        self.totals = list(view.totals) if view.totals else [0, 0, 0, 0]
        self.deal_number = view.deal_number
        self.played_by = list(played_by)
        self.allowed = list(allowed)
        self.sigma = sigma
        self.bid_miss = bid_miss
        self.play_miss = play_miss
        #: per seat (bid shift, bid miss, heuristic share, greedy share) fitted by :mod:`.opponents`, or None
        self.style = [tuple(x) for x in style] if style is not None else None
        self.evidence: PlayEvidence | None = None
        if self.style is not None or play_miss < 1.0:
            self.evidence = PlayEvidence(view, play_miss if self.style is None else 0.5, horizon)
        self.cache: dict[tuple[int, int], float] = {}

    def factor(self, seat: int, hand: int) -> float:
        """``seat``'s share of a world's weight when it holds ``hand``; the C kernel computes the same."""
        key = (seat, hand)
        weight = self.cache.get(key)
        if weight is None:
            weight = self.cache[key] = self._factor(seat, hand)
        return weight

    def _factor(self, seat: int, hand: int) -> float:
        if self.style is not None:
            return self._styled_factor(seat, hand, self.style[seat])
        weight = 1.0
        bid = self.bids[seat]
        if bid >= 0:
            est = estimate_tricks(hand | self.played_by[seat])
            diff = bid + 0.4 - expected_bid(est)
            weight = math.exp(-diff * diff / (2 * self.sigma * self.sigma)) + 0.02
            if self.bid_miss < 1.0 and bid_for(est, seat, self.totals, self.deal_number) != bid:
                weight *= self.bid_miss
        if self.evidence is not None:
            for _ in range(self.evidence.misses(seat, hand)):
                weight *= self.play_miss
        return weight

    def _styled_factor(self, seat: int, hand: int, style: Sequence[float]) -> float:
        """The factor under the seat's fitted style: its bids shifted from the careful count (a miss of the
        shifted heuristic bid costs its own ``bid miss``), each earlier card a mixture of the heuristic's
        card, the greedy trick-taker's card and a uniform choice of its legal cards."""
        shift, style_bid_miss, heuristic_share, greedy_share = style
        weight = 1.0
        bid = self.bids[seat]
        if bid >= 0:
            est = estimate_tricks(hand | self.played_by[seat])
            diff = bid + 0.4 - expected_bid(est) - shift
            weight = math.exp(-diff * diff / (2 * self.sigma * self.sigma)) + 0.02
            if style_bid_miss < 1.0 and bid_for(est, seat, self.totals, self.deal_number) + _lround(shift) != bid:
                weight *= style_bid_miss
        assert self.evidence is not None
        evidence_bids = self.evidence.bids
        greedy = list(evidence_bids)
        greedy[seat] = GREEDY_BID
        hands = [0, 0, 0, 0]
        other = (seat + 1) & 3
        for c, leader, trick, won, first, pub, left, since in self.evidence.steps.get(seat, ()):
            then = hand | since
            legal = legal_mask(then, trick, first)
            if not legal & (legal - 1):
                continue
            hands[seat] = then
            hands[other] = left & ~then
            likelihood = (1.0 - heuristic_share - greedy_share) / legal.bit_count()
            if knowledge_limited_card(hands, pub, seat, leader, trick, won, evidence_bids, first) == c:
                likelihood += heuristic_share
            if knowledge_limited_card(hands, pub, seat, leader, trick, won, greedy, first) == c:
                likelihood += greedy_share
            weight *= likelihood
        return weight

    def packed(self) -> tuple[list[int], list[int], list[int], list[int], list[int], float, float, float]:
        steps = self.evidence.packed() if self.evidence is not None else []
        return (self.allowed, self.played_by, self.bids, self.totals, [self.me, self.deal_number] + steps,
                self.sigma, self.bid_miss, self.play_miss)

    def packed_style(self) -> list[float] | None:
        return None if self.style is None else [float(x) for st in self.style for x in st]


def _lround(x: float) -> int:
    """Rounded half away from zero, as C's ``lround``."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def _nth_card(hand: int, i: int) -> int:
    """The ``i``-th lowest card of ``hand``."""
    for _ in range(i):
        hand &= hand - 1
    return (hand & -hand).bit_length() - 1


def py_refine(worlds: Sequence[Sequence[int]], model: SeatModel, steps: int, seed: int) -> list[list[int]]:
    """Each world after ``steps`` Metropolis–Hastings proposals: swap a random card of one other seat with a
    random card of another (both must be allowed to hold the card they receive), accepted with probability
    ``min(1, weight after / weight before)``.  The proposal is symmetric, so the chain's stationary weights are
    the model's; four numbers are drawn per step whatever happens, so C and Python stay in step."""
    me = model.me
    others = [s for s in range(4) if s != me]
    pairs = [(others[0], others[1]), (others[0], others[2]), (others[1], others[2])]
    allowed = model.allowed
    rng = SplitMix64(seed)
    out: list[list[int]] = []
    for world in worlds:
        hands = list(world)
        f = [0.0, 0.0, 0.0, 0.0]
        for s in others:
            f[s] = model.factor(s, hands[s])
        for _ in range(steps):
            a, b = pairs[rng.below(3)]
            ha, hb = hands[a], hands[b]
            i = rng.below(ha.bit_count()) if ha else 0
            j = rng.below(hb.bit_count()) if hb else 0
            u = rng.uniform()
            if not ha or not hb:
                continue
            x = _nth_card(ha, i)
            y = _nth_card(hb, j)
            if not allowed[b] >> x & 1 or not allowed[a] >> y & 1:
                continue
            na = ha ^ (1 << x) ^ (1 << y)
            nb = hb ^ (1 << x) ^ (1 << y)
            fa = model.factor(a, na)
            fb = model.factor(b, nb)
            if u * (f[a] * f[b]) < fa * fb:
                hands[a], hands[b], f[a], f[b] = na, nb, fa, fb
        out.append(hands)
    return out


def refine(worlds: Sequence[Sequence[int]], model: SeatModel, steps: int, seed: int) -> list[list[int]]:
    """:func:`py_refine`, in the C kernel when it is built (the same worlds, faster)."""
    if KERNEL_MODULE is None:
        return py_refine(worlds, model, steps, seed)
    style = model.packed_style()
    if style is None:
        out: list[list[int]] = KERNEL_MODULE.refine([list(w) for w in worlds], *model.packed(), steps, seed)
    else:
        out = KERNEL_MODULE.refine([list(w) for w in worlds], *model.packed(), steps, seed, style)
    return out
