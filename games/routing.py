"""WebSocket URL patterns."""

from django.urls import path

from .accounts.consumers import UserConsumer
from .matches.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),  # notices to every open tab, lobby updates
]
