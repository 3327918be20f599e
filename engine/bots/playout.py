"""Play out the rest of a sampled deal, fast, on masks: the ``strong`` bot's simulations.

Every seat plays the heuristic's plan reduced to bit operations (:func:`kl_card`): a seat that
still needs tricks cashes masters and wins as cheaply as no later seat can beat, one whose bid is
made throws its highest losing card unless an opponent who still needs tricks would take the
trick.  "No later seat can beat" is judged from what the seat could know: its own hand, the cards
played and the public readings of forced plays.  :func:`play_out` finishes a deal that way; it is
deterministic, so a playout is a function of the sampled hands alone.  :func:`utility` says what
the finished deal is worth to the bot.

Both are written here in Python (``py_play_out``, ``py_kl_card``) and, card for card the same, in C
(``_kernel.c``, built at install when a compiler is there; about 40 times faster, bench/playout_speed.py).
``play_out`` and ``kl_card`` are the C ones when the kernel is built, unless ``CALLBREAK_PURE_PYTHON`` is set.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType

from ..cards import ABOVE, SPADES_MASK, SUIT_MASKS
from ..rules import beats, deal_score, legal_mask, trick_winner_index
from .heuristic import strength
from .inference import forbidden_by_play

NS = ((1 << 52) - 1) & ~SPADES_MASK
#: A bid this high or higher, given to :func:`kl_card` for a seat, makes it a greedy trick-taker: it always
#: wants the trick (and the others treat it as a seat that needs tricks).  Only the policy reads it: the
#: scores of a play-out are counted on the real bids (the opponent models of :mod:`.opponents`).
GREEDY_BID = 64
_SIDE = (1, 2, 3)


def py_play_out(
    hands: Sequence[int],
    pub: Sequence[int],
    leader: int,
    trick: Sequence[int],
    won: Sequence[int],
    bids: Sequence[int],
    first: bool,
) -> list[int]:
    """Finish the deal with every seat playing :func:`kl_card`; return the tricks won per seat.

    ``pub[q]`` holds the cards seat ``q`` may still hold as far as the table can tell; it is narrowed
    by :func:`.inference.forbidden_by_play` as each card falls.
    """
    h = list(hands)
    p = list(pub)
    w = list(won)
    t = list(trick)
    seat = (leader + len(t)) & 3
    while True:
        if not t and not h[seat]:
            return w
        c = py_kl_card(h, p, seat, leader, t, w, bids, first)
        p[seat] &= ~forbidden_by_play(t, c, first)
        h[seat] ^= 1 << c
        t.append(c)
        if len(t) == 4:
            winner = (leader + trick_winner_index(t)) & 3
            w[winner] += 1
            leader = winner
            seat = winner
            t = []
            first = False
        else:
            seat = (seat + 1) & 3


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


def py_play_out_mixed(
    hands: Sequence[int], pub: Sequence[int], leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool, noise: Sequence[float], seed: int,
) -> list[int]:
    """:func:`py_play_out`, but seat ``q`` plays a uniformly random legal card with probability ``noise[q]``
    (a seat whose fitted style is partly unlike any policy we know, :mod:`.opponents`); SplitMix64 draws from
    ``seed``, one uniform per card of a noisy seat and one more for a random card, as the kernel draws them."""
    rng = SplitMix64(seed)
    h = list(hands)
    p = list(pub)
    w = list(won)
    t = list(trick)
    seat = (leader + len(t)) & 3
    while True:
        if not t and not h[seat]:
            return w
        if noise[seat] > 0 and rng.uniform() < noise[seat]:
            lg = legal_mask(h[seat], t, first)
            c = _nth(lg, rng.below(lg.bit_count()))
        else:
            c = py_kl_card(h, p, seat, leader, t, w, bids, first)
        p[seat] &= ~forbidden_by_play(t, c, first)
        h[seat] ^= 1 << c
        t.append(c)
        if len(t) == 4:
            winner = (leader + trick_winner_index(t)) & 3
            w[winner] += 1
            leader = winner
            seat = winner
            t = []
            first = False
        else:
            seat = (seat + 1) & 3


def _nth(m: int, i: int) -> int:
    for _ in range(i):
        m &= m - 1
    return (m & -m).bit_length() - 1


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

def _may_trump(pq: int, others: int, suit: int) -> bool:
    """The heuristic's guess: ``q`` (possible cards ``pq``) holds a spade and is, or may soon be, void."""
    if not pq & SPADES_MASK:
        return False
    if not pq & SUIT_MASKS[suit]:
        return True
    return (others & SUIT_MASKS[suit]).bit_count() <= 1


