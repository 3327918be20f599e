"""``/ws/me/``: one socket per open tab, in the user's group and the lobby group.

Messages to the client: ``{"type": "notice", "kind": ..., "match_id": ..., "seq": ..., "deadline": ...}``
(your turn, reminder, autopilot moved, seat handed over) and ``{"type": "lobby", "table_id": ...}``
(a table changed: refetch the lobby). Group messages hold ids and times only, never cards.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.groups import LOBBY_GROUP, user_group
from games.limits import BAD_JSON, decode_frame

CLOSE_UNAUTHENTICATED = 4401


class UserConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    groups_joined: list[str]

    async def connect(self) -> None:
        self.groups_joined = []
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        for group in (user_group(user.pk), LOBBY_GROUP):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Malformed, oversized or too deeply nested frames get an error message; the socket stays open."""
        try:
            content = decode_frame(text_data, bytes_data)
        except ValueError as err:
            await self.send_json({"type": "error", "code": BAD_JSON, "detail": str(err)})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"type": "error", "code": "bad_message", "detail": "This socket only sends."})

    async def user_notice(self, event: dict[str, Any]) -> None:
        await self.send_json(event["payload"])

    async def lobby_updated(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby", "table_id": event.get("table_id")})
