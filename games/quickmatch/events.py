"""What happens to seeks, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.platform.outbox import Event


@dataclass(frozen=True)
class SeekOpened(Event):
    """A person pressed *Play online*: pair now, and again once the wait for people is over."""

    seek_id: int
    bots_after: float


@dataclass(frozen=True)
class HereCounted(Event):
    """Who is here changed: every home and lobby page hears the new counts."""

    playing: int
    waiting: int


@dataclass(frozen=True)
class SeeksMatched(Event):
    """These people were seated together at ``match_id``: each of their tabs hears it (``/ws/me/``)."""

    match_id: int
    user_ids: tuple[int, ...]
