"""What happens in table talk, as events for ``games.platform.outbox`` (sent once the chat message is committed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.platform.outbox import Event


@dataclass(frozen=True)
class ChatSent(Event):
    """A chat message was stored: the match's pages of the people who read its chat are sent it (``message``:
    ``reads.chat_json``), except those of people who muted ``author_id``."""

    match_id: int
    author_id: int
    message: dict[str, Any] = field(repr=False)
