"""The 5-deal match as a log of actions: ``apply(state, action) -> state`` and ``replay``.

A state is a value for its callers: :func:`apply` returns a new one and never changes its argument,
so a server may keep any version around.  ``version`` counts the actions applied; a site compares it
with the client's expected ``seq`` to reject stale submissions.

>>> s = new_match("example-seed")
>>> s.phase is Phase.BIDDING, s.phase == "bidding", s.dealer, s.turn, s.version
(True, True, 3, 0, 0)
>>> s = apply(s, Bid(0, 4))
>>> s.turn, s.version
(1, 1)
>>> apply(s, Bid(0, 3))
Traceback (most recent call last):
...
engine.errors.IllegalAction: it is seat 1's turn, not seat 0's
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import SUIT_SYMBOLS, SUITS, card_label, card_str, parse_card
from .deal import DEALS_PER_MATCH, check_seed, deal_hands, dealer_of_deal, first_dealer, seed_commitment
from .errors import EngineError, IllegalAction, ReplayError
from .rules import (
    MUST_BEAT,
    MUST_FOLLOW_SUIT,
    MUST_OVERTRUMP,
    MUST_TRUMP,
    TRICKS_PER_DEAL,
    check_bid,
    deal_score,
    legal_mask,
    locked_reasons,
    trick_winner_index,
)


class Phase(StrEnum):
    """Where a match stands.  A ``str``: each member equals, prints and serialises as its value."""

    BIDDING = "bidding"
    PLAYING = "playing"
    FINISHED = "finished"


BIDDING = Phase.BIDDING
PLAYING = Phase.PLAYING
FINISHED = Phase.FINISHED


def _check_seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise EngineError(f"a seat is 0, 1, 2 or 3, not {seat!r}", "bad_action")
    return seat


@dataclass(frozen=True, slots=True)
class Bid:
    """Seat ``seat`` bids ``bid`` tricks (1..13, checked when applied)."""

    seat: int
    bid: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def to_json(self) -> dict[str, int]:
        return {"seat": self.seat, "bid": self.bid}


@dataclass(frozen=True, slots=True)
class Play:
    """Seat ``seat`` plays ``card`` (normalised to the spec's notation, e.g. ``"QH"``)."""

    seat: int
    card: str

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        card: object = self.card
        c = card if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52 else None
        object.__setattr__(self, "card", card_str(c) if c is not None else card_str(parse_card(card)))

    def to_json(self) -> dict[str, int | str]:
        return {"seat": self.seat, "card": self.card}


Action = Bid | Play


def action_from_json(obj: object) -> Action:
    """``{"seat": 0, "bid": 4}`` or ``{"seat": 0, "card": "QH"}`` as an action, or ``EngineError``."""
    if isinstance(obj, (Bid, Play)):
        return obj
    if not isinstance(obj, Mapping):
        raise EngineError(f"an action is an object with 'seat' and 'bid' or 'card', not {obj!r}", "bad_action")
    has_bid, has_card = "bid" in obj, "card" in obj
    if has_bid == has_card:
        raise EngineError("an action has exactly one of 'bid' and 'card'", "bad_action")
    seat = obj.get("seat")
    if has_bid:
        bid = obj["bid"]
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise EngineError(f"a bid is a whole number from 1 to 13, not {bid!r}", "bad_bid")
        return Bid(_check_seat(seat), bid)
    return Play(_check_seat(seat), obj["card"])


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: ``cards`` in play order from ``leader``; ``winner`` is a seat."""

    leader: int
    cards: tuple[int, ...]
    winner: int

    def plays(self) -> list[tuple[int, int]]:
        return [((self.leader + i) % 4, c) for i, c in enumerate(self.cards)]

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [{"seat": s, "card": card_str(c)} for s, c in self.plays()],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal: everything a replay needs. Scores and totals are tenths."""

    number: int
    dealer: int
    dealt: tuple[tuple[int, ...], ...]
    bids: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    def bid_order(self) -> list[tuple[int, int]]:
        """(seat, bid) in the order made: from the dealer's right round to the dealer."""
        return [((self.dealer + 1 + i) % 4, self.bids[(self.dealer + 1 + i) % 4]) for i in range(4)]

    def summary_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "scores": list(self.scores),
            "totals": list(self.totals),
        }


