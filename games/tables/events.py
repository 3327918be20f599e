"""What happens to tables, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.platform.outbox import Event


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


@dataclass(frozen=True)
class RematchChanged(Event):
    """A one-tap rematch of match ``match_id`` was asked, answered, started or called off: the people of that
    match hear it on their tabs (``games.tables.reactions``). ``reason`` of a cancel: ``declined`` (``by`` said
    no), ``left`` (``by`` left the live match's end screen) or ``timeout``."""

    table_id: int
    match_id: int
    reason: str = ""
    by: str = ""


@dataclass(frozen=True)
class RematchAsked(Event):
    """Someone asked the people of match ``match_id`` (at ``seq``, its end) for a rematch: ``user_id`` is one of
    those asked (``games.notices`` tells them)."""

    user_id: int
    match_id: int
    seq: int
