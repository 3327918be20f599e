"""What happens to notices, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.platform.outbox import Event


@dataclass(frozen=True)
class NoticeRecorded(Event):
    """A notice was recorded (once per user, match, seq and kind): concepts above notices act on it after the
    commit (``games.push`` pushes it to the person's browsers)."""

    notice_id: int
    user_id: int
    match_id: int | None
    seq: int
    kind: str
    table_id: int | None = None


@dataclass(frozen=True)
class NoticeDue(Event):
    """Tell a person about a match (``kind``: a ``Notice.Kind``): once, in their tabs and by email. For concepts
    above notices (friends, for a ``challenge``: then ``table_id`` names the table and ``match_id`` is None).
    Those below emit their own events (a turn autoplayed, a reminder due, a rematch asked), which
    ``games.notices.reactions`` turns into notices."""

    user_id: int
    match_id: int | None
    seq: int
    kind: str
    table_id: int | None = None
