"""What the tables concept does once a write has committed: tell the lobby's listeners."""

from __future__ import annotations

from games import outbox
from games.groups import LOBBY_GROUP, user_group

from . import reads
from .events import TableChanged


def table_changed(event: TableChanged) -> None:
    """Everyone hears of a public table; of a private one only its members (and ``extra_user_ids``), so its
    existence is not broadcast."""
    audience = reads.audience(event.table_id)
    if audience is None:
        return
    message = {"type": "lobby.updated", "table_id": event.table_id}
    if audience == "public":
        outbox.group_send_now(LOBBY_GROUP, message)
        return
    for user_id in sorted(set(audience) | set(event.extra_user_ids)):
        outbox.group_send_now(user_group(user_id), message)
