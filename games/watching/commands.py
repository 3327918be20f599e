"""Commands of watching: a watcher's socket opened, is still open, closed (the table shows how many watch)."""

from __future__ import annotations

from django.utils import timezone

from .models import Watcher
from .reads import WATCHER_MAX_AGE


def watch_join(user_id: int, match_id: int, channel_name: str) -> None:
    Watcher.objects.update_or_create(channel_name=channel_name, defaults={
        "user_id": user_id, "match_id": match_id, "seen_at": timezone.now()})


def watch_renew(channel_name: str) -> None:
    Watcher.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def watch_leave(channel_name: str) -> None:
    Watcher.objects.filter(channel_name=channel_name).delete()


def forget_stale_watchers() -> int:
    """Beat's sweep: a watcher's row its socket has not renewed (its process died) no longer counts."""
    return Watcher.objects.filter(seen_at__lt=timezone.now() - WATCHER_MAX_AGE).delete()[0]
