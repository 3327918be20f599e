"""Correspondence rules: a deadline on every person's turn, a reminder at a quarter of the time left, the
autopilot on expiry, and the seat handed to the bot after too many missed turns in a row.

Deadlines live on the match row (``deadline``, ``remind_at``), set by the write that started the turn
(``games.matches.write``), so nothing is lost across restarts: beat's sweep finds whatever is due. This
module only computes; it writes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

import engine

from .models import Seat


def handover_after() -> int:
    """Expired turns in a row after which the bot takes the seat for the rest of the match."""
    return int(getattr(settings, "AUTOPILOT_HANDOVER_AFTER", 3))


def turn_deadline(move_seconds: int | None, state: engine.MatchState, seats: list[Seat],
                  now: datetime | None = None) -> tuple[datetime | None, datetime | None]:
    """The deadline and reminder time of the turn ``state`` is at: only a person's own turn is timed (bots
    and autopilot seats move through the bot task); none in an untimed or finished match."""
    if not move_seconds or state.is_finished or state.turn is None or seats[state.turn].played_by_bot:
        return None, None
    deadline = (now or timezone.now()) + timedelta(seconds=move_seconds)
    return deadline, deadline - timedelta(seconds=move_seconds / 4)