class MatchState:
    """One moment of a match.  Treat it as immutable: :func:`apply` copies before it changes."""

    __slots__ = (
        "seed", "seed_commitment", "first_dealer", "deal_number", "dealer", "phase", "turn",
        "hands", "dealt", "bids", "trick_leader", "trick", "tricks", "tricks_won",
        "completed", "totals_list", "_actions",
    )

    seed: str
    seed_commitment: str
    first_dealer: int
    deal_number: int
    dealer: int
    phase: Phase
    turn: int | None
    hands: list[int]
    dealt: tuple[tuple[int, ...], ...]
    bids: list[int | None]
    trick_leader: int
    trick: list[int]
    tricks: list[Trick]
    tricks_won: list[int]
    completed: tuple[DealRecord, ...]
    totals_list: list[int]
    _actions: list[Action]

    # --- read-only conveniences -----------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self._actions)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def is_finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.totals_list)

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != FINISHED:
            return ()
        best = max(self.totals_list)
        return tuple(s for s in range(4) if self.totals_list[s] == best)

    @property
    def first_trick(self) -> bool:
        return self.phase == PLAYING and not self.tricks

    def trick_plays(self) -> list[tuple[int, int]]:
        """The current trick as (seat, card) in play order."""
        return [((self.trick_leader + i) % 4, c) for i, c in enumerate(self.trick)]

    def legal_bids(self) -> list[int]:
        return list(range(1, 14)) if self.phase == BIDDING else []

    def legal_cards(self) -> int:
        """Mask of the cards the seat to move may play (0 when not playing)."""
        if self.phase != PLAYING or self.turn is None:
            return 0
        return legal_mask(self.hands[self.turn], self.trick, not self.tricks)

    def last_trick(self) -> Trick | None:
        """The latest completed trick, reaching back into the previous deal at a deal's start."""
        if self.tricks:
            return self.tricks[-1]
        if self.completed:
            return self.completed[-1].tricks[-1]
        return None

    def copy(self) -> MatchState:
        new = MatchState.__new__(MatchState)
        new.seed = self.seed
        new.seed_commitment = self.seed_commitment
        new.first_dealer = self.first_dealer
        new.deal_number = self.deal_number
        new.dealer = self.dealer
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands[:]
        new.dealt = self.dealt
        new.bids = self.bids[:]
        new.trick_leader = self.trick_leader
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.tricks_won = self.tricks_won[:]
        new.completed = self.completed
        new.totals_list = self.totals_list[:]
        new._actions = self._actions[:]
        return new

    def __repr__(self) -> str:
        return (
            f"<MatchState v{self.version} deal {self.deal_number} {self.phase} turn={self.turn} "
            f"totals={self.totals_list}>"
        )

    # --- transitions (in place; callers go through apply/replay) ---------------------------
    def _start_deal(self, number: int) -> None:
        self.deal_number = number
        self.dealer = dealer_of_deal(self.first_dealer, number)
        dealt = deal_hands(self.seed, number, self.dealer)
        self.dealt = tuple(tuple(h) for h in dealt)
        masks = []
        for hand in dealt:
            m = 0
            for c in hand:
                m |= 1 << c
            masks.append(m)
        self.hands = masks
        self.bids = [None, None, None, None]
        self.trick_leader = (self.dealer + 1) % 4
        self.trick = []
        self.tricks = []
        self.tricks_won = [0, 0, 0, 0]
        self.phase = BIDDING
        self.turn = (self.dealer + 1) % 4

    def _apply(self, action: Action) -> None:
        if self.phase == FINISHED or self.turn is None:
            raise IllegalAction("the match is over: no more bids or cards", "match_over")
        if not isinstance(action, (Bid, Play)):
            raise EngineError(f"not an action: {action!r}", "bad_action")
        seat = action.seat
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s", "not_your_turn")
        if isinstance(action, Bid):
            if self.phase != BIDDING:
                raise IllegalAction("bidding is over for this deal: play a card", "wrong_phase")
            self.bids[seat] = check_bid(action.bid)
            self._actions.append(action)
            if seat == self.dealer:
                self.phase = PLAYING
                self.turn = self.trick_leader
            else:
                self.turn = (seat + 1) % 4
            return
        if self.phase != PLAYING:
            raise IllegalAction("this is the bidding: bid before playing a card", "wrong_phase")
        card = parse_card(action.card)
        bit = 1 << card
        hand = self.hands[seat]
        if not hand & bit:
            raise IllegalAction(f"seat {seat} does not hold {card_label(card)}", "card_not_in_hand")
        first = not self.tricks
        if not legal_mask(hand, self.trick, first) & bit:
            reason = locked_reasons(hand, self.trick, first)[card]
            raise IllegalAction(_explain(card, reason, self.trick, hand), reason)
        self.hands[seat] = hand ^ bit
        self.trick.append(card)
        self._actions.append(action)
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return
        winner = (self.trick_leader + trick_winner_index(self.trick)) % 4
        self.tricks.append(Trick(self.trick_leader, tuple(self.trick), winner))
        self.tricks_won[winner] += 1
        self.trick = []
        self.trick_leader = winner
        self.turn = winner
        if len(self.tricks) == TRICKS_PER_DEAL:
            self._finish_deal()

    def _finish_deal(self) -> None:
        bids = tuple(b or 0 for b in self.bids)
        scores = tuple(deal_score(bids[s], self.tricks_won[s]) for s in range(4))
        for s in range(4):
            self.totals_list[s] += scores[s]
        self.completed = self.completed + (
            DealRecord(
                number=self.deal_number,
                dealer=self.dealer,
                dealt=self.dealt,
                bids=bids,
                tricks=tuple(self.tricks),
                tricks_won=tuple(self.tricks_won),
                scores=scores,
                totals=tuple(self.totals_list),
            ),
        )
        if self.deal_number == DEALS_PER_MATCH:
            self.phase = FINISHED
            self.turn = None
        else:
            self._start_deal(self.deal_number + 1)


