"""Presence's part of the match socket: while it is open its person is on the match's page, so no email or push
goes out about that match. Built on the match's part (``games.matches.consumers``) and composed with it in
``games.routing``. And its part of ``/ws/me/`` (``OnlineSocket``): while any page is open its person is online, as
their friends see."""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async

from games.accounts.consumers import UserConsumer
from games.matches.consumers import MatchConsumer

from .commands import online_join, online_leave, online_renew, presence_join, presence_leave, presence_renew

log = logging.getLogger(__name__)

PRESENCE_RENEW_SECONDS = 120.0


class PresenceSocket(MatchConsumer):
    """Present from the moment the socket is accepted (before its first view) until it closes, renewed now and
    then while it is open."""

    present: bool = False
    presence_renewal: asyncio.Task[None] | None = None

    async def admitted(self) -> None:
        await database_sync_to_async(presence_join)(self.scope["user"].pk, self.match_id, self.channel_name)
        self.present = True
        self.presence_renewal = asyncio.create_task(self._renew_presence())
        await super().admitted()

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
            await super().disconnect(code)
        finally:
            if self.present:
                self.present = False
                await database_sync_to_async(presence_leave)(self.channel_name)


class OnlineSocket(UserConsumer):
    """``/ws/me/`` with presence's part: online from the moment the socket is accepted until it closes, renewed
    now and then (``games.routing`` composes it)."""

    online: bool = False
    online_renewal: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await super().connect()
        if self.shut or self.counted_user is None:  # refused, or closed already
            return
        await database_sync_to_async(online_join)(self.counted_user, self.channel_name)
        self.online = True
        self.online_renewal = asyncio.create_task(self._renew_online())

    async def _renew_online(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_RENEW_SECONDS)
            try:
                await database_sync_to_async(online_renew)(self.channel_name)
            except Exception:  # a database blip: the next renewal catches up
                log.warning("could not renew the online row of %s", self.channel_name, exc_info=True)

    async def disconnect(self, code: int) -> None:
        renewal, self.online_renewal = self.online_renewal, None
        if renewal is not None:
            renewal.cancel()
        try:
            await super().disconnect(code)
        finally:
            if self.online:
                self.online = False
                await database_sync_to_async(online_leave)(self.channel_name)
