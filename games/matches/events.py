"""What happens to matches, as events for ``games.platform.outbox``: ids, numbers and what every seat may see
(the bids and cards played), never a hand. Each concept reacts in its own ``reactions`` module.

A write's events carry a ``MatchSnapshot``: the match as the write left it (the row's fields, the seats, the
engine state), frozen. Each reaction derives what it needs from it in its own concept (whose turn it is, who
is told, which rows are redrawn), so a new listener needs no new field here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import engine
from games.platform.outbox import Event

if TYPE_CHECKING:
    from .models import Match, Seat


@dataclass(frozen=True)
class SeatSnapshot:
    """A seat as the write left it (the ``Seat`` row's fields a listener may read)."""

    index: int
    kind: str
    user_id: int | None
    name: str
    bot: str
    autopilot: bool
    bot_account: bool
    bank_seconds: int

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.autopilot

    @classmethod
    def of(cls, seat: Seat) -> SeatSnapshot:
        return cls(index=seat.index, kind=seat.kind, user_id=seat.user_id, name=seat.name, bot=seat.bot,
                   autopilot=seat.autopilot, bot_account=seat.bot_account, bank_seconds=seat.bank_seconds)


@dataclass(frozen=True)
class MatchSnapshot:
    """A match as a write left it: the row's fields, its four seats, and its engine state (``state_key`` names
    the state in this process's cache). Taken inside the write, read after the commit."""

    match_id: int
    state_key: str
    status: str
    seq: int
    turn: int | None
    seed_commitment: str
    created_at: datetime
    finished_at: datetime | None
    move_seconds: int | None
    deadline: datetime | None
    remind_at: datetime | None
    rated: bool
    offline: bool
    seats: tuple[SeatSnapshot, ...]
    state: engine.MatchState = field(repr=False)

    @classmethod
    def of(cls, match: Match, seats: list[Seat], state: engine.MatchState) -> MatchSnapshot:
        return cls(match_id=match.pk, state_key=match.bot_seed, status=match.status, seq=match.seq, turn=match.turn,
                   seed_commitment=match.seed_commitment, created_at=match.created_at,
                   finished_at=match.finished_at, move_seconds=match.move_seconds, deadline=match.deadline,
                   remind_at=match.remind_at, rated=match.rated, offline=match.offline,
                   seats=tuple(SeatSnapshot.of(s) for s in seats), state=state)

    @property
    def pk(self) -> int:
        """The match's id, under the row's name (the presenters read a snapshot as they read a row)."""
        return self.match_id

    @property
    def finished(self) -> bool:
        return self.state.is_finished

    @property
    def seat_to_act(self) -> SeatSnapshot | None:
        """The seat whose turn it is in the state, if the match goes on."""
        state = self.state
        return self.seats[state.turn] if state.turn is not None and not state.is_finished else None


@dataclass(frozen=True)
class MatchAdvanced(Event):
    """A match began (``since == seq``) or its log grew from ``since`` actions to ``seq`` (``match``: as the
    write left it)."""

    match: MatchSnapshot
    since: int

    @property
    def match_id(self) -> int:
        return self.match.match_id

    @property
    def seq(self) -> int:
        return self.match.state.version

    @property
    def state(self) -> engine.MatchState:
        return self.match.state

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The actions from ``since`` to ``seq`` as the engine writes them (public to every seat)."""
        return [action.to_json() for action in self.state.actions[self.since:self.seq]]


@dataclass(frozen=True)
class SeatsChanged(Event):
    """Same ``seq``, other views: a seat went to a bot, the match was aborted or rated (``match``: as the write
    left it). ``bot_to_act``: the write made a bot's move due (a seat handed over on its turn)."""

    match: MatchSnapshot
    bot_to_act: bool

    @property
    def match_id(self) -> int:
        return self.match.match_id

    @property
    def seq(self) -> int:
        return self.match.seq


@dataclass(frozen=True)
class TurnAutoplayed(Event):
    """A person's turn expired and the autopilot played it (``handed_over``: the seat now stays the bot's, after
    missed turns in a row); ``seq`` is the turn's."""

    user_id: int
    match_id: int
    seq: int
    handed_over: bool


@dataclass(frozen=True)
class ReminderDue(Event):
    """A quarter of a person's turn is left (the turn at ``seq``)."""

    user_id: int
    match_id: int
    seq: int