def _explain(card: int, reason: str, trick: Sequence[int], hand: int) -> str:
    """A sentence for a player: what the rule demands here, naming the cards involved."""
    name = card_label(card)
    if not trick:
        return f"{name} cannot lead the first trick: lead a non-spade unless you hold only spades"
    led = trick[0] // 13
    sym = SUIT_SYMBOLS[SUITS[led]]
    if reason == MUST_FOLLOW_SUIT:
        return f"{name} is not allowed: you hold {sym} and must follow the led suit"
    if reason == MUST_BEAT:
        best = max(c for c in trick if c // 13 == led)
        return f"{name} is not allowed: you hold a {sym} higher than {card_label(best)} and must beat it"
    if reason == MUST_TRUMP:
        return f"{name} is not allowed: you have no {sym} and must trump with a spade"
    if reason == MUST_OVERTRUMP:
        best = max(c for c in trick if c < 13)
        return f"{name} is not allowed: you have no {sym} and must over-trump {card_label(best)} with a higher spade"
    return f"{name} is not allowed now ({reason})"


def new_match(seed: str) -> MatchState:
    """The state before the first bid of a match dealt from ``seed``."""
    s = MatchState.__new__(MatchState)
    s.seed = check_seed(seed)
    s.seed_commitment = seed_commitment(seed)
    s.first_dealer = first_dealer(seed)
    s.completed = ()
    s.totals_list = [0, 0, 0, 0]
    s._actions = []
    s._start_deal(1)
    return s


def apply(state: MatchState, action: Action) -> MatchState:
    """The state after ``action``; raises :class:`IllegalAction` (or ``EngineError``) and keeps ``state``."""
    new = state.copy()
    new._apply(action)
    return new


def replay(seed: str, actions: Iterable[Action | Mapping[str, Any]]) -> MatchState:
    """Rebuild the state from a seed and a log; stops at the first invalid action with :class:`ReplayError`."""
    state = new_match(seed)
    for index, action in enumerate(actions):
        try:
            state._apply(action if isinstance(action, (Bid, Play)) else action_from_json(action))
        except EngineError as err:
            raise ReplayError(index, err) from err
    return state
