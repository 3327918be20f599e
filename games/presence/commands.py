"""Commands of presence: a match socket opened, is still open, closed; beat forgets the stale ones."""

from __future__ import annotations

from django.utils import timezone

from .models import Presence
from .reads import PRESENCE_MAX_AGE


def presence_join(user_id: int, match_id: int, channel_name: str) -> None:
    """A match socket opened: while it is open the person gets no email or push about that match."""
    Presence.objects.update_or_create(channel_name=channel_name, defaults={
        "user_id": user_id, "match_id": match_id, "seen_at": timezone.now()})


def presence_renew(channel_name: str) -> None:
    """The socket is still open (it says so every couple of minutes)."""
    Presence.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def presence_leave(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def forget_stale_presence() -> int:
    """Beat's sweep: presence no socket renewed for ``PRESENCE_MAX_AGE`` (its process died) is forgotten."""
    return Presence.objects.filter(seen_at__lt=timezone.now() - PRESENCE_MAX_AGE).delete()[0]
