"""``/ws/me/``: one socket per open tab, in the user's group and the lobby group.

Messages to the client: ``{"type": "notice", "kind": ..., "match_id": ..., "seq": ..., "deadline": ...}``
(your turn, reminder, autopilot moved, seat handed over) and ``{"type": "lobby", "table_id": ...}``
(a table changed: refetch the lobby), ``{"type": "here", "playing", "waiting"}`` (who is here, when it changed),
``{"type": "matched", "match_id"}`` (a quick-match seek was seated). Group messages hold ids and times only,
never cards.

The socket follows the account (``games.accounts.sockets``): it closes (code 4401) when its token is revoked,
its session logs out or the account is deactivated.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.platform.groups import LOBBY_GROUP, user_group

from .sockets import FollowsAccount

CLOSE_UNAUTHENTICATED = 4401
CLOSE_RESTART = 1012  # RFC 6455 "service restart": reconnect (and refetch)


class UserConsumer(FollowsAccount, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "me"
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        refused = await self.join_account(user_group(user.pk), LOBBY_GROUP)
        if refused is not None:
            await self.refuse(refused)
            return
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave_account()

    async def deliver(self, payload: dict[str, Any]) -> None:
        """Send to the client unless the socket is shut, or its credential no longer holds (then shut it)."""
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        await self.send_json(payload)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"type": "error", "code": "bad_message", "detail": "This socket only sends."})

    async def user_notice(self, event: dict[str, Any]) -> None:
        await self.deliver(event["payload"])

    async def lobby_here(self, event: dict[str, Any]) -> None:
        """Who is here (``games.quickmatch``): people playing and waiting now."""
        await self.deliver({"type": "here", "playing": event.get("playing"), "waiting": event.get("waiting")})

    async def lobby_updated(self, event: dict[str, Any]) -> None:
        await self.deliver({"type": "lobby", "table_id": event.get("table_id")})

    async def layer_rejoined(self, event: dict[str, Any]) -> None:
        """Redis lost this socket's groups (restarted empty, flushed, or away for a while) and the channel layer
        has put it back in them (``callbreak_site.channel_layer``): notices and updates sent meanwhile never came.
        The socket sends nothing on connect; a page refetches what it shows when its socket opens again
        (``user_socket.js``), so close with 1012 (service restart) and the page reconnects and refetches."""
        if self.shut:
            return
        await self.close(code=CLOSE_RESTART)
