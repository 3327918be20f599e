"""WebSocket URL patterns, and the match socket composed from its parts. A path no consumer serves is refused at
the handshake (close 4404), never a 500."""

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from .accounts.consumers import UserConsumer
from .presence.consumers import PresenceSocket
from .tabletalk.consumers import TableTalkSocket
from .tournaments.consumers import StandingsConsumer


class MatchSocket(PresenceSocket, TableTalkSocket):
    """``/ws/matches/{id}/``: the match's part (``games.matches.consumers.MatchConsumer``, the seat's views and its
    person's actions) with presence's and table talk's, each built on it; composed here, above them all, so that
    matches knows neither."""


class NoSuchSocket(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        await self.close(code=4404)

    async def receive(self, *args: Any, **kwargs: Any) -> None:  # never accepted: nothing comes
        return None


websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchSocket.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),  # notices to every open tab, lobby updates
    path("ws/tournaments/<int:tournament_id>/", StandingsConsumer.as_asgi()),  # an arena's standings, live
    re_path(r"", NoSuchSocket.as_asgi()),
]
