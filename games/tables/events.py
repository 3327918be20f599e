"""What happens to tables, as events for ``games.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.outbox import Event


@dataclass(frozen=True)
class TableChanged(Event):
    """A table changed: lobby listeners refetch it. ``extra_user_ids``: people to tell besides its members
    (someone who just left a private table)."""

    table_id: int
    extra_user_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class BotInvited(Event):
    """The host of a table invited a bot account to a seat: the bot is told (``games.bots.reactions``)."""

    table_id: int
    user_id: int
    seat: int
