"""The ``heuristic`` bot: a careful club player following the seeds' advice.

Bidding counts sure tricks (side aces, high spades, long spades, short side suits that will trump)
and bids low rather than high; in the fifth deal it looks at the standings.  In play it cashes side
aces early, leads spades from strength from the second trick on to draw trumps, wins as cheaply as
is safe while its bid is not made, and once made loses safely unless a trick can break an opponent
who still needs it.  It reads forced plays (voids, "nothing above X") from the public history.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import ABOVE, SPADES_MASK, SUIT_MASKS, card_str, mask_cards
from ..match import Action, Bid, Play
from ..rules import beats, trick_winner_index
from ..views import PlayerView
from .evaluation import careful_bid, estimate_tricks
from .inference import Knowledge, knowledge
from .registry import register


def heuristic_bid(view: PlayerView, noise: float = 0.0, rng: random.Random | None = None) -> int:
    """Sure tricks rounded down (bid low rather than high); standings-aware in the fifth deal."""
    assert view.seat is not None
    est = estimate_tricks(view.hand)
    if noise and rng is not None:
        est += rng.gauss(0.0, noise)
    return bid_for(est, view.seat, view.totals, view.deal_number)


def bid_for(est: float, me: int, totals: Sequence[int], deal_number: int) -> int:
    """The heuristic's bid on a hand estimated at ``est`` tricks, at seat ``me`` with these standings (a
    function of what the table knows, so the search bot can ask what bid a sampled hand would have made)."""
    bid = careful_bid(est)
    if deal_number == 5 and totals:
        mine = totals[me]
        best_other = max(t for s, t in enumerate(totals) if s != me)
        deficit = best_other - mine
        if deficit > 0:
            # Even 13 tricks on a bid b score b + 0.1(13 - b): bid high enough to be able to catch up
            # with a leader who makes at least a bid of 1.
            need = -(-(deficit + 10) // 10)
            if need > bid:
                bid = min(13, max(bid, min(need, int(est) + 2)))
        elif -deficit >= 30:
            bid = max(1, min(bid, int(est * 0.8)))
    return bid


class Table:
    """Per-decision facts the play rules read (all public or the seat's own)."""

    def __init__(self, view: PlayerView, kn: Knowledge | None = None) -> None:
        assert view.seat is not None
        self.view = view
        self.me = view.seat
        self.kn = kn or knowledge(view)
        self.hand = view.hand
        self.unseen = self.kn.unseen
        self.remaining = 13 - len(view.tricks)
        bids = [b or 0 for b in view.bids]
        self.need = [bids[s] - view.tricks_won[s] for s in range(4)]
        plays = view.trick_plays()
        self.plays = plays
        self.later = [(self.me + i) % 4 for i in range(1, 4 - len(plays))]
        self.needy = {
            s for s in range(4) if s != self.me and 0 < self.need[s] <= self.remaining
        }

    def may_hold(self, seat: int, mask: int) -> bool:
        return bool(self.kn.allowed[seat] & mask)

    def may_trump(self, seat: int, suit: int) -> bool:
        """Seat may be void in ``suit`` and hold a spade (known void, or the suit is nearly gone)."""
        allowed = self.kn.allowed[seat]
        if not allowed & SPADES_MASK:
            return False
        if not allowed & SUIT_MASKS[suit]:
            return True
        return (self.unseen & SUIT_MASKS[suit]).bit_count() <= 1

    def beaters(self, card: int, trick: list[int]) -> int:
        """How many later seats might still beat ``card`` if it were winning the trick now."""
        led = trick[0] // 13 if trick else card // 13
        n = 0
        for q in self.later:
            if card < 13:  # a spade: beaten only by a higher spade (led spades, or q void in the led suit)
                if self.may_hold(q, ABOVE[card]) and (
                    led == 0 or not self.kn.allowed[q] & SUIT_MASKS[led] or self.may_trump(q, led)
                ):
                    n += 1
            elif self.may_hold(q, ABOVE[card]) or self.may_trump(q, led):
                n += 1
        return n


def strength(card: int) -> int:
    """Play value: any spade outranks any side card."""
    return card % 13 + (13 if card < 13 else 0)


def takes_trick(trick: Sequence[int], card: int) -> bool:
    """Whether ``card`` would be winning ``trick`` once played on it."""
    return not trick or beats(card, trick[trick_winner_index(trick)])


def choose_card(view: PlayerView, kn: Knowledge | None = None) -> int:
    table = Table(view, kn)
    legal = mask_cards(view.legal_cards)
    if len(legal) == 1:
        return legal[0]
    my_need = table.need[table.me]
    want = 0 < my_need <= table.remaining
    if not table.plays:
        return _lead(table, legal, want or bool(table.needy))
    trick = [c for _, c in table.plays]
    if want:
        return _try_win(table, legal, trick)
    if table.needy:
        current = table.plays[trick_winner_index(trick)][0]
        if current in table.needy or any(q in table.needy for q in table.later):
            return _try_win(table, legal, trick)
    return _lose(table, legal, trick)


def _try_win(table: Table, legal: list[int], trick: list[int]) -> int:
    winning = [c for c in legal if takes_trick(trick, c)]
    if not winning:
        return _discard(table, legal)
    sure = [c for c in winning if table.beaters(c, trick) == 0]
    if sure:
        return min(sure, key=strength)
    # No sure winner: take the best chance, cheapest among equals.
    return min(winning, key=lambda c: (table.beaters(c, trick), -strength(c) if c >= 13 else strength(c)))


def _discard(table: Table, legal: list[int]) -> int:
    """A card that cannot win: keep spades and masters, shorten short side suits."""
    hand = table.hand

    def key(c: int) -> tuple[int, int, int, int]:
        suit = c // 13
        master = not (table.unseen & ABOVE[c])
        return (1 if c < 13 else 0, 1 if master else 0, (hand & SUIT_MASKS[suit]).bit_count(), c % 13)

    return min(legal, key=key)


def _lose(table: Table, legal: list[int], trick: list[int]) -> int:
    losing = [c for c in legal if not takes_trick(trick, c)]
    if losing:
        # Shed the most dangerous card that surely loses (someone already beats it).
        return max(losing, key=strength)
    if not table.later:
        return max(legal, key=strength)  # the trick is ours anyway: spend the biggest card
    return min(legal, key=strength)  # the lowest winner is the likeliest to be overtaken


def _lead(table: Table, legal: list[int], want: bool) -> int:
    hand = table.hand
    unseen = table.unseen
    opp_spades = unseen & SPADES_MASK
    first = table.view.first_trick
    if want:
        my_spades = [c for c in legal if c < 13]
        if my_spades and not first:
            top = max(my_spades)
            if not opp_spades:
                return top  # nobody else holds a spade: every spade is a sure trick
            if not unseen & ABOVE[top]:
                return top  # the master spade draws the others' trumps
        # Cash side masters whose suit nobody is likely to trump.
        masters = []
        for c in legal:
            if c < 13 or unseen & ABOVE[c]:
                continue
            suit = c // 13
            if not opp_spades or not any(table.may_trump(q, suit) for q in range(4) if q != table.me):
                masters.append(c)
        if masters:
            return max(masters, key=lambda c: ((unseen & SUIT_MASKS[c // 13]).bit_count(), c % 13))
    # Lead low: from a short side suit (making a void to trump later) without a guarded honour.
    side = [c for c in legal if c >= 13]
    if side:

        def key(c: int) -> tuple[int, int, int]:
            suit = c // 13
            n = (hand & SUIT_MASKS[suit]).bit_count()
            lowest = c == min(x for x in side if x // 13 == suit)
            if want:
                return (0 if lowest else 1, n, c % 13)
            # Losing on purpose: the card with the most unseen cards above it.
            return (0 if lowest else 1, -(unseen & ABOVE[c]).bit_count(), c % 13)

        return min(side, key=key)
    return min(legal) if not want else max(legal)


class HeuristicBot:
    """The careful club player (``normal`` level); ``noise`` > 0 makes the ``easy`` level."""

    name = "heuristic"
    noise = 0.0

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.seat is not None
        if view.legal_bids:
            return Bid(view.seat, heuristic_bid(view, self.noise * 2, rng))
        if self.noise and rng.random() < self.noise:
            return Play(view.seat, card_str(rng.choice(mask_cards(view.legal_cards))))
        return Play(view.seat, card_str(choose_card(view)))


class EasyBot(HeuristicBot):
    name = "heuristic-noisy"
    noise = 0.3


register("heuristic", HeuristicBot)
register("heuristic-noisy", EasyBot)
