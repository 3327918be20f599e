"""What happens in arenas, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.platform.outbox import Event


@dataclass(frozen=True)
class ArenaJoined(Event):
    """Someone joined (or came back to) a running arena: pair now, and again once the wait for people is over."""

    tournament_id: int
    bots_after: float


@dataclass(frozen=True)
class ArenaFreed(Event):
    """An arena match was counted: its people are free again (pair now, and after the wait)."""

    tournament_id: int
    bots_after: float


@dataclass(frozen=True)
class ArenaBatchFull(Event):
    """A pairing run took a whole batch of free people and seated some: more may be free beyond it (a crowd
    joining at once), so the next run goes now rather than at the next join, match end or sweep."""

    tournament_id: int


@dataclass(frozen=True)
class ArenaSeated(Event):
    """These people were seated together at ``match_id``: each of their tabs hears it (``/ws/me/``).
    ``seatable_at``: when the rules let them sit (``commands.seatable_at``), for the pairing's delay."""

    tournament_id: int
    match_id: int
    user_ids: tuple[int, ...]
    seatable_at: datetime


@dataclass(frozen=True)
class StandingsChanged(Event):
    """An arena's standings changed: its open standings sockets get them (read once for all of them, at most once
    in ``TOURNAMENT_STANDINGS_SPACING``)."""

    tournament_id: int
