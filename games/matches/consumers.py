"""``/ws/matches/{id}/``: on connect, the seat's view; after actions, the seat's newest view.

Group messages carry ``match_id``, ``seq`` and what every seat sees (the actions just made); each consumer
builds its own seat's view, so a hand never travels through the channel layer. Messages to the client:
``{"type": "match", "match": <view>}``, after actions ``{"type": "match", "match": <view>, "since": n,
"actions": [...]}`` (the bids and cards played from ``seq`` n to the view's; none when the view was read
for another reason), so the page animates them. A client may send ``{"type": "resync"}`` to get the view
again.

The socket follows the account (``games.accounts.sockets``): it closes (code 4401) when its token is revoked,
its session logs out or the account is deactivated, and sends nothing after that.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

import engine
from games.accounts.sockets import FollowsAccount
from games.errors import MatchNotFound
from games.groups import match_group

from . import presenters, reads, store
from .commands import presence_join, presence_leave, presence_renew
from .models import Match

log = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
PRESENCE_RENEW_SECONDS = 120.0
# Resyncs one socket may ask for within RESYNC_WINDOW seconds (each builds a view); more get an error.
RESYNC_LIMIT, RESYNC_WINDOW = 10, 10.0


class MatchConsumer(FollowsAccount, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    match_id: int
    seat: int
    group: str | None = None
    last_seq: int = -1
    resyncs: deque[float]
    # the match row and seats as last read, and the newest state this socket knows (its views' source)
    match: Match | None = None
    state: engine.MatchState | None = None
    present: bool = False
    presence_renewal: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        try:
            match, seat = await database_sync_to_async(reads.get_match_for_user)(
                user, self.scope["url_route"]["kwargs"]["match_id"]
            )
        except MatchNotFound:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        refused = await self.join_account(match_group(match.pk))
        if refused is not None:
            await self.refuse(refused)
            return
        self.match_id, self.seat = match.pk, seat.index
        await self.accept()
        # presence: while this page is open the person gets no email about this match (renewed while it is)
        await database_sync_to_async(presence_join)(user.pk, self.match_id, self.channel_name)
        self.present = True
        self.presence_renewal = asyncio.create_task(self._renew_presence())
        await self.send_view()

    async def _renew_presence(self) -> None:
        """Renew this socket's presence now and then, so beat's sweep forgets the presence of a socket whose
        process died without closing it (``PRESENCE_MAX_AGE``) and emails resume."""
        while True:
            await asyncio.sleep(PRESENCE_RENEW_SECONDS)
            try:
                await database_sync_to_async(presence_renew)(self.channel_name)
            except Exception:  # a database blip: the next renewal catches up
                log.warning("could not renew the presence of %s", self.channel_name, exc_info=True)

    async def disconnect(self, code: int) -> None:
        """Out of every group and no longer present, whatever fails on the way (a Redis that is away must
        not leave a presence row behind to silence the person's emails)."""
        renewal, self.presence_renewal = self.presence_renewal, None
        if renewal is not None:
            renewal.cancel()
        try:
            await self.leave_account()
        finally:
            if self.present:
                self.present = False
                await database_sync_to_async(presence_leave)(self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.shut:
            return
        if isinstance(content, dict) and content.get("type") == "resync":
            if not self._resync_allowed():
                await self.send_json({"type": "error", "code": "throttled",
                                      "detail": f"At most {RESYNC_LIMIT} resyncs per {RESYNC_WINDOW:g} seconds."})
                return
            await self.send_view(force=True)
        else:
            await self.send_json({"type": "error", "code": "bad_message",
                                  "detail": 'Actions go through the REST API; send {"type": "resync"} to refetch.'})

    def _resync_allowed(self) -> bool:
        now = time.monotonic()
        if not hasattr(self, "resyncs"):
            self.resyncs = deque()
        while self.resyncs and self.resyncs[0] <= now - RESYNC_WINDOW:
            self.resyncs.popleft()
        if len(self.resyncs) >= RESYNC_LIMIT:
            return False
        self.resyncs.append(now)
        return True

    async def match_updated(self, event: dict[str, Any]) -> None:
        """New actions. A socket that holds the state they follow applies them (the bids and cards played,
        public to every seat) and sends its seat's view without reading the database; one that does not
        (it missed a message, the match ended) reads the match. Views are never built for a ``seq``
        already covered: after a burst, the first message sent the newest view."""
        seq = event.get("seq")
        if not isinstance(seq, int) or seq <= self.last_seq:
            return
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        view = self._view_from_event(event)
        if view is None:
            await self.send_view(event=event)
        elif view["seq"] > self.last_seq:
            self.last_seq = view["seq"]
            await self.send_json({"type": "match", "match": view, **_carried(event, view["seq"])})

    def _view_from_event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The view after the event's actions, from this socket's state; None when a read is needed."""
        match, state = self.match, self.state
        since, actions, seq = event.get("since"), event.get("actions"), event["seq"]
        if (match is None or state is None or not isinstance(since, int) or not isinstance(actions, list)
                or not since <= state.version < seq or since + len(actions) != seq):
            return None
        try:
            for data in actions[state.version - since:]:
                state = engine.apply(state, engine.action_from_json(data))
            deadline = event.get("deadline")
            match.deadline = datetime.fromisoformat(deadline) if isinstance(deadline, str) else None
        except (engine.EngineError, TypeError, ValueError, KeyError):
            return None
        if state.is_finished:  # the end screen reads the row (finished_at, the rating): read it all
            return None
        match.seq, match.turn = state.version, state.turn
        self.state = state
        store.remember(match.pk, match.bot_seed, state)  # committed actions: other sockets of this process start here
        return presenters.match_view(match, self.seat, state)

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_view(force=True)

    async def send_view(self, force: bool = False, event: dict[str, Any] | None = None) -> None:
        """Send the seat's newest view, read from the database, if it is newer than the last one sent (or
        ``force``), with ``event``'s actions if they lead to it; nothing once the socket is shut or its
        credential no longer holds (re-checked now and then)."""
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        view = await database_sync_to_async(self._view, thread_sensitive=False)()
        if self.shut:  # closed while the view was being built
            return
        if view is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if force or view["seq"] > self.last_seq:
            self.last_seq = view["seq"]
            await self.send_json({"type": "match", "match": view, **(_carried(event, view["seq"]) if event else {})})

    def _view(self) -> dict[str, Any] | None:
        """None when the match is gone or the seat is no longer the user's: close then (a deactivated
        account closes the socket through ``FollowsAccount``). Keeps the match and its state, from which
        the next actions' views are built."""
        match = store.load(self.match_id)
        if match is None or store.seats_of(match)[self.seat].user_id != self.scope["user"].pk:
            return None
        state = store.state_of(match)
        self.match, self.state = match, state
        return presenters.match_view(match, self.seat, state)


def _carried(event: dict[str, Any], seq: int) -> dict[str, Any]:
    """``since`` and ``actions`` of a group event when they lead to ``seq`` (the view sent), else nothing."""
    since, actions = event.get("since"), event.get("actions")
    if isinstance(since, int) and isinstance(actions, list) and since + len(actions) == seq:
        return {"since": since, "actions": actions}
    return {}
