"""Reads of presence: whether a person has a match page open, and how many people are playing now."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from .models import Online, Presence

# A socket renews its presence every couple of minutes (``consumers.PRESENCE_RENEW_SECONDS``); one not renewed
# for this long no longer counts as "on the page": a web process that died without closing its sockets must
# not silence someone's email (beat's sweep deletes such rows).
PRESENCE_MAX_AGE = timedelta(minutes=10)


def on_match_page(user_id: int, match_id: int) -> bool:
    """Whether the person has the match's page open (then no email or push is sent about it)."""
    since = timezone.now() - PRESENCE_MAX_AGE
    return Presence.objects.filter(user_id=user_id, match_id=match_id, seen_at__gte=since).exists()


def people_playing_now() -> int:
    """People with a match page open now (for "who is here")."""
    since = timezone.now() - PRESENCE_MAX_AGE
    return Presence.objects.filter(seen_at__gte=since).values("user_id").distinct().count()


def online_ids(user_ids: list[int] | set[int]) -> set[int]:
    """Which of ``user_ids`` are online now: a page of the site open (``/ws/me/``) or a match page (one query
    each)."""
    if not user_ids:
        return set()
    since = timezone.now() - PRESENCE_MAX_AGE
    ids = list(user_ids)
    online = set(Online.objects.filter(user_id__in=ids, seen_at__gte=since).values_list("user_id", flat=True))
    return online | set(Presence.objects.filter(user_id__in=ids, seen_at__gte=since).values_list("user_id", flat=True))
