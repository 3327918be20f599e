"""A per-seat posterior over named styles: which known player each other seat plays like.

:mod:`.opponents` fits a mixture of three policies (the heuristic's card, a greedy trick-taker's, a uniform
card) from the finished deals only: a style it has no component for reads as half random, and in the first deal
every seat is the heuristic.  Here each other seat is one of :data:`NAMED` (the heuristic, the league's six
sparring styles, ``ismcts``) with a prior, and the posterior is updated per seat by

* each bid of a finished deal (its hand is public then): every named bid rule is a function of the dealt hand;
* each non-forced card of a finished deal: the rule styles (the heuristic, ``spar-cautious``, ``spar-greedy``,
  ``spar-length``) are deterministic given the position, a search style stands in as the heuristic's card at
  :data:`SEARCH_HEURISTIC` else a uniform card, ``spar-random`` as a uniform card;
* each bid of the deal in progress, by its likelihood averaged over dealt hands sampled around the viewer's own
  (so the first deal's bids already move it, before any card is seen).

A rule style's action off its rule costs a factor :data:`SLIP` (a player outside the league is not ruled out),
and ``spar-sim``'s bid (sampled play-outs, too slow to repeat here) stands in as the sure tricks, loosely.  The
posterior is a function of the view alone (its hands sampled from a seed of the public record), so a decision
stays a function of ``(view, seed)``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from ..cards import FULL_DECK, SPADES_MASK, mask_cards
from ..match import DealRecord
from ..views import PlayerView
from .evaluation import careful_bid, estimate_tricks
from .heuristic import bid_for
from .inference import knowledge
from .opponents import Style, dealt_hands, replayed_plays
from .playout import (
    CHEAP_RULE,
    GREEDY_BID,
    LENGTH_RULE,
    OVERTAKE_RULE,
    RULE_POLICY,
    SplitMix64,
    knowledge_limited_card,
)
from .sampler import sample_hands
from .spar_rules import aggressive_bid, bid_choice, capped_bid, cheap_choice, greedy_choice, length_bid

#: The named styles, in a fixed order (the posterior's vectors follow it).
NAMED: tuple[str, ...] = (
    "heuristic",
    "spar-cautious",
    "spar-greedy",
    "spar-length",
    "spar-sim",
    "spar-target",
    "spar-random",
    "ismcts",
)
H, CAUTIOUS, GREEDY, LENGTH, SIM, TARGET, RANDOM, ISMCTS = range(len(NAMED))
#: The styles that search (their cards are not a rule of the position).
SEARCHES = (SIM, TARGET, ISMCTS)
#: The prior: the heuristic (the site's autopilot and ``normal`` level) as likely as three or four of the others; a
#: uniformly random player is rare, and its cards are hard to tell from a search's (below).
PRIOR = (0.36, 0.1, 0.1, 0.1, 0.1, 0.1, 0.04, 0.1)
#: The share of a rule style's actions read as off its rule (spread uniformly).
SLIP = 0.1
#: A search style's card is the heuristic's at this share, else uniform: ``ismcts`` and ``spar-sim`` play the
#: heuristic's card at 0.47 of their non-forced plays among 4.0 legal cards, so 0.3 beyond chance (``spar-random``
#: 0.33, 0.1 beyond chance; two matches each).  Weak evidence: a search and the random style are told apart mostly
#: by their bids.
SEARCH_HEURISTIC = 0.3
#: ``spar-sim``'s bid stands in as the sure tricks with this chance of being exact.
SIM_BID_EXACT = 0.4
#: Or (``sim_line``) as the least-squares line of its bid on the sure tricks and the spades, rounded: the constant,
#: the sure tricks' and the spades' coefficients (``bench/sim_bid_fit.py --hands 2000 --seed simfit``: exact for
#: 68.2% of 2,000 hands, one off for 31.4%; the sure tricks 52.7% and 44.3%) ...
SIM_BID_LINE = (-0.011, 0.651, 0.245)
#: ... with this chance of being exact.
SIM_LINE_EXACT = 0.65
#: Dealt hands sampled per deal in progress for the marginal likelihood of its bids.
BID_SAMPLES = 32

#: Per style, the mixture the belief's chain and the kernel read (:class:`.opponents.Style`): the shares of the
#: heuristic's and the greedy trick-taker's cards, the bids' shift from the heuristic's and ``bid_miss``, as
#: ``bench/league_fit.py`` fitted each style after five deals (docs/bots.md); the heuristic as its prior.
SIGNATURES: tuple[tuple[float, float, float, float], ...] = (
    (0.97, 0.02, 0.0, 0.1),
    (0.51, 0.10, -0.75, 0.73),
    (0.61, 0.02, 1.12, 0.88),
    (0.61, 0.01, 0.06, 0.70),
    (0.44, 0.02, 0.04, 0.60),
    (0.42, 0.02, 0.39, 0.62),
    (0.29, 0.01, -0.26, 0.31),
    (0.43, 0.01, 0.36, 0.53),
)

Posterior = dict[int, tuple[float, ...]]


def sim_line_bid(hand: int, est: float) -> int:
    """``spar-sim``'s bid on ``hand`` (sure tricks ``est``) by :data:`SIM_BID_LINE`."""
    a, b, c = SIM_BID_LINE
    return max(1, min(13, round(a + b * est + c * (hand & SPADES_MASK).bit_count())))


