"""``/ws/watch/{id}/``: a watcher's socket, and the watchers' count on the match socket.

A watcher's socket sends ``{"type": "watch", "match": <watch view>}`` on connect, whenever the match moves on
and on ``{"type": "resync"}``: the engine's spectator view of the match as it was one trick (four bids or cards)
ago (or ``SPECTATOR_DELAY_SECONDS`` ago), built by ``games.matches.seatview.WatcherView`` (the one owner of a
socket's copy of the match); never a hand, never the seed before the end. It also sends
``{"type": "watchers", "count": n}``. A watcher cannot chat, emote or act: anything else it sends is answered
``{"type": "error", "code": "watching"}``. A private table's match refuses the socket (close 4403), a match not
found closes it 4404, and the socket follows the account (``games.accounts.sockets``) as every socket does.

Group messages on the watch group carry ids and ``seq`` only (``games.watching.reactions``): each watcher's
socket reads the match and builds its own delayed view, so nothing of a hand ever travels through the layer.

``WatchCountSocket`` is watching's part of the match socket (composed in ``games.routing``): the people at the
table get ``{"type": "watchers", "count": n}`` on connect and when it changes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from games.accounts.sockets import FollowsAccount
from games.matches.consumers import MatchConsumer
from games.matches.seatview import READ_BESIDE, WatcherView
from games.platform import outbox, ratelimit
from games.platform.errors import GameError, MatchNotFound
from games.platform.groups import match_group, watch_group

from . import commands, reads

log = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_PRIVATE = 4403
CLOSE_NOT_FOUND = 4404
RENEW_SECONDS = 120.0


async def _tell_count(layer: Any, match_id: int) -> None:
    """The watchers' count to the match's players and watchers (after a watcher came or went)."""
    count = await database_sync_to_async(reads.watchers)(match_id)
    message = {"type": "watchers.changed", "match_id": match_id, "count": count}
    await outbox.group_send_async(layer, match_group(match_id), message)
    await outbox.group_send_async(layer, watch_group(match_id), message)


class WatchSocket(FollowsAccount, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """One watcher of one match: its delayed spectator view, moved on as the match is."""

    socket_kind = "watch"
    match_id: int
    view: WatcherView
    last_shown: tuple[int, str] = (-1, "")
    watching: bool = False
    ticker: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        try:
            match = await database_sync_to_async(reads.watchable)(self.scope["url_route"]["kwargs"]["match_id"])
        except MatchNotFound:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        except GameError:  # a private table's match
            await self.close(code=CLOSE_PRIVATE)
            return
        refused = await self.join_account(watch_group(match.pk))
        if refused is not None:
            await self.refuse(refused)
            return
        self.match_id = match.pk
        self.view = WatcherView(match.pk)
        await self.accept()
        await database_sync_to_async(commands.watch_join)(user.pk, match.pk, self.channel_name)
        self.watching = True
        await self.send_view(force=True)
        await _tell_count(self.channel_layer, match.pk)
        self.ticker = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        """Renew the watcher's row now and then; with ``SPECTATOR_DELAY_SECONDS`` also show what has aged enough
        (no message says when a card becomes old enough to show)."""
        delay = float(settings.SPECTATOR_DELAY_SECONDS)
        step = min(1.0, delay) if delay > 0 else RENEW_SECONDS
        waited = 0.0
        while True:
            await asyncio.sleep(step)
            waited += step
            try:
                if delay > 0:
                    await self.send_view()
                if waited >= RENEW_SECONDS:
                    waited = 0.0
                    await database_sync_to_async(commands.watch_renew)(self.channel_name)
            except Exception:  # a database blip: the next round catches up
                log.warning("watcher %s could not renew", self.channel_name, exc_info=True)

    async def disconnect(self, code: int) -> None:
        ticker, self.ticker = self.ticker, None
        if ticker is not None:
            ticker.cancel()
        try:
            await self.leave_account()
        finally:
            if self.watching:
                self.watching = False
                await database_sync_to_async(commands.watch_leave)(self.channel_name)
                await _tell_count(self.channel_layer, self.match_id)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.shut:
            return
        if isinstance(content, dict) and content.get("type") == "resync":
            if ratelimit.check(self.limited_as, [ratelimit.RESYNC]) is not None:
                await self.send_json({"type": "error", "code": "throttled", "detail": "Too many resyncs."})
                return
            await self.send_view(force=True)
            return
        await self.send_json({"type": "error", "code": "watching",
                              "detail": 'Watchers cannot chat, emote or play; send {"type": "resync"} to get the '
                                        "view again."})

    async def watch_updated(self, event: dict[str, Any]) -> None:
        await self.send_view()

    async def watchers_changed(self, event: dict[str, Any]) -> None:
        if not self.shut:
            await self.send_json({"type": "watchers", "count": event.get("count", 0)})

    async def layer_rejoined(self, event: dict[str, Any]) -> None:
        if not self.shut and hasattr(self, "match_id"):
            await self.send_view(force=True)

    async def send_view(self, force: bool = False) -> None:
        """The delayed view, if it moved on since the last one sent (or ``force``)."""
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        view = await database_sync_to_async(self.view.read, thread_sensitive=not READ_BESIDE)()
        if self.shut:
            return
        if view is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        shown = (view["seq"], view["status"])
        if force or shown != self.last_shown:
            self.last_shown = shown
            await self.send_json({"type": "watch", "match": view})


class WatchCountSocket(MatchConsumer):
    """Watching's part of the match socket: how many watch, on connect (when any do) and when it changes."""

    async def opened(self) -> None:
        await super().opened()
        count = await database_sync_to_async(reads.watchers)(self.match_id)
        if count:
            await self.send_json({"type": "watchers", "count": count})

    async def watchers_changed(self, event: dict[str, Any]) -> None:
        if not self.shut:
            await self.send_json({"type": "watchers", "count": event.get("count", 0)})
