"""What watching does once a match's write has committed: tell its watchers' sockets that it moved on (ids and
``seq`` only; each socket builds its own delayed spectator view)."""

from __future__ import annotations

from games.matches.events import MatchAdvanced, SeatsChanged
from games.platform import outbox
from games.platform.groups import watch_group


def match_moved(event: MatchAdvanced | SeatsChanged) -> None:
    outbox.group_send_now(watch_group(event.match_id), {"type": "watch.updated", "match_id": event.match_id,
                                                        "seq": event.seq})
