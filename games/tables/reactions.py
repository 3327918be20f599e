"""What the tables concept does once a write has committed: tell the lobby's listeners, and the people of a
match how its rematch stands."""

from __future__ import annotations

from games.matches.models import Seat
from games.platform import outbox
from games.platform.groups import LOBBY_GROUP, user_group, user_message

from . import reads
from .events import RematchChanged, TableChanged


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


def rematch_changed(event: RematchChanged) -> None:
    """Every tab of each person of the old match hears how its rematch stands (asked: the others answer on the
    end dialog; started: every page goes to the new match; called off: by whom or why)."""
    payload = reads.rematch_json(event.match_id, reads.rematch_of(event.match_id), reason=event.reason, by=event.by)
    seats = list(Seat.objects.filter(match_id=event.match_id))
    for user_id in reads.rematch_people_ids(seats):
        outbox.group_send_now(user_group(user_id), user_message(payload))
