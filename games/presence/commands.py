"""Commands of presence: a match socket (or a ``/ws/me/`` socket: online) opened, is still open, closed; beat
forgets the stale ones."""

from __future__ import annotations

from django.utils import timezone

from .models import Online, Presence
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


def online_join(user_id: int, channel_name: str) -> None:
    """A ``/ws/me/`` socket opened: its person is online (their friends' lists say so)."""
    Online.objects.update_or_create(channel_name=channel_name, defaults={"user_id": user_id,
                                                                         "seen_at": timezone.now()})


def online_renew(channel_name: str) -> None:
    Online.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def online_leave(channel_name: str) -> None:
    Online.objects.filter(channel_name=channel_name).delete()


def forget_stale_presence() -> int:
    """Beat's sweep: presence no socket renewed for ``PRESENCE_MAX_AGE`` (its process died) is forgotten."""
    before = timezone.now() - PRESENCE_MAX_AGE
    stale = Presence.objects.filter(seen_at__lt=before).delete()[0]
    return stale + Online.objects.filter(seen_at__lt=before).delete()[0]
