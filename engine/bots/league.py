"""The league: six sparring styles for measuring the strong bot against players it was not tuned on.

None of them is a level of the site.  Each is written from the game's logic (docs/rules.md): how a player might bid
and play, not a copy of another program.  They differ from each other, and from the ``heuristic`` the strong bot's
play-outs reproduce, in how they bid and in how they play:

==================  ==============================================  =============================================
name                bids                                            plays
==================  ==============================================  =============================================
``spar-cautious``   conservative with a cap: 70% of the sure        cheap discards: wins with its cheapest winner
                    tricks, rounded down, never above 3             while it needs tricks, else its lowest card
``spar-greedy``     aggressive: the sure tricks plus one, rounded   greedy overtaking: takes every trick it can,
                    to the nearest                                  with its highest card unless it plays last
``spar-length``     by suit-length tables (:func:`length_bid`)      by its bid: grabs tricks until made, then ducks
                                                                    with its highest losing card
``spar-sim``        by sampled play-outs (:func:`simulated_bid`)    ISMCTS whose play-outs maximise its own tricks
``spar-target``     the sure tricks rounded to the nearest          ISMCTS in which every seat plays for its bid
``spar-random``     the heuristic's careful bid                     a uniformly random legal card
==================  ==============================================  =============================================

Every decision is a function of ``(view, seed)``: the random numbers come from the decision's own source, and
nothing but the seat's view is read (the sampled worlds of ``spar-sim`` and ``spar-target`` deal the unseen cards
anew, as :mod:`.ismcts` does).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

from ..cards import card_str, mask_cards
from ..match import Action, Bid, Play
from ..rules import DealInPlay, deal_score
from ..views import PlayerView
from .evaluation import careful_bid, estimate_tricks
from .heuristic import strength, takes_trick
from .inference import knowledge
from .ismcts import ismcts_card, sure_tricks_bid
from .registry import register
from .sampler import Infeasible, sample_hands
from .spar_rules import (
    aggressive_bid,
    bid_choice,
    capped_bid,
    cheap_choice,
    greedy_choice,
    length_bid,
)

#: The league's styles, in the order its table lists them.
STYLES: tuple[str, ...] = ("spar-cautious", "spar-greedy", "spar-length", "spar-sim", "spar-target", "spar-random")
#: ISMCTS iterations a card for the two search styles (the ``ismcts`` bot's 500 would double the league's time).
SPAR_ITERATIONS = 300
#: Sampled deals behind ``spar-sim``'s bid.
SIM_BID_SAMPLES = 48


def simple_policy_card(deal: DealInPlay) -> int:
    """The play-out policy of :func:`simulated_bid`: every seat wins with its cheapest winner when it can, else
    plays its cheapest card (by :func:`.heuristic.strength`); a lead is the highest side card, else the lowest."""
    legal = mask_cards(deal.legal_mask())
    if deal.trick:
        winners = [c for c in legal if takes_trick(deal.trick, c)]
        return min(winners or legal, key=strength)
    side = [c for c in legal if c >= 13]
    return max(side, key=strength) if side else min(legal)


def simulated_bid(view: PlayerView, rng: random.Random, samples: int = SIM_BID_SAMPLES) -> int:
    """The bid with the best mean deal score over ``samples`` deals of the other hands, each played out by
    :func:`simple_policy_card` at every seat (the earlier bids are not read); ties go to the lower bid."""
    assert view.seat is not None
    kn = knowledge(view)
    seats = [s for s in range(4) if s != view.seat]
    leader = (view.dealer + 1) % 4
    tricks: list[int] = []
    for _ in range(samples):
        hands = sample_hands(kn.unseen, kn.allowed, kn.counts, seats, rng)
        hands[view.seat] = view.hand
        deal = DealInPlay(hands, leader)
        while not deal.over:
            deal.play(simple_policy_card(deal))
        tricks.append(deal.won[view.seat])
    best, best_value = 1, -math.inf
    for bid in range(1, 14):
        value = statistics.fmean(deal_score(bid, t) for t in tricks)
        if value > best_value:
            best, best_value = bid, value
    return best


# --- cards ------------------------------------------------------------------------------------------------------

def _needs(view: PlayerView) -> bool:
    assert view.seat is not None
    return view.tricks_won[view.seat] < (view.bids[view.seat] or 0)


def cheap_card(view: PlayerView) -> int:
    """``spar-cautious``: while it needs tricks, its cheapest card that wins the trick so far (a side ace when it
    leads), else its cheapest card; once made, always its cheapest card (low cards away, high cards kept)."""
    return cheap_choice(mask_cards(view.legal_cards), list(view.trick), _needs(view))


def greedy_card(view: PlayerView) -> int:
    """``spar-greedy``: leads its highest card (a side card on the first trick), overtakes whenever it can (its
    highest winner, or its cheapest when it plays last), otherwise throws its cheapest card."""
    return greedy_choice(mask_cards(view.legal_cards), list(view.trick))


def bid_card(view: PlayerView) -> int:
    """``spar-length``: while it needs tricks, it leads a master (no unseen card above it) or its highest card and
    takes the trick with its cheapest sure winner when it plays last, its highest winner otherwise; once made, it
    ducks with its highest card that loses the trick and leads its lowest."""
    return bid_choice(mask_cards(view.legal_cards), list(view.trick), _needs(view), knowledge(view).unseen)


# --- the bots ---------------------------------------------------------------------------------------------------

class SparBot:
    """A sparring style: a bid rule and a card rule (module doc)."""

    def __init__(self, name: str, bid: Callable[[PlayerView, random.Random], int],
                 card: Callable[[PlayerView, random.Random], int]) -> None:
        self.name = name
        self.bid = bid
        self.card = card

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        if view.legal_bids:
            return Bid(view.seat, self.bid(view, rng))
        legal = mask_cards(view.legal_cards)
        if len(legal) == 1:
            return Play(view.seat, card_str(legal[0]))
        try:
            return Play(view.seat, card_str(self.card(view, rng)))
        except Infeasible:  # never for a real view (the readings are sound); a bot must answer all the same
            return Play(view.seat, card_str(rng.choice(legal)))


def _random_card(view: PlayerView, rng: random.Random) -> int:
    return rng.choice(mask_cards(view.legal_cards))


def _own_tricks_search(view: PlayerView, rng: random.Random) -> int:
    return ismcts_card(view, rng, SPAR_ITERATIONS)


def _bid_search(view: PlayerView, rng: random.Random) -> int:
    return ismcts_card(view, rng, SPAR_ITERATIONS, for_bids=True)


def _trick_of(rule: Callable[[PlayerView], int]) -> Callable[[PlayerView, random.Random], int]:
    return lambda view, rng: rule(view)


def _bid_of(rule: Callable[[int], int]) -> Callable[[PlayerView, random.Random], int]:
    return lambda view, rng: rule(view.hand)


FACTORIES: dict[str, Callable[[], SparBot]] = {
    "spar-cautious": lambda: SparBot("spar-cautious", _bid_of(capped_bid), _trick_of(cheap_card)),
    "spar-greedy": lambda: SparBot("spar-greedy", _bid_of(aggressive_bid), _trick_of(greedy_card)),
    "spar-length": lambda: SparBot("spar-length", _bid_of(length_bid), _trick_of(bid_card)),
    "spar-sim": lambda: SparBot("spar-sim", simulated_bid, _own_tricks_search),
    "spar-target": lambda: SparBot("spar-target", _bid_of(sure_tricks_bid), _bid_search),
    "spar-random": lambda: SparBot("spar-random", _bid_of(lambda h: careful_bid(estimate_tricks(h))), _random_card),
}

for _name, _factory in FACTORIES.items():
    register(_name, _factory)

__all__ = ["FACTORIES", "STYLES", "SparBot", "aggressive_bid", "bid_card", "bid_choice", "capped_bid", "cheap_card",
           "cheap_choice", "greedy_card", "greedy_choice", "length_bid", "simulated_bid"]
