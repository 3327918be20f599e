"""What the notices concept does once a write has committed: record the notice a person is due, show it in
their open tabs, and email it unless they are on the match page or want no email."""

from __future__ import annotations

from games import outbox
from games.groups import user_group, user_message
from games.matches.events import MatchAdvanced, NoticeDue

from . import commands, reads, tasks
from .models import Notice


def deliver(user_id: int, match_id: int, seq: int, kind: str) -> None:
    """Record one notice and send it, once: a notice already recorded is not sent again."""
    record = commands.record(user_id, match_id, seq, kind)
    if record is None:
        return
    notice, payload = record
    outbox.group_send_now(user_group(user_id), user_message(payload))
    if reads.should_email(user_id, match_id):
        outbox.task_now(tasks.send_notice_email, notice.pk)


def your_turn(event: MatchAdvanced) -> None:
    """A person's timed turn began: tell them (a bot account is told by its own event stream instead)."""
    if event.person_to_act is not None and event.person_to_act != event.bot_account_to_act:
        deliver(event.person_to_act, event.match_id, event.seq, Notice.Kind.YOUR_TURN)


def notice_due(event: NoticeDue) -> None:
    deliver(event.user_id, event.match_id, event.seq, event.kind)
