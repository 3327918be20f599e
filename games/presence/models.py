"""Presence's one model, in the ``games`` app (its table stays ``games_presence``)."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Presence(models.Model):
    """An open WebSocket on a match page: while one exists the user gets no email for that match. The socket
    renews ``seen_at`` while it is open; one not renewed for ``PRESENCE_MAX_AGE`` is forgotten (a process that
    died without closing its sockets)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)


class Online(models.Model):
    """An open ``/ws/me/`` socket (any page of the site, signed in): its person is online now, as their friends see.
    Renewed while open, deleted when it closes; one not renewed for ``PRESENCE_MAX_AGE`` no longer counts (beat
    forgets it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)
