"""Opponent models: each other seat's style, fitted during the match from that seat's own public actions.

The strong bot's belief and play-outs read every other seat as the heuristic.  Against a table that plays
otherwise (aggressive trick-takers that overtake whenever they can, and bid by other rules) that reading is
wrong twice: the worlds explain the cards by the wrong policy, and the play-outs play the others wrongly.  A
:class:`Style` per seat says how that seat has been playing:

* **cards**: a mixture of the heuristic's card (:func:`.playout.knowledge_limited_card` at the seat's real
  bid), a greedy trick-taker's card (the same policy always wanting the trick, :data:`.playout.GREEDY_BID`) and a
  uniform choice of its legal cards, with shares fitted by EM on its non-forced plays;
* **bids**: the mean shift of its bids from the heuristic's bid on the same hand, and how often the shifted
  heuristic bid is its bid (turned into the ``bid miss`` factor of the belief).

Only finished deals are read: their hands are public once every card has been played, so each play and bid
can be judged from the hand the seat really held, without guessing.  A Dirichlet prior (a seat is a heuristic
until it shows otherwise) keeps the first deals close to what the strong bot assumed before.  The fit is a
function of the view alone (the public history), so a decision stays a function of ``(view, seed)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..cards import FULL_DECK
from ..match import DealRecord
from ..rules import DealInPlay
from ..views import PlayerView
from .evaluation import estimate_tricks
from .heuristic import bid_for
from .inference import forbidden_by_play
from .playout import GREEDY_BID, knowledge_limited_card

#: The prior: pseudo-observations of plays (heuristic, greedy, uniform) a seat starts with.
PRIOR_PLAYS = (7.4, 0.2, 0.4)
#: The prior on bids: one bid on the heuristic's, agreeing with it (weight ``PRIOR_BIDS``, agreement 0.9).
PRIOR_BIDS = 2.0
EM_ROUNDS = 40


@dataclass(frozen=True, slots=True)
class Style:
    """How a seat plays: ``heuristic`` and ``greedy`` shares of its cards (the rest uniform), its bids'
    ``shift`` from the heuristic's bid and ``bid_miss``, the belief's factor for a bid off the shifted one."""

    heuristic: float
    greedy: float
    shift: float
    bid_miss: float
    plays: int = 0
    bids: int = 0

    def packed(self) -> tuple[float, float, float, float]:
        """(shift, bid miss, heuristic share, greedy share): the order :mod:`.posterior` and the kernel read."""
        return (self.shift, self.bid_miss, self.heuristic, self.greedy)


def lround(x: float) -> int:
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


@dataclass(slots=True)
class Observations:
    """A seat's public record: per non-forced play (legal cards, heuristic's card?, greedy's card?), per bid
    (its bid minus the heuristic's bid on its hand)."""

    plays: list[tuple[int, bool, bool]]
    bid_diffs: list[int]


def dealt_hands(deal: DealRecord) -> list[int]:
    """A finished deal's four hands as dealt (public once it is over), as card masks."""
    hands = [0, 0, 0, 0]
    for s in range(4):
        for c in deal.dealt[s]:
            hands[s] |= 1 << c
    return hands


def replayed_plays(deal: DealRecord, hands: list[int]) -> Iterator[tuple[DealInPlay, list[int], int, int]]:
    """Each play of a finished deal with the position before it: the deal in play, what each seat might still
    hold as the table saw it (``pub``, as the play-outs read it), the seat and its card. The models of both
    opponent modules read a seat's choices here; the replay moves on once the caller has read the position."""
    pub = [FULL_DECK] * 4
    replay = DealInPlay(hands, (deal.dealer + 1) % 4, first=True)  # the dealer's right leads the first trick
    for recorded in deal.tricks:
        for seat, c in recorded.plays():
            yield replay, pub, seat, c
            pub[seat] &= ~forbidden_by_play(replay.trick, c, replay.first)
            replay.play(c)


def observe_deal(deal: DealRecord, totals_before: Sequence[int], seats: Sequence[int],
                 out: dict[int, Observations]) -> None:
    """Add one finished deal's plays and bids of ``seats`` to ``out`` (its hands are public by now)."""
    hands = dealt_hands(deal)
    for s in seats:
        est = estimate_tricks(hands[s])
        out[s].bid_diffs.append(deal.bids[s] - bid_for(est, s, totals_before, deal.number))
    bids = list(deal.bids)
    for replay, pub, seat, c in replayed_plays(deal, hands):
        legal = replay.legal_mask()
        if seat in out and legal & (legal - 1):
            greedy = list(bids)
            greedy[seat] = GREEDY_BID
            position = (replay.hands, pub, seat, replay.leader, replay.trick, replay.won)
            heuristic_card = knowledge_limited_card(*position, bids, replay.first)
            greedy_card = knowledge_limited_card(*position, greedy, replay.first)
            out[seat].plays.append((legal.bit_count(), heuristic_card == c, greedy_card == c))


def fit_style(obs: Observations) -> Style:
    """The seat's style: EM for the mixture shares of its cards, the mean shift and agreement of its bids."""
    prior = PRIOR_PLAYS
    pi = [p / sum(prior) for p in prior]
    for _ in range(EM_ROUNDS if obs.plays else 0):
        acc = list(prior)
        for k, hit_h, hit_g in obs.plays:
            parts = (pi[0] * hit_h, pi[1] * hit_g, pi[2] / k)
            z = parts[0] + parts[1] + parts[2]
            for j in range(3):
                acc[j] += parts[j] / z
        total = sum(acc)
        pi = [a / total for a in acc]
    n = len(obs.bid_diffs)
    shift = sum(obs.bid_diffs) / (n + 1.0)
    agree = sum(1 for d in obs.bid_diffs if d == lround(shift))
    a = (agree + 0.9 * PRIOR_BIDS) / (n + PRIOR_BIDS)
    bid_miss = min(1.0, max(0.1, (1.0 - a) / max(a, 1e-6)))
    return Style(pi[0], pi[1], shift, bid_miss, len(obs.plays), n)


def fit_styles(view: PlayerView) -> dict[int, Style]:
    """Every other seat's style from the match's finished deals (the prior alone before the first ends)."""
    assert view.seat is not None
    return dict(_fit_styles(view.seat, view.deals))


@lru_cache(maxsize=512)
def _fit_styles(me: int, deals: tuple[DealRecord, ...]) -> tuple[tuple[int, Style], ...]:
    """The fit for a seat and the finished deals, kept: a seat's every decision in a deal reads the same deals,
    and the fit (EM over every play) costs more than the rest of a late card decision but one part."""
    seats = [s for s in range(4) if s != me]
    obs = {s: Observations([], []) for s in seats}
    totals: Sequence[int] = (0, 0, 0, 0)
    for deal in deals:
        observe_deal(deal, totals, seats, obs)
        totals = deal.totals
    return tuple((s, fit_style(obs[s])) for s in seats)


#: A table whose cards agree with the heuristic's this often (the mean heuristic share of the other three) is read
#: as heuristic players, ``TABLE_FOREIGN`` and below as a foreign style; :func:`table_trust` runs between them.
#: Three heuristics fit at about 0.96, the prior at 0.925; ``ismcts`` and ``strong-v2`` seats at 0.55 to 0.6.
TABLE_HEURISTIC = 0.9
TABLE_FOREIGN = 0.6


def table_trust(styles: dict[int, Style]) -> float:
    """How far the other seats play as the heuristic does, from 0 (a foreign table) to 1 (heuristics, or no
    finished deal yet): the strong bot's simulations play the others as heuristics, so this says how far
    to trust them.

    >>> table_trust({1: _PRIOR, 2: _PRIOR, 3: _PRIOR})
    1.0
    >>> foreign = Style(0.55, 0.02, 0.5, 0.5)
    >>> table_trust({1: foreign, 2: foreign, 3: foreign})
    0.0
    >>> round(table_trust({1: _PRIOR, 2: foreign, 3: Style(0.75, 0.0, 0.0, 0.3)}), 3)
    0.472
    """
    mean = sum(st.heuristic for st in styles.values()) / len(styles)
    return min(1.0, max(0.0, (mean - TABLE_FOREIGN) / (TABLE_HEURISTIC - TABLE_FOREIGN)))


def style_rows(view: PlayerView, styles: dict[int, Style]) -> list[tuple[float, float, float, float]]:
    """Per seat 0..3 the packed style (the viewer's own row is unused: the prior's)."""
    default = _PRIOR.packed()
    return [styles[s].packed() if s in styles else default for s in range(4)]


#: The style of a seat with no finished deal: the prior alone.
_PRIOR = fit_style(Observations([], []))
