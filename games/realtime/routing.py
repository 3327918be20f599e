"""WebSocket URL patterns."""

from django.urls import path

from .consumers import MatchConsumer
from .user_consumer import UserConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),  # notices to every open tab, lobby updates
]
