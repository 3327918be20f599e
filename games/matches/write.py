"""The one way to change a match: ``match_write``.

Every write to a match (a person's action, bot moves, an expired turn, a reminder, resigning, a seat handed
to a bot, aborting, rating) runs inside ``with match_write(match_id, ...) as w:``, which

1. locks the match row and reads its seats in the same statement (``store.load(lock=True)``),
2. checks the expected ``seq`` and the status (``check_seq``, ``require``: the only places they are checked),
3. lets the body apply actions through the engine (``apply``), change the row (``set``) and seats
   (``save_seat``) in memory, and queue events (``seats_changed``, ``emit``),
4. on leaving, writes it all at once (the new actions and the row's changed fields in one statement, see
   ``store.save``; the changed seats), then hands the events to ``games.platform.outbox``, which lets them out only
   once the transaction commits: a ``MatchAdvanced`` for new actions first, then ``SeatsChanged``, then the
   others in order. The first two carry one ``MatchSnapshot`` of the match as the write left it, from which
   each concept's reactions derive what they need.

An exception inside the body writes and emits nothing (the transaction rolls back).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import engine
from games.platform import outbox
from games.platform.errors import GameError, MatchNotFound, NotFinished, StaleSeq

from . import deadlines, store
from .events import MatchAdvanced, MatchSnapshot, SeatsChanged
from .models import Action, Match, Seat


class MatchWrite:
    """A locked match being changed; see the module's docstring. ``state`` is its current engine state."""

    def __init__(self, match: Match, *, started: engine.MatchState | None = None) -> None:
        """``started``: the first state of a match created in this transaction (its start is announced)."""
        self.match = match
        self.seats = store.seats_of(match)
        self._state: engine.MatchState | None = started
        self._since: int | None = started.version if started is not None else None
        self._log: list[Action] = []
        self._fields: set[str] = set()
        self._seat_fields: dict[int, set[str]] = {}
        self._seats_changed: bool | None = None  # None: no SeatsChanged; else whether a bot is to act
        self._events: list[outbox.Event] = []

    # --- reading --------------------------------------------------------------------------------------

    @property
    def state(self) -> engine.MatchState:
        if self._state is None:
            self._state = store.state_of(self.match)
        return self._state

    def seat_of(self, user: Any) -> Seat | None:
        """The person's own seat at this match, or None."""
        if not user.is_authenticated:
            return None
        return next((s for s in self.seats if s.kind == Seat.Kind.HUMAN and s.user_id == user.pk), None)

    # --- the checks -----------------------------------------------------------------------------------

    def check_seq(self, expected: int) -> None:
        """The client's (or task's) ``seq`` must be the match's: StaleSeq (409) otherwise."""
        if self.match.seq != expected:
            raise StaleSeq(self.match.seq, expected)

    def require(self, *statuses: str, unfinished: str | None = None) -> None:
        """The match must be in one of ``statuses``; each other status has its own error (``unfinished``: the
        detail of the 409 for a running match, where the caller has a better one)."""
        status = self.match.status
        if status in statuses:
            return
        if status == Match.Status.ABORTED:
            raise GameError("aborted", "The match was aborted.")
        if status == Match.Status.FINISHED:
            raise GameError("match_over", "The match is over.")
        raise NotFinished(unfinished) if unfinished else NotFinished()

    # --- changing -------------------------------------------------------------------------------------

    def apply(self, action: Any, made_by: str, user: User | None = None) -> engine.MatchState:
        """Apply ``action`` (EngineError if illegal) and log it; the row's copies of the state follow."""
        before = self.state
        after = engine.apply(before, action)
        data = action.to_json()
        if deadlines.is_live(self.match.move_seconds):
            self._spend_bank(self.seats[data["seat"]], new_deal=after.deal_number != before.deal_number)
        if self._since is None:
            self._since = before.version
        self._log.append(Action(match=self.match, seq=before.version, seat=data["seat"], bid=data.get("bid"),
                                card=data.get("card", ""), made_by=made_by, user=user))
        self._state = after
        seat = self.seats[data["seat"]]
        if made_by == Action.MadeBy.PLAYER and seat.missed_in_row:  # a person's own move ends the streak
            seat.missed_in_row = 0
            self.save_seat(seat, "missed_in_row")
        self.set(seq=after.version, turn=after.turn)
        if deadlines.is_timed(self.match.move_seconds, self.seats):
            self.set_turn_deadline()
        if after.is_finished:
            self.set(status=Match.Status.FINISHED, finished_at=timezone.now())
        return after

    def _spend_bank(self, mover: Seat, *, new_deal: bool) -> None:
        """Live pace: the time a move took beyond the clock comes off the mover's bank; a new deal refills
        every seat's bank."""
        if self.match.deadline is not None and self.match.move_seconds and not mover.played_by_bot:
            left = deadlines.bank_after_move(self.match.move_seconds, self.match.deadline, mover.bank_seconds)
            if left != mover.bank_seconds:
                mover.bank_seconds = left
                self.save_seat(mover, "bank_seconds")
        if new_deal:
            full = deadlines.deal_bank(self.match.move_seconds)
            for seat in self.seats:
                if seat.bank_seconds != full:
                    seat.bank_seconds = full
                    self.save_seat(seat, "bank_seconds")

    def set_turn_deadline(self) -> None:
        """The current turn's deadline and reminder (none unless a person is to act in a timed match)."""
        deadline, remind_at = deadlines.turn_deadline(self.match.move_seconds, self.state, self.seats)
        self.set(deadline=deadline, remind_at=remind_at)

    def set(self, **fields: Any) -> None:
        """Change fields of the match row (written when the write ends)."""
        for name, value in fields.items():
            setattr(self.match, name, value)
        self._fields.update(fields)

    def save_seat(self, seat: Seat, *fields: str) -> None:
        """``seat``'s ``fields`` were changed: write them when the write ends."""
        self._seat_fields.setdefault(seat.index, set()).update(fields)

    def hand_to_bot(self, seat: Seat, level: str) -> None:
        """Put a person's seat on autopilot: from now on the bot of ``level`` plays it."""
        seat.autopilot = True
        seat.bot = level
        self.save_seat(seat, "autopilot", "bot")

    def seats_changed(self, *, bot_to_act: bool = False) -> None:
        """The views changed at the same ``seq`` (a seat handed over, aborted, rated): sockets resend them,
        and the bot moves if ``bot_to_act``."""
        self._seats_changed = bool(self._seats_changed) or bot_to_act

    def emit(self, event: outbox.Event) -> None:
        """Queue another event, to leave after this write's own."""
        self._events.append(event)

    # --- the end --------------------------------------------------------------------------------------

    def flush(self) -> None:
        """Write what changed and queue the events (``match_write`` calls this when its body ends)."""
        match = self.match
        store.save(match, self._fields, self._log)
        for index, fields in sorted(self._seat_fields.items()):
            self.seats[index].save(update_fields=sorted(fields))
        if self._since is not None or self._seats_changed is not None:
            snapshot = MatchSnapshot.of(match, self.seats, self.state)
            if self._since is not None:
                outbox.emit(MatchAdvanced(match=snapshot, since=self._since))
            if self._seats_changed is not None:
                outbox.emit(SeatsChanged(match=snapshot, bot_to_act=self._seats_changed))
        for event in self._events:
            outbox.emit(event)
        self._log, self._fields, self._seat_fields, self._events = [], set(), {}, []
        self._since, self._seats_changed = None, None


@contextmanager
def match_write(match_id: int, *, expect_seq: int | None = None,
                require: tuple[str, ...] | None = None) -> Iterator[MatchWrite]:
    """Lock match ``match_id`` (MatchNotFound if there is none), check ``expect_seq`` and ``require`` (its
    status), yield the write, and store it when the body ends. Writes that must check other things first
    (a stranger learns nothing from the order of errors) call ``check_seq``/``require`` themselves."""
    with transaction.atomic():
        match = store.load(match_id, lock=True)
        if match is None:
            raise MatchNotFound()
        write = MatchWrite(match)
        if require is not None:
            write.require(*require)
        if expect_seq is not None:
            write.check_seq(expect_seq)
        yield write
        write.flush()


ACTIVE = (Match.Status.ACTIVE,)
FINISHED = (Match.Status.FINISHED,)
