"""Play out the rest of a sampled deal, fast, on masks: the ``strong`` bot's simulations.

Every seat plays the heuristic's plan reduced to bit operations (:func:`knowledge_limited_card`): a seat that
still needs tricks cashes masters and wins as cheaply as no later seat can beat, one whose bid is
made throws its highest losing card unless an opponent who still needs tricks would take the
trick.  "No later seat can beat" is judged from what the seat could know: its own hand, the cards
played and the public readings of forced plays.  :func:`play_out` finishes a deal that way; it is
deterministic, so a playout is a function of the sampled hands alone.  :func:`utility` says what
the finished deal is worth to the bot.

Both are written here in Python (``py_play_out``, ``py_knowledge_limited_card``) and, card for card the same, in
C (``_kernel.c``, built at install when a compiler is there; about 40 times faster, bench/playout_speed.py).
``play_out`` and ``knowledge_limited_card`` are the C ones (the kernel's functions of the same names) when the
kernel is built, unless ``CALLBREAK_PURE_PYTHON`` is set.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..cards import ABOVE, NON_SPADES_MASK, SPADES_MASK, SUIT_MASKS
from ..rules import DealInPlay, beats, deal_score, legal_mask, trick_winner_index
from . import native
from .heuristic import strength
from .inference import forbidden_by_play

#: A bid this high or higher, given to :func:`knowledge_limited_card` for a seat, makes it a greedy trick-taker: it
#: always wants the trick (and the others treat it as a seat that needs tricks).  Only the policy reads it: the
#: scores of a play-out are counted on the real bids (the opponent models of :mod:`.opponents`).
GREEDY_BID = 64
#: A policy bid of ``RULE_POLICY * k + b`` (``b`` the seat's real bid, 0..13) makes the seat play rule style ``k``'s
#: card in the play-outs (:func:`py_rule_card`): :data:`CHEAP_RULE` ``spar-cautious``', :data:`LENGTH_RULE`
#: ``spar-length``'s, :data:`OVERTAKE_RULE` ``spar-greedy``'s; the rule reads ``b``, and so do the other seats'
#: policies (:func:`py_policy_card`).  Only the policy reads it: the scores are counted on the real bids.
RULE_POLICY = 256
CHEAP_RULE, LENGTH_RULE, OVERTAKE_RULE = 1, 2, 3
_SIDE = (1, 2, 3)
_SIDE_ACES = (1 << 25) | (1 << 38) | (1 << 51)


def py_play_out(
    hands: Sequence[int],
    pub: Sequence[int],
    leader: int,
    trick: Sequence[int],
    won: Sequence[int],
    bids: Sequence[int],
    first: bool,
) -> list[int]:
    """Finish the deal with every seat playing :func:`knowledge_limited_card`; return the tricks won per seat.

    ``pub[q]`` holds the cards seat ``q`` may still hold as far as the table can tell; it is narrowed
    by :func:`.inference.forbidden_by_play` as each card falls.
    """
    deal = DealInPlay(hands, leader, trick, won, first)
    public = list(pub)
    while not deal.over:
        seat = deal.to_play
        card = py_knowledge_limited_card(deal.hands, public, seat, deal.leader, deal.trick, deal.won, bids, deal.first)
        public[seat] &= ~forbidden_by_play(deal.trick, card, deal.first)
        deal.play(card)
    return deal.won


_M64 = (1 << 64) - 1


class SplitMix64:
    """A small, fast generator that C and Python compute bit for bit alike (Steele, Lea and Flood, 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in ``0 .. n-1`` (Lemire's multiply-shift on the top 32 bits)."""
        return ((self.next() >> 32) * n) >> 32

    def uniform(self) -> float:
        """A float in ``[0, 1)`` from the top 53 bits."""
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)


def _first_min(mask: int) -> int:
    """The lowest-strength card of ``mask``, the lowest card of equals (``min(mask_cards(mask), key=strength)``)."""
    best, best_s = -1, 99
    while mask:
        c = (mask & -mask).bit_length() - 1
        mask &= mask - 1
        if strength(c) < best_s:
            best, best_s = c, strength(c)
    return best


def _first_max(mask: int) -> int:
    """The highest-strength card of ``mask``, the lowest card of equals (``max(mask_cards(mask), key=strength)``)."""
    best, best_s = -1, -1
    while mask:
        c = (mask & -mask).bit_length() - 1
        mask &= mask - 1
        if strength(c) > best_s:
            best, best_s = c, strength(c)
    return best


def py_rule_card(hands: Sequence[int], seat: int, trick: Sequence[int], won: Sequence[int], bid: int, first: bool,
                 rule: int) -> int:
    """The card of rule style ``rule`` (:data:`CHEAP_RULE`, :data:`LENGTH_RULE`, :data:`OVERTAKE_RULE`) for
    ``seat`` at real bid ``bid``, on masks: :func:`.spar_rules.cheap_choice`, :func:`.spar_rules.bid_choice` and
    :func:`.spar_rules.greedy_choice` card for card (tests/engine/bots/test_rule_policies.py), the cards it has
    not seen being the other hands of the world."""
    hand = hands[seat]
    legal = legal_mask(hand, trick, first)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    need = won[seat] < bid
    winners = 0
    if trick:
        best = trick[trick_winner_index(trick)]
        rest = legal
        while rest:
            low = rest & -rest
            if beats(low.bit_length() - 1, best):
                winners |= low
            rest ^= low
    if rule == CHEAP_RULE:
        if not trick:
            if need and legal & _SIDE_ACES:
                aces = legal & _SIDE_ACES
                return (aces & -aces).bit_length() - 1
            return _first_min(legal & NON_SPADES_MASK or legal)
        return _first_min(winners if need and winners else legal)
    if rule == OVERTAKE_RULE:
        if not trick:
            return _first_max(legal)
        if winners:
            return _first_min(winners) if len(trick) == 3 else _first_max(winners)
        return _first_min(legal)
    if need:
        if not trick:
            unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
            masters = 0
            rest = legal
            while rest:
                low = rest & -rest
                if not unseen & ABOVE[low.bit_length() - 1]:
                    masters |= low
                rest ^= low
            return _first_max(masters or legal)
        if winners:
            return _first_min(winners) if len(trick) == 3 else _first_max(winners)
        return _first_min(legal)
    if not trick:
        return _first_min(legal)
    losers = legal & ~winners
    return _first_max(losers) if losers else _first_min(legal)


def real_bids(bids: Sequence[int]) -> list[int]:
    """The bids the seats play for, without the rule styles' codes (:data:`RULE_POLICY`)."""
    return [b % RULE_POLICY if b >= RULE_POLICY else b for b in bids]


def py_policy_card(
    hands: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int:
    """A seat's card in the play-outs: its rule style's (:func:`py_rule_card`) when its policy bid names one, else
    :func:`py_knowledge_limited_card`; every policy reads the others' real bids."""
    rule = bids[seat] // RULE_POLICY
    if rule == 0 and max(bids) < RULE_POLICY:
        return py_knowledge_limited_card(hands, pub, seat, leader, trick, won, bids, first)
    plain = real_bids(bids)
    if rule:
        return py_rule_card(hands, seat, trick, won, plain[seat], first, rule)
    return py_knowledge_limited_card(hands, pub, seat, leader, trick, won, plain, first)


def py_play_out_mixed(
    hands: Sequence[int], pub: Sequence[int], leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool, noise: Sequence[float], seed: int,
) -> list[int]:
    """:func:`py_play_out`, but seat ``q`` plays a uniformly random legal card with probability ``noise[q]``
    (a seat whose fitted style is partly unlike any policy we know, :mod:`.opponents`), and otherwise
    :func:`py_policy_card` (a seat whose policy bid names a rule style plays that rule); SplitMix64 draws from
    ``seed``, one uniform per card of a noisy seat and one more for a random card, as the kernel draws them."""
    rng = SplitMix64(seed)
    deal = DealInPlay(hands, leader, trick, won, first)
    public = list(pub)
    while not deal.over:
        seat = deal.to_play
        if noise[seat] > 0 and rng.uniform() < noise[seat]:
            legal = deal.legal_mask()
            card = nth_card(legal, rng.below(legal.bit_count()))
        else:
            card = py_policy_card(deal.hands, public, seat, deal.leader, deal.trick, deal.won, bids, deal.first)
        public[seat] &= ~forbidden_by_play(deal.trick, card, deal.first)
        deal.play(card)
    return deal.won


def play_out_after(
    me: int, card: int, hands: Sequence[int], pub: Sequence[int], trick: Sequence[int], won: Sequence[int],
    leader: int, bids: Sequence[int], first: bool, finish: Callable[..., list[int]] | None = None,
) -> list[int]:
    """The tricks won per seat when ``me`` plays ``card`` in a sampled world (``hands``) and ``finish`` (the
    play-out, :func:`play_out` by default) plays the rest of the deal: what ``card`` tells the others narrows
    ``me``'s public mask, the trick closes if it was the fourth card, and the next trick's leader is its winner.
    The inputs are left as they were, so one world serves every candidate card."""
    public = list(pub)
    public[me] &= ~forbidden_by_play(trick, card, first)
    deal = DealInPlay(hands, leader, trick, won, first)
    deal.play(card)
    return (finish or play_out)(deal.hands, public, deal.leader, deal.trick, deal.won, bids, deal.first)


def nth_card(mask: int, index: int) -> int:
    """The ``index``-th lowest card of ``mask`` (from 0): how the play-outs and searches turn a random draw
    into a card, as the kernel does.

    >>> nth_card(0b101100, 0), nth_card(0b101100, 2)
    (2, 5)
    """
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def opponents_below(finals: Sequence[int | float], me: int, others: Sequence[int] | None = None) -> float:
    """How many of ``others`` (every other seat by default) finish below ``me``, a tie counting half.

    >>> opponents_below([131, 530, 230, 130], 0)
    1.0
    >>> opponents_below([130, 530, 230, 130], 0)
    0.5
    """
    seats = [q for q in range(4) if q != me] if others is None else others
    return sum(1.0 if finals[me] > finals[q] else 0.5 if finals[me] == finals[q] else 0.0 for q in seats)


def utility(
    me: int, bids: Sequence[int], won: Sequence[int], totals: Sequence[int], last_deal: bool, deal_number: int = 1,
    rank: float = 0.0,
) -> float:
    """What a finished simulated deal is worth to ``me`` (tenths).

    Before the last deal: the deal's score minus a weighted mean of the opponents' scores, each
    weighted by how much of a rival it is in the standings (the leaders count more as the match
    goes on; in the first deal it is the plain margin over the field).  In the last deal the share
    of the match win, with the margin only to break ties (so a player far behind takes whatever
    gamble can still win, and a leader plays safe).  An earlier version also paid a losing seat for
    closing the gap to the leader; it won fewer matches from the same fifth-deal positions
    (``bench/ab_deals.py --last``).  With ``rank`` > 0 the last deal also pays ``rank`` for each opponent
    finishing below ``me`` (half for a tie): the places behind the winner count, as they do in the ratings.
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
    placed = rank * opponents_below(finals, me) if rank else 0.0
    if finals[me] == top:
        return 300.0 / finals.count(top) + 0.2 * margin + placed
    return 0.01 * margin + placed


# --- The knowledge-limited policy -----------------------------------------------------------------
#
# Every seat plays as the heuristic bot does, from what that seat could know: its own hand, the
# cards played, and the public readings of forced plays (``pub[q]``: the cards seat ``q`` may still
# hold as far as the table can tell).  A first version let every seat see all four hands of the
# sampled deal, so simulated defenders never misjudged a finesse or a ruff and the bot under test
# was credited with too few tricks (strategy fusion); it is kept for comparison in
# ``bench/greedy_playout.py``.

def _may_trump(possible: int, others: int, suit: int) -> bool:
    """The heuristic's guess: a seat that may hold ``possible`` holds a spade and is, or may soon be, void in
    ``suit`` (``others``: every card the seat to play does not hold)."""
    if not possible & SPADES_MASK:
        return False
    if not possible & SUIT_MASKS[suit]:
        return True
    return (others & SUIT_MASKS[suit]).bit_count() <= 1


def py_knowledge_limited_card(
    hands: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int:
    """The heuristic bot's card for ``seat``, judged from that seat's knowledge only."""
    hand = hands[seat]
    legal = legal_mask(hand, trick, first)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    left = hand.bit_count()
    others = 0
    for other in range(4):
        if other != seat:
            others |= hands[other]
    need = bids[seat] - won[seat]
    want = 0 < need <= left or bids[seat] >= GREEDY_BID
    needy = 0
    for other in range(4):
        if other != seat and (0 < bids[other] - won[other] <= left or bids[other] >= GREEDY_BID):
            needy |= 1 << other
    if not trick:
        if want or needy:
            others_spades = others & SPADES_MASK
            my_spades = legal & SPADES_MASK
            if my_spades and not first:
                top = my_spades.bit_length() - 1
                if not others_spades or not others & ABOVE[top]:
                    return top
            best = -1
            best_key = (-1, -1)
            for suit in _SIDE:
                in_suit = legal & SUIT_MASKS[suit]
                if not in_suit:
                    continue
                top = in_suit.bit_length() - 1
                if others & ABOVE[top]:
                    continue
                if others_spades:
                    risky = False
                    for other in range(4):
                        if other != seat and _may_trump(pub[other] & others, others, suit):
                            risky = True
                            break
                    if risky:
                        continue
                key = ((others & SUIT_MASKS[suit]).bit_count(), top % 13)
                if key > best_key:
                    best_key = key
                    best = top
            if best >= 0:
                return best
        side = legal & NON_SPADES_MASK
        if side:
            best = -1
            best_key = (99, 99)
            for suit in _SIDE:
                in_suit = side & SUIT_MASKS[suit]
                if not in_suit:
                    continue
                low = (in_suit & -in_suit).bit_length() - 1
                if want or needy:
                    key = ((hand & SUIT_MASKS[suit]).bit_count(), low % 13)
                else:
                    key = (-(others & ABOVE[low]).bit_count(), low % 13)
                if key < best_key:
                    best_key = key
                    best = low
            return best
        return (legal & -legal).bit_length() - 1 if not (want or needy) else legal.bit_length() - 1
    later = [(seat + i) & 3 for i in range(1, 4 - len(trick))]
    winning_index = trick_winner_index(trick)
    best_card = trick[winning_index]
    if not want and needy:
        if needy >> ((leader + winning_index) & 3) & 1:
            want = True
        else:
            for other in later:
                if needy >> other & 1:
                    want = True
                    break
    led = trick[0] // 13
    cards = []
    rest = legal
    while rest:
        low = rest & -rest
        cards.append(low.bit_length() - 1)
        rest ^= low
    if want:
        winning = [card for card in cards if beats(card, best_card)]
        if not winning:
            # Discard: keep spades and masters, shorten the shortest side suit.
            return min(
                cards,
                key=lambda card: (
                    1 if card < 13 else 0, 0 if others & ABOVE[card] else 1,
                    (hand & SUIT_MASKS[card // 13]).bit_count(), card % 13,
                ),
            )
        best = -1
        best_key = (99, 99)
        for card in winning:
            beaters = 0  # the later seats that may beat it
            for other in later:
                possible = pub[other] & others
                if card < 13:
                    if possible & ABOVE[card] and (
                        led == 0 or not possible & SUIT_MASKS[led] or _may_trump(possible, others, led)
                    ):
                        beaters += 1
                elif possible & ABOVE[card] or _may_trump(possible, others, led):
                    beaters += 1
            key = (beaters, strength(card) if beaters == 0 or card < 13 else -strength(card))
            if key < best_key:
                best_key = key
                best = card
        return best
    losing = [card for card in cards if not beats(card, best_card)]
    if losing:
        return max(losing, key=strength)
    if not later:
        return max(cards, key=strength)
    return min(cards, key=strength)


_PlayOut = Callable[[Sequence[int], Sequence[int], int, Sequence[int], Sequence[int], Sequence[int], bool], list[int]]
_PolicyCard = Callable[
    [Sequence[int], Sequence[int], int, int, Sequence[int], Sequence[int], Sequence[int], bool], int
]


_KERNEL = native.KERNEL
#: Whether the C kernel plays the play-outs (it plays the same cards: tests/engine/bots/test_kernel.py).
KERNEL = _KERNEL is not None
#: The C kernel's module, for the functions that are not play-outs (:func:`.posterior.refine`); None without it.
KERNEL_MODULE = _KERNEL
play_out: _PlayOut = _KERNEL.play_out if _KERNEL else py_play_out
knowledge_limited_card: _PolicyCard = _KERNEL.knowledge_limited_card if _KERNEL else py_knowledge_limited_card
play_out_mixed: Callable[..., list[int]] = _KERNEL.play_out_mixed if _KERNEL else py_play_out_mixed
policy_card: _PolicyCard = _KERNEL.policy_card if _KERNEL else py_policy_card
