"""``/ws/matches/{id}/``: on connect, the seat's view; after actions, the seat's newest view.

Group messages carry ``match_id`` and ``seq`` only; each consumer builds its own seat's view, so
a hand never travels through the channel layer. Messages to the client:
``{"type": "match", "match": <view>}``. A client may send ``{"type": "resync"}`` to get the view again.

The socket follows the account (``games.players.sockets``): it closes (code 4401) when its token is revoked,
its session logs out or the account is deactivated, and sends nothing after that.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.errors import MatchNotFound
from games.groups import match_group
from games.players.commands import presence_join, presence_leave
from games.players.sockets import FollowsAccount

from . import reads
from .models import Match

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
# Resyncs one socket may ask for within RESYNC_WINDOW seconds (each builds a view); more get an error.
RESYNC_LIMIT, RESYNC_WINDOW = 10, 10.0


class MatchConsumer(FollowsAccount, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    match_id: int
    seat: int
    group: str | None = None
    last_seq: int = -1
    resyncs: deque[float]

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
        if not await self.join_account():  # its credential was revoked while it opened
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.match_id, self.seat = match.pk, seat.index
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # presence: while this page is open the user gets no email about this match
        await database_sync_to_async(presence_join)(user.pk, self.match_id, self.channel_name)
        await self.send_view()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(presence_leave)(self.channel_name)
            self.group = None
        await self.leave_account()

    async def shut_down(self) -> None:
        await self.disconnect(CLOSE_UNAUTHENTICATED)
        await super().shut_down()

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
        """A new action. Views are not built per action: after a burst (a person's card and the bots'
        replies) the first message builds the newest view and the rest, already covered, cost nothing."""
        seq = event.get("seq")
        if isinstance(seq, int) and seq > self.last_seq:
            await self.send_view()

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_view(force=True)

    async def send_view(self, force: bool = False) -> None:
        """Send the seat's newest view if it is newer than the last one sent (or ``force``); nothing once the
        socket is shut or its credential no longer holds (re-checked now and then)."""
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
            await self.send_json({"type": "match", "match": view})

    def _view(self) -> dict[str, Any] | None:
        """None when the match is gone or the user is no longer allowed (deactivated): close then."""
        match = reads.with_seats(Match.objects.filter(pk=self.match_id)).first()
        if match is None:
            return None
        user = reads.seats_of(match)[self.seat].user
        if user is None or user.pk != self.scope["user"].pk or not user.is_active:
            return None
        return reads.match_view(match, self.seat)
