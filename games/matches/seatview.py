"""One seat's live view of a match: what a match socket sends its seat, built through the engine's player view
for that seat (``presenters.match_view``), and the one place the socket's copy of the match is kept and moved on.

A ``SeatView`` holds the match row and the newest committed state its seat knows. It moves on three ways: read
from the database (``read``), after the seat's own action (``after_action``), or from a group message's actions
(``follow``, no query at all: the actions are public to every seat and the deadline travels with them). The
socket never touches ``store`` or the row itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

import engine

from . import presenters, store
from .models import Action, Match

#: A watcher is shown the match this many bids or cards behind: one trick (or one round of bids).
WATCH_BEHIND = 4


# A socket's view is read beside the request threads on PostgreSQL (many sockets at once, each its own pooled
# connection); on SQLite (the embedded default, one process) in the one database thread, where a read beside a write
# of the same in-memory database fails with "table is locked" instead of waiting. Every socket reads through this.
READ_BESIDE = settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3"


class SeatView:
    """The live view of ``seat`` at match ``match_id`` for ``user_id`` (who must still hold the seat)."""

    def __init__(self, match_id: int, seat: int, user_id: int) -> None:
        self.match_id, self.seat, self.user_id = match_id, seat, user_id
        self.match: Match | None = None  # the row and seats as last read, moved on by ``follow``
        self.state: engine.MatchState | None = None  # the newest state this seat knows (its views' source)

    def read(self) -> dict[str, Any] | None:
        """The seat's view, read from the database; None when the match is gone or the seat is no longer the
        user's (the socket closes then). One query: the match with its seats; the state is cached."""
        match = store.load(self.match_id)
        if match is None or store.seats_of(match)[self.seat].user_id != self.user_id:
            return None
        state = store.state_of(match)
        self.match, self.state = match, state
        return presenters.match_view(match, self.seat, state)

    def after_action(self, match: Match, state: engine.MatchState) -> tuple[dict[str, Any], int, list[Any]]:
        """The view after this seat's action (the match and state its command committed), or after the bots'
        answers when this process has seen them already; with ``since`` (the seq before the action) and the
        actions from it to the view's, so the page animates them."""
        since = state.version - 1
        state = store.caught_up(match, state)
        self.match, self.state = match, state
        return presenters.match_view(match, self.seat, state), since, [a.to_json() for a in state.actions[since:]]

    def follow(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The view after a ``match.updated`` message's actions, applied to the state this seat knows; None when
        a read is needed (the message does not follow that state, or the match ended: the end screen reads the
        row's ``finished_at`` and rating). The state reached is committed, so this process's next read of the
        match starts there."""
        match, state = self.match, self.state
        since, actions, seq = event.get("since"), event.get("actions"), event["seq"]
        if (match is None or state is None or not isinstance(since, int) or not isinstance(actions, list)
                or not since <= state.version < seq or since + len(actions) != seq):
            return None
        try:
            for data in actions[state.version - since:]:
                state = engine.apply(state, engine.action_from_json(data))
            raw = event.get("deadline")
            deadline = datetime.fromisoformat(raw) if isinstance(raw, str) else None
        except (engine.EngineError, TypeError, ValueError, KeyError):
            return None
        if state.is_finished:
            return None
        # the row as the write left it: the deadline it set, the seq and turn of the state
        match.deadline, match.seq, match.turn = deadline, state.version, state.turn
        self.state = state
        store.remember(match.pk, match.bot_seed, state)
        return presenters.match_view(match, self.seat, state)


class WatcherView:
    """A watcher's live view of match ``match_id``: the engine's spectator view of the match as it was one trick
    (``WATCH_BEHIND`` actions) ago, or ``SPECTATOR_DELAY_SECONDS`` ago when that is set; the whole match once it
    is over. Why behind: a watcher could otherwise relay the table to a player as it happens. The state shown is
    moved on from the one shown before (the log is append-only), so following a match replays nothing."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.shown: engine.MatchState | None = None  # the (delayed) state last shown

    def read(self) -> dict[str, Any] | None:
        """The watcher's view now; None when the match is gone."""
        match = store.load(self.match_id)
        if match is None:
            return None
        live = store.state_of(match)
        target = live.version if live.is_finished or match.status != Match.Status.ACTIVE else self.shown_upto(live)
        shown = self.shown
        if shown is None or shown.version > target:
            shown = engine.new_match(match.seed)
        for action in live.actions[shown.version:target]:
            shown = engine.apply(shown, action)
        self.shown = shown
        return presenters.watch_view(match, shown, live.version)

    def shown_upto(self, live: engine.MatchState) -> int:
        """How many of the live match's actions a watcher sees."""
        delay = float(settings.SPECTATOR_DELAY_SECONDS)
        if delay <= 0:
            return max(0, live.version - WATCH_BEHIND)
        cutoff = timezone.now() - timedelta(seconds=delay)
        return min(live.version, Action.objects.filter(match_id=self.match_id, made_at__lte=cutoff).count())
