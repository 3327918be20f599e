"""The ``ismcts`` sparring bot: textbook single-observer information-set MCTS, a style unlike ours.

A different player to measure the strong bot against (a public Callbreak tournament bot plays this way), not
a copy of ours: it never reads the other seats as the heuristic and never plays the heuristic's cards.

* **Determinizations.** Each iteration deals the unseen cards anew (:func:`.sampler.sample_hands`), keeping
  only what the seat saw: its own hand, the cards played, and the hard readings of forced plays (a void shown,
  "nothing above X", no spade left).  The bids are not read at all.  Never a real hidden hand.
* **One tree for the information set** (Cowling, Powley and Whitehouse, 2012): a node is a sequence of cards
  from the root position; every seat's decision is a node, the others' included.  At a node the children whose
  card is legal in this determinization are the available ones; each gets its availability count raised, and
  the choice is UCB1 with the availability count in place of the parent's visits
  (``mean + c·√(ln avail / visits)``), after a legal card with no child yet has been added (one per iteration,
  picked at random).  A node's reward is the tricks of the seat that played its card.
* **Roll-outs** play uniformly random legal cards to the end of the deal.
* **Reward**: the seat's own tricks in the deal, over 13 (each seat maximises its own tricks; it does not
  mind its bid, as the public bot does not).
* **Choice**: the root card visited most (ties to the cheaper card).
* **Bid**: its own rule, the sure tricks of :func:`.evaluation.estimate_tricks` rounded to the nearest, without
  the heuristic's discount (× 0.88, rounded down) or its reading of the standings: it bids higher.

The work is an iteration count (500 a card by default), and the random numbers are SplitMix64 seeded from the
decision's own random source, so a decision is a function of ``(view, seed)``.  The tree search runs in the C
kernel (``_kernel.c``: ``ismcts``) when it is built, card for card the same as :func:`py_ismcts` here.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..cards import card_str, mask_cards
from ..match import Action, Bid, Play
from ..rules import DealInPlay, deal_score
from ..views import PlayerView
from .evaluation import estimate_tricks
from .heuristic import strength
from .inference import knowledge
from .playout import KERNEL_MODULE, SplitMix64, nth_card
from .registry import register
from .sampler import Infeasible, sample_hands

#: Iterations (determinizations) per card decision.
DEFAULT_ITERATIONS = 500
#: UCB1's exploration constant (rewards are tricks / 13, in [0, 1]).
DEFAULT_EXPLORATION = 0.7


def sure_tricks_bid(hand: int) -> int:
    """The sure tricks of the hand rounded to the nearest, 1..13 (no discount, no standings).

    >>> from engine.cards import cards_to_mask
    >>> sure_tricks_bid(cards_to_mask("KS JS 6S 5S 2S AH 8H AD QD 7D 9C 6C 3C".split()))   # 4.8 tricks
    5
    """
    return max(1, min(13, int(estimate_tricks(hand) + 0.5)))


def py_ismcts(
    worlds: Sequence[Sequence[int]], leader: int, trick: Sequence[int], won: Sequence[int], first: bool,
    iterations: int, exploration: float, seed: int, bids: Sequence[int] | None = None,
) -> list[tuple[int, int]]:
    """The root's children as ``(card, visits)`` after ``iterations`` iterations, the ``i``-th in
    ``worlds[i % len(worlds)]`` (all four hands; the observer's is the same in each).  A node's reward is the
    tricks of the seat that played its card, over 13; with ``bids``, that seat's deal score on its bid (tenths,
    plus 130, over 260): every seat plays for its bid (the ``spar-target`` style of :mod:`.league`)."""
    rng = SplitMix64(seed)
    # node arrays: the card, the seat that played it, first child, next sibling, visits, availability, reward sum
    node_card = [-1]
    seat_of = [-1]
    child = [-1]
    sibling = [-1]
    visits = [0]
    avail = [0]
    reward = [0.0]
    for iteration in range(iterations):
        deal = DealInPlay(worlds[iteration % len(worlds)], leader, trick, won, first)
        node = 0
        path: list[int] = []
        in_tree = True
        while not deal.over:
            seat = deal.to_play
            legal = deal.legal_mask()
            if in_tree:
                untried = legal
                branch = child[node]
                while branch >= 0:
                    if legal >> node_card[branch] & 1:
                        untried &= ~(1 << node_card[branch])
                        avail[branch] += 1
                    branch = sibling[branch]
                if untried:
                    played = nth_card(untried, rng.below(untried.bit_count()))
                    new = len(node_card)
                    node_card.append(played)
                    seat_of.append(seat)
                    child.append(-1)
                    sibling.append(child[node])
                    visits.append(0)
                    avail.append(1)
                    reward.append(0.0)
                    child[node] = new
                    path.append(new)
                    in_tree = False
                else:
                    best, best_value = -1, -math.inf
                    branch = child[node]
                    while branch >= 0:
                        if legal >> node_card[branch] & 1:
                            value = reward[branch] / visits[branch] + exploration * math.sqrt(
                                math.log(avail[branch]) / visits[branch]
                            )
                            if value > best_value:
                                best, best_value = branch, value
                        branch = sibling[branch]
                    node = best
                    path.append(node)
                    played = node_card[node]
            else:
                played = nth_card(legal, rng.below(legal.bit_count()))
            deal.play(played)
        for step in path:
            visits[step] += 1
            q = seat_of[step]
            if bids is None:
                reward[step] += deal.won[q] / 13.0
            else:
                reward[step] += (deal_score(bids[q], deal.won[q]) + 130) / 260.0
    out: list[tuple[int, int]] = []
    branch = child[0]
    while branch >= 0:
        out.append((node_card[branch], visits[branch]))
        branch = sibling[branch]
    return sorted(out)


#: Whether the built kernel's search takes the bids (a kernel built before it did plays for the bids in Python).
_KERNEL_BIDS = KERNEL_MODULE is not None and "bids" in (getattr(KERNEL_MODULE, "ismcts", None).__doc__ or "")


def ismcts(
    worlds: Sequence[Sequence[int]], leader: int, trick: Sequence[int], won: Sequence[int], first: bool,
    iterations: int, exploration: float, seed: int, bids: Sequence[int] | None = None,
) -> list[tuple[int, int]]:
    """:func:`py_ismcts`, in the C kernel when it is built (the same visits, faster)."""
    if KERNEL_MODULE is None or not hasattr(KERNEL_MODULE, "ismcts") or bids is not None and not _KERNEL_BIDS:
        return py_ismcts(worlds, leader, trick, won, first, iterations, exploration, seed, bids)
    args = [[list(x) for x in worlds], leader, list(trick), list(won), first, iterations, exploration, seed]
    if bids is not None:
        args.append(list(bids))
    out: list[tuple[int, int]] = KERNEL_MODULE.ismcts(*args)
    return out


def ismcts_card(view: PlayerView, rng: random.Random, iterations: int = DEFAULT_ITERATIONS,
                exploration: float = DEFAULT_EXPLORATION, for_bids: bool = False) -> int:
    """The card most visited by the search from ``view`` (its seat to play); ``for_bids``: every seat's reward
    is its deal score on its bid rather than its tricks."""
    assert view.seat is not None
    legal = mask_cards(view.legal_cards)
    if len(legal) == 1:
        return legal[0]
    kn = knowledge(view)
    seats = [s for s in range(4) if s != view.seat]
    worlds = []
    for _ in range(iterations):
        hands = sample_hands(kn.unseen, kn.allowed, kn.counts, seats, rng)
        hands[view.seat] = view.hand
        worlds.append(hands)
    visits = ismcts(worlds, view.trick_leader, view.trick, view.tricks_won, view.first_trick, iterations,
                    exploration, rng.getrandbits(64), [b or 0 for b in view.bids] if for_bids else None)
    return max(visits, key=lambda cv: (cv[1], -strength(cv[0])))[0]


class IsmctsBot:
    """Single-observer ISMCTS with random roll-outs for its own tricks; bids its sure tricks (module doc)."""

    name = "ismcts"

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, exploration: float = DEFAULT_EXPLORATION) -> None:
        self.iterations = iterations
        self.exploration = exploration

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        if view.legal_bids:
            return Bid(view.seat, sure_tricks_bid(view.hand))
        try:
            return Play(view.seat, card_str(ismcts_card(view, rng, self.iterations, self.exploration)))
        except Infeasible:  # never for a real view (the readings are sound); a bot must answer all the same
            return Play(view.seat, card_str(rng.choice(mask_cards(view.legal_cards))))


register("ismcts", IsmctsBot)
