"""What happens to matches, as events for ``games.outbox``: ids, numbers and what every seat may see
(the bids and cards played), never a hand. Each concept reacts in its own ``reactions`` module."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import engine
from games.outbox import Event


@dataclass(frozen=True)
class MatchAdvanced(Event):
    """A match began (``since == seq``) or its log grew from ``since`` actions to ``seq``.

    ``person_to_act``: the user whose timed turn it now is (a deadline runs), if any; ``bot_account_to_act``:
    the bot account whose turn it now is (timed or not), if any; ``bot_accounts``: the users of the seats played
    by bot accounts (told when the match is over); ``summaries``: each
    person's row of "My matches" as it stands, built inside the write; ``state`` is the committed state
    (``state_key`` names it in this process's cache).
    """

    match_id: int
    seq: int
    since: int
    state: engine.MatchState = field(repr=False)
    state_key: str = field(repr=False)
    deadline: datetime | None
    remind_at: datetime | None
    move_seconds: int | None
    rated: bool
    bot_to_act: bool
    person_to_act: int | None
    summaries: tuple[tuple[int, dict[str, Any]], ...] = field(repr=False)
    bot_account_to_act: int | None = None
    bot_accounts: tuple[int, ...] = ()
    bot_level: str = ""  # the level of the bot to act, if ``bot_to_act``

    @property
    def finished(self) -> bool:
        return self.state.is_finished

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The actions from ``since`` to ``seq`` as the engine writes them (public to every seat)."""
        return [action.to_json() for action in self.state.actions[self.since:self.seq]]


@dataclass(frozen=True)
class SeatsChanged(Event):
    """Same ``seq``, other views: a seat went to a bot, the match was aborted or rated."""

    match_id: int
    seq: int
    bot_to_act: bool
    summaries: tuple[tuple[int, dict[str, Any]], ...] = field(repr=False)


@dataclass(frozen=True)
class NoticeDue(Event):
    """Tell a person about a match (``kind``: a ``Notice.Kind``): once, in their tabs and by email."""

    user_id: int
    match_id: int
    seq: int
    kind: str


@dataclass(frozen=True)
class ChatSent(Event):
    """A chat message was stored: the match's pages of the people who read its chat are sent it (``message``:
    ``reads.chat_json``), except those of people who muted ``author_id``."""

    match_id: int
    author_id: int
    message: dict[str, Any] = field(repr=False)
