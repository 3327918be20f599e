"""What table talk does once a chat message has committed: tell the match's sockets."""

from __future__ import annotations

from games.platform import outbox
from games.platform.groups import match_group

from .events import ChatSent


def chat_sent(event: ChatSent) -> None:
    """A committed chat message goes to the match's sockets; each passes it on only to a person who reads the
    chat and has not muted its author (``consumers.TableTalkSocket.match_chat``)."""
    outbox.group_send_now(match_group(event.match_id), {
        "type": "match.chat", "match_id": event.match_id, "user_id": event.author_id, "message": event.message})