def predicted_bids(
    hand: int, seat: int, totals: Sequence[int], deal_number: int, sim_line: bool = False
) -> tuple[int, ...]:
    """Each named style's bid on the dealt ``hand`` (``spar-sim``: its stand-in, the sure tricks, or with
    ``sim_line`` :func:`sim_line_bid`)."""
    est = estimate_tricks(hand)
    sure = max(1, min(13, int(est + 0.5)))
    return (
        bid_for(est, seat, totals, deal_number),
        capped_bid(hand),
        aggressive_bid(hand),
        length_bid(hand),
        sim_line_bid(hand, est) if sim_line else sure,
        sure,
        careful_bid(est),
        sure,
    )


def bid_likelihood(predicted: int, bid: int, exact: float) -> float:
    """The chance of ``bid`` from a rule that bids ``predicted`` with chance ``exact``, one off at 0.35 of the
    rest, further off spread thin."""
    d = abs(bid - predicted)
    if d == 0:
        return exact
    return (1.0 - exact) * (0.35 if d == 1 else 0.3 / 11)


def _bid_row(
    hand: int, seat: int, bid: int, totals: Sequence[int], deal_number: int, sim_line: bool = False
) -> list[float]:
    pred = predicted_bids(hand, seat, totals, deal_number, sim_line)
    sim_exact = SIM_LINE_EXACT if sim_line else SIM_BID_EXACT
    return [bid_likelihood(p, bid, sim_exact if k == SIM else 1.0 - SLIP) for k, p in enumerate(pred)]


def card_likelihoods(legal: int, card: int, rule_cards: Sequence[int]) -> list[float]:
    """Each named style's chance of ``card`` among the ``legal`` cards; ``rule_cards`` are the heuristic's,
    ``spar-cautious``', ``spar-greedy``''s and ``spar-length``'s cards in this position."""
    k = legal.bit_count()
    heuristic, cheap, greedy, length = rule_cards
    rule = [(1.0 - SLIP) * (card == c) + SLIP / k for c in rule_cards]
    search = SEARCH_HEURISTIC * (card == heuristic) + (1.0 - SEARCH_HEURISTIC) / k
    del cheap, greedy, length
    return [rule[0], rule[1], rule[2], rule[3], search, search, 1.0 / k, search]


def observe_finished(
    deal: DealRecord, totals_before: Sequence[int], seats: Sequence[int], logs: dict[int, list[float]],
    sim_line: bool = False,
) -> None:
    """Add one finished deal's bids and non-forced cards of ``seats`` to their log-likelihoods ``logs``."""
    hands = dealt_hands(deal)
    for s in seats:
        for k, x in enumerate(_bid_row(hands[s], s, deal.bids[s], totals_before, deal.number, sim_line)):
            logs[s][k] += math.log(x)
    bids = list(deal.bids)
    for replay, pub, seat, c in replayed_plays(deal, hands):
        legal = replay.legal_mask()
        if seat in logs and legal & (legal - 1):
            trick = list(replay.trick)
            cards = mask_cards(legal)
            need = replay.won[seat] < bids[seat]
            left = replay.hands[0] | replay.hands[1] | replay.hands[2] | replay.hands[3]
            heuristic = knowledge_limited_card(
                replay.hands, pub, seat, replay.leader, replay.trick, replay.won, bids, replay.first
            )
            rule_cards = (
                heuristic,
                cheap_choice(cards, trick, need),
                greedy_choice(cards, trick),
                bid_choice(cards, trick, need, left & ~replay.hands[seat]),
            )
            for k, x in enumerate(card_likelihoods(legal, c, rule_cards)):
                logs[seat][k] += math.log(x)


@lru_cache(maxsize=512)
def _finished_logs(
    me: int, deals: tuple[DealRecord, ...], sim_line: bool = False
) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The finished deals' log-likelihoods per other seat, kept: every decision of a deal reads the same deals."""
    seats = [s for s in range(4) if s != me]
    logs = {s: [0.0] * len(NAMED) for s in seats}
    totals: Sequence[int] = (0, 0, 0, 0)
    for deal in deals:
        observe_finished(deal, totals, seats, logs, sim_line)
        totals = deal.totals
    return tuple((s, tuple(logs[s])) for s in seats)


