"""Correspondence rules: a deadline on every person's turn, a reminder at a quarter of the time left, the
autopilot on expiry, and the seat handed to the bot after too many missed turns in a row.

Deadlines live on the match row (``deadline``, ``remind_at``), set inside the same transaction as the
action that started the turn, so nothing is lost across restarts: beat's sweep finds whatever is due.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

import engine

from . import reads
from .models import Action, Match, Seat

# The level that plays an expired turn, a resigned seat and a seat handed over.
AUTOPILOT_BOT = "normal"


def handover_after() -> int:
    """Expired turns in a row after which the bot takes the seat for the rest of the match."""
    return int(getattr(settings, "AUTOPILOT_HANDOVER_AFTER", 3))


def set_deadline(match: Match, state: engine.MatchState) -> list[str]:
    """Set the current turn's deadline on the locked ``match`` (not saved); returns the fields changed.

    Only a person's own turn is timed: bots and autopilot seats move through the bot task.
    """
    match.deadline = None
    match.remind_at = None
    if match.move_seconds and not state.is_finished and state.turn is not None:
        seat = reads.seats_of(match)[state.turn]
        if not seat.played_by_bot:
            match.deadline = timezone.now() + timedelta(seconds=match.move_seconds)
            match.remind_at = match.deadline - timedelta(seconds=match.move_seconds / 4)
    return ["deadline", "remind_at"]


def after_action(match: Match, state: engine.MatchState, made_by: str, seat_index: int) -> list[str]:
    """A person's own move clears their missed-turn streak; the next turn gets its deadline."""
    if made_by == Action.MadeBy.PLAYER:
        Seat.objects.filter(match=match, index=seat_index).exclude(missed_in_row=0).update(missed_in_row=0)
    return set_deadline(match, state)
