"""What happens to offline matches, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.platform.outbox import Event


@dataclass(frozen=True)
class OfflineMatchStored(Event):
    """A match played offline was verified and stored, finished: it is reviewed as a match finished here is."""

    match_id: int
    user_id: int
