"""What the matches concept does once a write has committed: tell the match's sockets and its people's
tabs, set the turn's timers, and hand a deactivated person's seats to bots."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from games.accounts.events import AccountDeactivated
from games.platform import outbox
from games.platform.groups import match_group, user_group, user_message

from . import commands, presenters, store, tasks
from .events import MatchAdvanced, MatchSnapshot, SeatsChanged

# Timers for short (live) turns only: beat's sweep handles the rest, and a broker may redeliver a
# far-future ETA task many times (harmless, as the tasks check seq and the deadline, but wasteful).
TIMER_MAX_SECONDS = 3600


def _send_summaries(match: MatchSnapshot) -> None:
    """To every open tab of each person at the match: its new row of "My matches" (whose turn, time left)."""
    for seat in match.seats:
        if seat.user_id is not None:
            summary = presenters.snapshot_summary(match, seat.index)
            outbox.group_send_now(user_group(seat.user_id), user_message({"type": "match", "match": summary}))


def match_advanced(event: MatchAdvanced) -> None:
    """The state is remembered (the next read starts there); the sockets get the new actions (each builds
    its seat's view from them, see ``consumers``); a person's timed turn gets its timers. (The bot whose turn
    it is moves by ``botturns.reactions``, registered next.)"""
    match = event.match
    store.remember(match.match_id, match.state_key, match.state)
    outbox.group_send_now(match_group(match.match_id), {
        "type": "match.updated", "match_id": match.match_id, "seq": event.seq, "since": event.since,
        "actions": event.actions, "deadline": match.deadline.isoformat() if match.deadline else None})
    _send_summaries(match)
    seat = match.seat_to_act
    if (seat is not None and seat.user_id is not None and match.deadline is not None
            and not settings.CELERY_TASK_ALWAYS_EAGER
            and (match.deadline - timezone.now()).total_seconds() <= TIMER_MAX_SECONDS):
        outbox.task_now(tasks.expire_turn, match.match_id, event.seq, eta=match.deadline)
        if match.remind_at is not None:
            outbox.task_now(tasks.remind_turn, match.match_id, event.seq, eta=match.remind_at)


def seats_changed(event: SeatsChanged) -> None:
    """The sockets read the match again (the bot moves by ``botturns.reactions`` if the seat handed over is to
    act)."""
    outbox.group_send_now(match_group(event.match_id),
                          {"type": "match.changed", "match_id": event.match_id, "seq": event.seq})
    _send_summaries(event.match)


def account_deactivated(event: AccountDeactivated) -> None:
    """Bots take the person's seats in running matches (beat's sweep catches any this misses)."""
    commands.hand_seats_to_bots(event.user_id)