def py_kl_card(
    h: Sequence[int], pub: Sequence[int], seat: int, leader: int, trick: Sequence[int], won: Sequence[int],
    bids: Sequence[int], first: bool,
) -> int:
    """The heuristic bot's card for ``seat``, judged from that seat's knowledge only."""
    hand = h[seat]
    lg = legal_mask(hand, trick, first)
    if not lg & (lg - 1):
        return lg.bit_length() - 1
    left = hand.bit_count()
    others = 0
    for q in range(4):
        if q != seat:
            others |= h[q]
    need = bids[seat] - won[seat]
    want = 0 < need <= left or bids[seat] >= GREEDY_BID
    needy = 0
    for q in range(4):
        if q != seat and (0 < bids[q] - won[q] <= left or bids[q] >= GREEDY_BID):
            needy |= 1 << q
    if not trick:
        if want or needy:
            osp = others & SPADES_MASK
            sp = lg & SPADES_MASK
            if sp and not first:
                top = sp.bit_length() - 1
                if not osp or not others & ABOVE[top]:
                    return top
            best = -1
            best_key = (-1, -1)
            for s in _SIDE:
                b = lg & SUIT_MASKS[s]
                if not b:
                    continue
                top = b.bit_length() - 1
                if others & ABOVE[top]:
                    continue
                if osp:
                    risky = False
                    for q in range(4):
                        if q != seat and _may_trump(pub[q] & others, others, s):
                            risky = True
                            break
                    if risky:
                        continue
                key = ((others & SUIT_MASKS[s]).bit_count(), top % 13)
                if key > best_key:
                    best_key = key
                    best = top
            if best >= 0:
                return best
        side = lg & NS
        if side:
            best = -1
            best_k = (99, 99)
            for s in _SIDE:
                b = side & SUIT_MASKS[s]
                if not b:
                    continue
                low = (b & -b).bit_length() - 1
                if want or needy:
                    k = ((hand & SUIT_MASKS[s]).bit_count(), low % 13)
                else:
                    k = (-(others & ABOVE[low]).bit_count(), low % 13)
                if k < best_k:
                    best_k = k
                    best = low
            return best
        return (lg & -lg).bit_length() - 1 if not (want or needy) else lg.bit_length() - 1
    n = len(trick)
    later = [(seat + i) & 3 for i in range(1, 4 - n)]
    bi = trick_winner_index(trick)
    best_card = trick[bi]
    if not want and needy:
        if needy >> ((leader + bi) & 3) & 1:
            want = True
        else:
            for q in later:
                if needy >> q & 1:
                    want = True
                    break
    led = trick[0] // 13
    cards = []
    m = lg
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    if want:
        winning = [c for c in cards if beats(c, best_card)]
        if not winning:
            # Discard: keep spades and masters, shorten the shortest side suit.
            return min(
                cards,
                key=lambda c: (
                    1 if c < 13 else 0, 0 if others & ABOVE[c] else 1,
                    (hand & SUIT_MASKS[c // 13]).bit_count(), c % 13,
                ),
            )
        best_c = -1
        best_k = (99, 99)
        for c in winning:
            nb = 0
            for q in later:
                pq = pub[q] & others
                if c < 13:
                    if pq & ABOVE[c] and (led == 0 or not pq & SUIT_MASKS[led] or _may_trump(pq, others, led)):
                        nb += 1
                elif pq & ABOVE[c] or _may_trump(pq, others, led):
                    nb += 1
            k = (nb, strength(c) if nb == 0 or c < 13 else -strength(c))
            if k < best_k:
                best_k = k
                best_c = c
        return best_c
    losing = [c for c in cards if not beats(c, best_card)]
    if losing:
        return max(losing, key=strength)
    if not later:
        return max(cards, key=strength)
    return min(cards, key=strength)


_PlayOut = Callable[[Sequence[int], Sequence[int], int, Sequence[int], Sequence[int], Sequence[int], bool], list[int]]
_KlCard = Callable[
    [Sequence[int], Sequence[int], int, int, Sequence[int], Sequence[int], Sequence[int], bool], int
]


def _kernel() -> ModuleType | None:
    """The C kernel, unless it is not built (no compiler at install) or ``CALLBREAK_PURE_PYTHON`` is set."""
    if os.environ.get("CALLBREAK_PURE_PYTHON"):
        return None
    try:
        return import_module(__name__.rpartition(".")[0] + "._kernel")
    except ImportError:
        return None


_KERNEL = _kernel()
#: Whether the C kernel plays the play-outs (it plays the same cards: tests/engine/bots/test_kernel.py).
KERNEL = _KERNEL is not None
#: The C kernel's module, for the functions that are not play-outs (:func:`.posterior.refine`); None without it.
KERNEL_MODULE = _KERNEL
play_out: _PlayOut = _KERNEL.play_out if _KERNEL else py_play_out
kl_card: _KlCard = _KERNEL.kl_card if _KERNEL else py_kl_card
play_out_mixed: Callable[..., list[int]] = _KERNEL.play_out_mixed if _KERNEL else py_play_out_mixed
