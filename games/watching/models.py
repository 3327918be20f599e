"""Watching's one model, in the ``games`` app."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Watcher(models.Model):
    """An open watcher's socket on a match: the table shows how many watch. Renewed while open, deleted when it
    closes; one not renewed for ``reads.WATCHER_MAX_AGE`` (its process died) no longer counts."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)
