"""The ``strong`` bot: inference, sampled deals, and evaluation of every legal card by playouts.

For a card: the unseen cards are dealt to the other seats many times, each deal consistent with
every forced-play reading of :mod:`.inference` and weighted by how well it explains the bids; each
legal card is then played out in every sampled deal with :func:`.playout.play_out`, in which every
seat plays as the heuristic does from its own knowledge (the same deals for every card, so luck
cancels between them), and the card with the best weighted mean utility is played.  Utility is the
deal's score margin over the field, and in the fifth deal the share of the match win.

For a bid: the other hands are sampled (earlier bids as evidence), later bidders are given the
heuristic's bid, and every candidate bid is played out in every sample; the bid with the best
expected utility under the asymmetric scoring wins (so in the fifth deal a player far behind bids
higher and a leader bids safe, as the seeds advise).

The work is an iteration budget, not a clock, so a decision depends only on ``(view, seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from ..cards import FULL_DECK, card_str, mask_cards
from ..match import Action, Bid, Play
from ..views import PlayerView
from .evaluation import careful_bid, estimate_tricks
from .heuristic import HeuristicBot, bid_for, strength
from .inference import Knowledge, bid_likelihood, knowledge
from .playout import play_out, play_out_after, utility
from .registry import register
from .sampler import Infeasible, sample_hands, sample_worlds

#: Default work per card decision: playouts shared among the legal cards.
DEFAULT_PLAY_BUDGET = 240
#: Default work per bid: playouts shared among the candidate bids.
DEFAULT_BID_BUDGET = 1200
#: The play-outs play the bidder's own later cards as the heuristic would, and the strong bot plays
#: better than that (about 0.2 tricks a deal), so in this share of the bidding samples the bidder is
#: credited one more trick (taken from the seat with the most); 0.6 bid too high and scored less.
BID_TRICK_BONUS = 0.35
UNKNOWN = (FULL_DECK, FULL_DECK, FULL_DECK, FULL_DECK)
MIN_WORLDS = 8
MAX_WORLDS = 80

#: A play-out: ``(hands, pub, leader, trick, won, bids, first) -> tricks won per seat``, like
#: :func:`.playout.play_out` (the default; ``bench/greedy_playout.py`` has another to compare).
PlayOut = Callable[[Sequence[int], Sequence[int], int, Sequence[int], Sequence[int], Sequence[int], bool], list[int]]


def distinct_cards(legal: list[int], unseen: int) -> list[int]:
    """The legal cards that differ in effect: of cards of one suit with no unseen card between them
    (all in hand or already played) only the lowest is kept, since they win and lose alike."""
    out: list[int] = []
    prev = -1
    for c in sorted(legal):
        if prev >= 0 and prev // 13 == c // 13 and not unseen & (((1 << c) - 1) & ~((1 << (prev + 1)) - 1)):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


def evaluate_cards(
    view: PlayerView, rng: random.Random, budget: int = DEFAULT_PLAY_BUDGET, kn: Knowledge | None = None,
    playout: PlayOut = play_out,
) -> dict[int, float]:
    """Weighted mean utility of each legal card over sampled deals."""
    assert view.seat is not None
    me = view.seat
    kn = kn or knowledge(view)
    legal = distinct_cards(mask_cards(view.legal_cards), kn.unseen)
    n_worlds = max(MIN_WORLDS, min(MAX_WORLDS, budget // max(1, len(legal))))
    worlds = sample_worlds(kn, view.bids, n_worlds, rng)
    bids = [b or 0 for b in view.bids]
    last = view.deal_number == 5
    totals = view.totals
    leader = view.trick_leader
    first = view.first_trick
    values = dict.fromkeys(legal, 0.0)
    total_w = 0.0
    for hands, weight in worlds:
        total_w += weight
        for c in legal:
            result = play_out_after(me, c, hands, kn.public, view.trick, view.tricks_won, leader, bids, first, playout)
            values[c] += weight * utility(me, bids, result, totals, last, view.deal_number)
    if total_w > 0:
        for c in values:
            values[c] /= total_w
    return values


def strong_card(
    view: PlayerView, rng: random.Random, budget: int = DEFAULT_PLAY_BUDGET, playout: PlayOut = play_out
) -> int:
    legal = mask_cards(view.legal_cards)
    if len(legal) == 1:
        return legal[0]
    values = evaluate_cards(view, rng, budget, playout=playout)
    return max(values, key=lambda c: (round(values[c], 6), -strength(c)))


def _base_bid(hand: int) -> int:
    return careful_bid(estimate_tricks(hand))


def bid_candidates(view: PlayerView) -> list[int]:
    base = _base_bid(view.hand)
    lo, hi = max(1, base - 1), min(13, base + 3)
    if view.deal_number == 5:
        hi = min(13, base + 5)
    return list(range(lo, hi + 1))


def bid_values(
    view: PlayerView, rng: random.Random, budget: int = DEFAULT_BID_BUDGET, playout: PlayOut = play_out,
    oversample: int = 1, bonus: float = BID_TRICK_BONUS, standings: bool = False, rank: float = 0.0,
) -> dict[int, float]:
    """Expected utility of each candidate bid over sampled deals.

    With ``oversample`` k > 1, k times as many deals are drawn and as many as the budget allows are kept,
    drawn in proportion to their bid-evidence weights (a better picture of the others' hands than weighting
    the few that are played out).  Bidders still to come bid the careful bid on their sampled hands; with
    ``standings`` the heuristic's bid, which in the fifth deal reads the standings (:func:`.heuristic.bid_for`).
    """
    assert view.seat is not None
    me = view.seat
    cands = bid_candidates(view)
    n_worlds = max(MIN_WORLDS, budget // len(cands))
    unseen = FULL_DECK & ~view.hand
    seats = [s for s in range(4) if s != me]
    allowed = [unseen] * 4
    counts = [13] * 4
    leader = (view.dealer + 1) % 4
    last = view.deal_number == 5

    def draw() -> tuple[tuple[list[int], list[int]], float]:
        hands = sample_hands(unseen, allowed, counts, seats, rng)
        hands[me] = view.hand
        weight = 1.0
        bids: list[int] = [0, 0, 0, 0]
        for s in seats:
            b = view.bids[s]
            if b is not None:
                weight *= bid_likelihood(hands[s], b)
                bids[s] = b
            elif standings:
                bids[s] = bid_for(estimate_tricks(hands[s]), s, view.totals, view.deal_number)
            else:
                bids[s] = _base_bid(hands[s])
        return (hands, bids), weight

    # One at a time (lazily, as the first version drew them), or k times as many then resampled.
    drawn: Iterable[tuple[tuple[list[int], list[int]], float]] = (
        (draw() for _ in range(n_worlds)) if oversample == 1
        else resample([draw() for _ in range(n_worlds * oversample)], n_worlds, rng)
    )
    values = dict.fromkeys(cands, 0.0)
    total_w = 0.0
    for (hands, bids), weight in drawn:
        total_w += weight
        draw_bonus = rng.random()
        extra = draw_bonus < bonus
        malus = draw_bonus < -bonus  # a negative bonus: one trick less, to the seat with the most
        for b in cands:
            bids[me] = b
            won = playout(hands, UNKNOWN, leader, [], [0, 0, 0, 0], bids, True)
            if extra and won[me] < 13:
                top = max(seats, key=lambda s: won[s])
                won[top] -= 1
                won[me] += 1
            elif malus and won[me] > 0:
                top = max(seats, key=lambda s: won[s])
                won[top] += 1
                won[me] -= 1
            values[b] += weight * utility(me, bids, won, view.totals, last, view.deal_number, rank)
    if total_w > 0:
        for b in values:
            values[b] /= total_w
    return values


P = TypeVar("P")


def resample(drawn: list[tuple[P, float]], n: int, rng: random.Random) -> list[tuple[P, float]]:
    """``n`` of the weighted ``drawn`` in proportion to their weights (systematic resampling), each of weight 1."""
    total = sum(w for _, w in drawn)
    step = total / n
    x = rng.random() * step
    out: list[tuple[P, float]] = []
    acc = 0.0
    for item, w in drawn:
        acc += w
        while x < acc and len(out) < n:
            out.append((item, 1.0))
            x += step
    return out


def strong_bid(
    view: PlayerView, rng: random.Random, budget: int = DEFAULT_BID_BUDGET, playout: PlayOut = play_out,
    oversample: int = 1, bonus: float = BID_TRICK_BONUS, standings: bool = False, rank: float = 0.0,
) -> int:
    values = bid_values(view, rng, budget, playout, oversample, bonus, standings, rank)
    # Ties go to the lower bid: bid low rather than high.
    return max(values, key=lambda b: (round(values[b], 6), -b))


class StrongBot:
    """Inference + sampling + playouts: the first strong bot, registered as ``strong-v1`` for comparison.

    ``playout`` replaces :func:`.playout.play_out` in the simulations (``bench/ab_deals.py`` compares
    the first version, whose simulated seats see every hand: ``bench/greedy_playout.py``).
    """

    name = "strong-v1"

    def __init__(
        self, play_budget: int = DEFAULT_PLAY_BUDGET, bid_budget: int = DEFAULT_BID_BUDGET,
        playout: PlayOut = play_out,
    ) -> None:
        self.play_budget = play_budget
        self.bid_budget = bid_budget
        self.playout = playout

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        try:
            if view.legal_bids:
                return Bid(view.seat, strong_bid(view, rng, self.bid_budget, self.playout))
            return Play(view.seat, card_str(strong_card(view, rng, self.play_budget, self.playout)))
        except Infeasible:
            # Cannot happen for a view of a real match (the readings are sound), but a bot must
            # always answer: fall back on the heuristic.
            return HeuristicBot().choose(view, rng)


register("strong-v1", StrongBot)
