"""What one seat may know: the only thing the site sends and the only thing a bot reads.

A view is built from the state by copying the public parts and the seat's own hand, so no code
path can leak another hand or the seed: they are simply not in the object.

>>> from engine.match import new_match
>>> v = player_view(new_match("example-seed"), 0)
>>> v.to_json()["hand"][:4], v.to_json()["legal"][:3], v.to_json()["seed"]
(['QS', 'TS', '6S', '4S'], [1, 2, 3], None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import card_str, sorted_for_display
from .match import BIDDING, FINISHED, PLAYING, DealRecord, MatchState, Phase, Trick
from .rules import locked_reasons


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge (``seat is None`` for a spectator). Card sets are masks, scores tenths."""

    seat: int | None
    version: int
    phase: Phase
    deal_number: int
    dealer: int
    turn: int | None
    hand: int
    hand_counts: tuple[int, ...]
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    trick_leader: int
    trick: tuple[int, ...]
    tricks: tuple[Trick, ...]
    last_trick: Trick | None
    deals: tuple[DealRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    seed_commitment: str
    seed: str | None
    legal_bids: tuple[int, ...] = ()
    legal_cards: int = 0
    locked: dict[int, str] = field(default_factory=dict)

    @property
    def first_trick(self) -> bool:
        """The deal's first trick is in progress, or still to come (true while bidding)."""
        return self.phase != FINISHED and not self.tricks

    @property
    def trick_number(self) -> int:
        return min(len(self.tricks) + 1, 13)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    @property
    def played(self) -> int:
        """Mask of every card played so far in this deal (public knowledge)."""
        m = 0
        for t in self.tricks:
            for c in t.cards:
                m |= 1 << c
        for c in self.trick:
            m |= 1 << c
        return m

    def trick_plays(self) -> list[tuple[int, int]]:
        return [((self.trick_leader + i) % 4, c) for i, c in enumerate(self.trick)]

    def to_json(self) -> dict[str, Any]:
        """The JSON the site sends to this seat (see ``docs/engine-api.md``)."""
        if self.phase == BIDDING:
            legal: list[Any] = list(self.legal_bids)
        else:
            legal = sorted_for_display(self.legal_cards)
        return {
            "seat": self.seat,
            "version": self.version,
            "phase": self.phase,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "first_trick": self.first_trick,
            "trick_number": self.trick_number,
            "hand": sorted_for_display(self.hand),
            "hand_counts": list(self.hand_counts),
            "legal": legal,
            "locked": {card_str(c): r for c, r in sorted(self.locked.items())},
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "trick": {
                "leader": self.trick_leader,
                "plays": [{"seat": s, "card": card_str(c)} for s, c in self.trick_plays()],
            },
            "last_trick": self.last_trick.to_json() if self.last_trick else None,
            "tricks": [t.to_json() for t in self.tricks],
            "deals": [d.summary_json() for d in self.deals],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "seed_commitment": self.seed_commitment,
            "seed": self.seed,
        }


def player_view(state: MatchState, seat: int | None) -> PlayerView:
    """The view of ``seat`` (0..3), or of a spectator when ``seat`` is None."""
    if seat is not None and (isinstance(seat, bool) or seat not in (0, 1, 2, 3)):
        raise ValueError(f"a seat is 0..3 or None, not {seat!r}")
    hand = state.hands[seat] if seat is not None else 0
    to_move = seat is not None and state.turn == seat
    legal_bids: tuple[int, ...] = ()
    legal_cards = 0
    locked: dict[int, str] = {}
    if to_move and state.phase == BIDDING:
        legal_bids = tuple(range(1, 14))
    elif to_move and state.phase == PLAYING:
        legal_cards = state.legal_cards()
        locked = locked_reasons(hand, state.trick, not state.tricks)
    finished = state.phase == FINISHED
    return PlayerView(
        seat=seat,
        version=state.version,
        phase=state.phase,
        deal_number=state.deal_number,
        dealer=state.dealer,
        turn=state.turn,
        hand=hand,
        hand_counts=tuple(h.bit_count() for h in state.hands),
        bids=tuple(state.bids),
        tricks_won=tuple(state.tricks_won),
        trick_leader=state.trick_leader,
        trick=tuple(state.trick),
        tricks=tuple(state.tricks),
        last_trick=state.last_trick(),
        deals=state.completed,
        totals=tuple(state.totals_list),
        winners=state.winners,
        seed_commitment=state.seed_commitment,
        seed=state.seed if finished else None,
        legal_bids=legal_bids,
        legal_cards=legal_cards,
        locked=locked,
    )


def spectator_view(state: MatchState) -> PlayerView:
    return player_view(state, None)


__all__ = ["PlayerView", "player_view", "spectator_view"]
