"""``/ws/tournaments/{id}/``: an arena's standings, live. On connect the socket sends ``{"type": "standings",
"tournament": ...}`` (``reads.standings``), and again each time they change (a join, a seating, a match counted,
the end), at most about a second after a match ends. Standings are public: anyone may watch them; the socket
only sends."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.platform.groups import tournament_group

from . import reads

CLOSE_NOT_FOUND = 4404


class StandingsConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group: str | None = None

    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        standings = await database_sync_to_async(reads.standings_of)(tournament_id)
        if standings is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "standings", "tournament": standings})

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Nothing is read from a frame (so no frame can fail to parse): this socket only sends."""
        await self.send_json({"type": "error", "code": "bad_message", "detail": "This socket only sends."})

    async def tournament_standings(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "standings", "tournament": event["standings"]})
