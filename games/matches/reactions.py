"""What the matches concept does once a write has committed: tell the match's sockets and its people's
tabs, move the bot whose turn it is, set the turn's timers, and hand a deactivated person's seats to bots."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from games import outbox
from games.accounts.events import AccountDeactivated
from games.groups import match_group, user_group, user_message

from . import commands, store, tasks
from .events import ChatSent, MatchAdvanced, SeatsChanged

# Timers for short (live) turns only: beat's sweep handles the rest, and a broker may redeliver a
# far-future ETA task many times (harmless, as the tasks check seq and the deadline, but wasteful).
TIMER_MAX_SECONDS = 3600


def _send_summaries(summaries: tuple[tuple[int, dict[str, Any]], ...]) -> None:
    """To every open tab of each person at the match: its new row of "My matches" (whose turn, time left)."""
    for user_id, summary in summaries:
        outbox.group_send_now(user_group(user_id), user_message({"type": "match", "match": summary}))


def match_advanced(event: MatchAdvanced) -> None:
    """The state is remembered (the next read starts there); the sockets get the new actions (each builds
    its seat's view from them, see ``consumers``); the bot moves; a person's timed turn gets its timers."""
    store.remember(event.match_id, event.state_key, event.state)
    outbox.group_send_now(match_group(event.match_id), {
        "type": "match.updated", "match_id": event.match_id, "seq": event.seq, "since": event.since,
        "actions": event.actions, "deadline": event.deadline.isoformat() if event.deadline else None})
    _send_summaries(event.summaries)
    if event.bot_to_act:
        tasks.enqueue_bot_move(event.match_id, event.seq, event.bot_level)
    if (event.person_to_act is not None and event.deadline is not None and not settings.CELERY_TASK_ALWAYS_EAGER
            and (event.deadline - timezone.now()).total_seconds() <= TIMER_MAX_SECONDS):
        outbox.task_now(tasks.expire_turn, event.match_id, event.seq, eta=event.deadline)
        if event.remind_at is not None:
            outbox.task_now(tasks.remind_turn, event.match_id, event.seq, eta=event.remind_at)


def seats_changed(event: SeatsChanged) -> None:
    """The sockets read the match again; the bot moves if the seat handed over is to act."""
    outbox.group_send_now(match_group(event.match_id),
                          {"type": "match.changed", "match_id": event.match_id, "seq": event.seq})
    _send_summaries(event.summaries)
    if event.bot_to_act:
        tasks.enqueue_bot_move(event.match_id, event.seq)


def chat_sent(event: ChatSent) -> None:
    """A committed chat message goes to the match's sockets; each passes it on only to a person who reads the
    chat and has not muted its author (``consumers.MatchConsumer.match_chat``)."""
    outbox.group_send_now(match_group(event.match_id), {
        "type": "match.chat", "match_id": event.match_id, "user_id": event.author_id, "message": event.message})


def account_deactivated(event: AccountDeactivated) -> None:
    """Bots take the person's seats in running matches (beat's sweep catches any this misses)."""
    commands.hand_seats_to_bots(event.user_id)
