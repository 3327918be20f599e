"""WebSocket URL patterns, and the match socket composed from its parts. A path no consumer serves is refused at
the handshake (close 4404), never a 500."""

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from .presence.consumers import OnlineSocket, PresenceSocket
from .tabletalk.consumers import TableTalkSocket
from .tournaments.consumers import StandingsConsumer
from .watching.consumers import WatchCountSocket, WatchSocket


class MatchSocket(WatchCountSocket, PresenceSocket, TableTalkSocket):
    """``/ws/matches/{id}/``: the match's part (``games.matches.consumers.MatchConsumer``, the seat's views and its
    person's actions) with presence's, table talk's and watching's (how many watch), each built on it; composed
    here, above them all, so that matches knows none of them."""


class NoSuchSocket(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        await self.close(code=4404)

    async def receive(self, *args: Any, **kwargs: Any) -> None:  # never accepted: nothing comes
        return None


websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchSocket.as_asgi()),
    path("ws/watch/<int:match_id>/", WatchSocket.as_asgi()),  # a watcher: the match a trick behind, no hand
    path("ws/me/", OnlineSocket.as_asgi()),  # notices to every open tab, lobby updates; its person is online
    path("ws/tournaments/<int:tournament_id>/", StandingsConsumer.as_asgi()),  # an arena's standings, live
    re_path(r"", NoSuchSocket.as_asgi()),
]
