"""WebSocket URL patterns. A path no consumer serves is refused at the handshake (close 4404), never a 500."""

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from .accounts.consumers import UserConsumer
from .matches.consumers import MatchConsumer


class NoSuchSocket(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        await self.close(code=4404)

    async def receive(self, *args: Any, **kwargs: Any) -> None:  # never accepted: nothing comes
        return None


websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),  # notices to every open tab, lobby updates
    re_path(r"", NoSuchSocket.as_asgi()),
]
