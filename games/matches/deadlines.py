"""Correspondence rules: a deadline on every person's turn, a reminder at a quarter of the time left, the
autopilot on expiry, and the seat handed to the bot after too many missed turns in a row.

Deadlines live on the match row (``deadline``, ``remind_at``), set by the write that started the turn
(``games.matches.write``), so nothing is lost across restarts: beat's sweep finds whatever is due. This
module only computes; it writes nothing.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

import engine

from .models import Seat


def handover_after() -> int:
    """Expired turns in a row after which the bot takes the seat for the rest of the match."""
    return settings.AUTOPILOT_HANDOVER_AFTER


def bot_move_seconds() -> int:
    """A bot account's time per move, wherever it plays (a table's shorter time wins)."""
    return settings.BOT_MOVE_SECONDS


def is_timed(move_seconds: int | None, seats: list[Seat]) -> bool:
    """Whether a match's turns have deadlines: a timed table's, or any with a bot account at it."""
    return bool(move_seconds) or any(seat.bot_account for seat in seats)


#: A match this fast a move or faster is played live: each seat also has a time bank per deal, and no reminder.
LIVE_MAX_MOVE_SECONDS = 60


def is_live(move_seconds: int | None) -> bool:
    return bool(move_seconds) and (move_seconds or 0) <= LIVE_MAX_MOVE_SECONDS


def deal_bank(move_seconds: int | None) -> int:
    """Each seat's time bank at the start of every deal of a live match (0 otherwise)."""
    return settings.LIVE_BANK_SECONDS if is_live(move_seconds) else 0


def bank_after_move(move_seconds: int, deadline: datetime, bank: int, now: datetime | None = None) -> int:
    """The bank left after a move made ``now`` in a turn that ended at ``deadline`` (the clock plus the bank
    then): whatever the move took beyond the clock, rounded up to whole seconds, comes off the bank."""
    started = deadline - timedelta(seconds=move_seconds + bank)
    over = ((now or timezone.now()) - started).total_seconds() - move_seconds
    return bank if over <= 0 else max(0, bank - math.ceil(over))


def turn_deadline(move_seconds: int | None, state: engine.MatchState, seats: list[Seat],
                  now: datetime | None = None) -> tuple[datetime | None, datetime | None]:
    """The deadline and reminder time of the turn ``state`` is at: only a person's own turn is timed (bots
    and autopilot seats move through the bot task); none in an untimed or finished match, except a bot
    account's turn, timed everywhere (``bot_move_seconds``). A live turn lasts the clock plus the seat's bank,
    and has no reminder."""
    if state.is_finished or state.turn is None or seats[state.turn].played_by_bot:
        return None, None
    if seats[state.turn].bot_account:  # a program: the table's time, at most BOT_MOVE_SECONDS (untimed too)
        move_seconds = min(move_seconds or bot_move_seconds(), bot_move_seconds())
    if not move_seconds:
        return None, None
    if is_live(move_seconds):
        return (now or timezone.now()) + timedelta(seconds=move_seconds + seats[state.turn].bank_seconds), None
    deadline = (now or timezone.now()) + timedelta(seconds=move_seconds)
    return deadline, deadline - timedelta(seconds=move_seconds / 4)