@lru_cache(maxsize=512)
def _current_bid_logs(
    me: int, dealt: int, bids: tuple[int | None, ...], totals: tuple[int, ...], deal_number: int,
    sim_line: bool = False,
) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """The deal in progress: each made bid's likelihood per style, averaged over other hands dealt around the
    viewer's own ``dealt`` hand (from a seed of the public record, so the same for every decision of the deal)."""
    rng = random.Random(f"styles:{me}:{dealt}:{bids}:{deal_number}")
    seats = [s for s in range(4) if s != me]
    made = [s for s in seats if bids[s] is not None]
    sums = {s: [0.0] * len(NAMED) for s in made}
    if made:
        unseen = FULL_DECK & ~dealt
        allowed = [unseen] * 4
        counts = [13] * 4
        for _ in range(BID_SAMPLES):
            hands = sample_hands(unseen, allowed, counts, seats, rng)
            for s in made:
                bid = bids[s]
                assert bid is not None
                for k, x in enumerate(_bid_row(hands[s], s, bid, totals, deal_number, sim_line)):
                    sums[s][k] += x
    return tuple((s, tuple(math.log(x / BID_SAMPLES) for x in sums[s])) for s in made)


def seat_posteriors(view: PlayerView, sim_line: bool = False) -> Posterior:
    """Each other seat's posterior over :data:`NAMED`, from the match's finished deals and the bids of the deal
    in progress (``spar-sim``'s bids read by :func:`sim_line_bid` with ``sim_line``)."""
    assert view.seat is not None
    me = view.seat
    logs = {s: [math.log(p) for p in PRIOR] for s in range(4) if s != me}
    for s, row in _finished_logs(me, view.deals, sim_line):
        for k, x in enumerate(row):
            logs[s][k] += x
    dealt = view.hand | knowledge(view).played_by[me]
    totals = tuple(view.totals) if view.totals else (0, 0, 0, 0)
    for s, row in _current_bid_logs(me, dealt, tuple(view.bids), totals, view.deal_number, sim_line):
        for k, x in enumerate(row):
            logs[s][k] += x
    out: Posterior = {}
    for s, log_row in logs.items():
        top = max(log_row)
        ps = [math.exp(x - top) for x in log_row]
        z = sum(ps)
        out[s] = tuple(p / z for p in ps)
    return out


def mixed_styles(post: Posterior) -> dict[int, Style]:
    """Per seat the posterior's mean of the styles' :data:`SIGNATURES`, as :class:`.opponents.Style` (what the
    belief's chain reads)."""
    out: dict[int, Style] = {}
    for s, ps in post.items():
        h, g, shift, miss = (sum(p * sig[i] for p, sig in zip(ps, SIGNATURES, strict=True)) for i in range(4))
        out[s] = Style(h, g, shift, miss)
    return out


def share(post: Posterior, styles: Sequence[int]) -> float:
    """The mean over the other seats of the posterior mass of ``styles``."""
    return sum(sum(ps[k] for k in styles) for ps in post.values()) / len(post)


#: A world's policy for the other seats (:data:`.search.Policy`): the bids their play reads, their shares of
#: random cards, the seed of the play-out's draws.
NamedPolicy = tuple[list[int], list[float], int]


#: Per style, the share of random cards its seat plays in the play-outs: the uniform share each style fits to
#: (``bench/league_fit.py``, docs/bots.md; below 0.1 none, ``spar-random`` all).  A search's seat played without
#: them (``bench/league_ab.py``'s ``x-noise0``, every seat the heuristic or the greedy trick-taker) lost 1.3 ± 2.4 a
#: match over 20 paired matches against the searches: the random cards stand for the moves the play-outs cannot
#: predict, and keep the search from counting on the others' exact replies.
PLAYOUT_NOISE = (0.0, 0.39, 0.0, 0.37, 0.54, 0.56, 1.0, 0.56)


#: The rule styles the play-outs can play by their own card rule (:func:`.playout.py_rule_card`), by style.
RULE_OF = {CAUTIOUS: CHEAP_RULE, LENGTH: LENGTH_RULE, GREEDY: OVERTAKE_RULE}


def draw_named_policy(
    bids: Sequence[int], post: Posterior, rng: SplitMix64, own_rules: Sequence[int] = (), rule_noise: float = 0.0,
    noise_of: Sequence[float] = PLAYOUT_NOISE, greedy: Sequence[int] = (GREEDY,),
) -> NamedPolicy:
    """The other seats' policy in one world: each seat's style drawn from its posterior and played by the nearest
    policy the play-outs have: a style of ``own_rules`` (of :data:`RULE_OF`) by its own card rule with
    ``rule_noise`` random cards, else a style of ``greedy`` (``spar-greedy``) as the greedy trick-taker and every
    other style as the heuristic at its bid, each with its ``noise_of`` (:data:`PLAYOUT_NOISE`) of random cards."""
    policy_bids = list(bids)
    noise = [0.0, 0.0, 0.0, 0.0]
    for s, ps in post.items():
        u = rng.uniform()
        k = 0
        acc = ps[0]
        while u >= acc and k < len(ps) - 1:
            k += 1
            acc += ps[k]
        if k in own_rules:
            policy_bids[s] = RULE_POLICY * RULE_OF[k] + bids[s]
            noise[s] = rule_noise
            continue
        if k in greedy:
            policy_bids[s] = GREEDY_BID
        noise[s] = noise_of[k]
    return policy_bids, noise, rng.next()
