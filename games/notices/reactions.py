"""What the notices concept does once a write has committed: record the notice a person is due, show it in
their open tabs, and email it unless they are on the match page or want no email. Each concept below says what
happened in its own events (a turn began or was autoplayed, a reminder is due, a rematch was asked); which of
those a person is told of, and as which kind, is decided here."""

from __future__ import annotations

from games.matches.events import MatchAdvanced, ReminderDue, TurnAutoplayed
from games.platform import outbox
from games.platform.groups import user_group, user_message
from games.tables.events import RematchAsked

from . import commands, reads, tasks
from .events import NoticeDue
from .models import Notice


def deliver(user_id: int, match_id: int | None, seq: int, kind: str, table_id: int | None = None) -> None:
    """Record one notice and send it, once: a notice already recorded is not sent again."""
    record = commands.record(user_id, match_id, seq, kind, table_id)
    if record is None:
        return
    notice, payload = record
    outbox.group_send_now(user_group(user_id), user_message(payload))
    if reads.should_email(user_id, match_id):
        outbox.task_now(tasks.send_notice_email, notice.pk)


def your_turn(event: MatchAdvanced) -> None:
    """A person's timed turn began: tell them (a bot account is told by its own event stream instead)."""
    match, seat = event.match, event.match.seat_to_act
    if (seat is not None and seat.user_id is not None and match.deadline is not None
            and not (seat.bot_account and not seat.played_by_bot)):
        deliver(seat.user_id, event.match_id, event.seq, Notice.Kind.YOUR_TURN)


def turn_autoplayed(event: TurnAutoplayed) -> None:
    kind = Notice.Kind.HANDED_OVER if event.handed_over else Notice.Kind.AUTOPILOT
    deliver(event.user_id, event.match_id, event.seq, kind)


def reminder_due(event: ReminderDue) -> None:
    deliver(event.user_id, event.match_id, event.seq, Notice.Kind.REMINDER)


def rematch_asked(event: RematchAsked) -> None:
    deliver(event.user_id, event.match_id, event.seq, Notice.Kind.REMATCH)


def notice_due(event: NoticeDue) -> None:
    deliver(event.user_id, event.match_id, event.seq, event.kind, event.table_id)
