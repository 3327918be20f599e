"""Reads of bot accounts' events: those after an id, in order, and the newest id."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from games.limits import ascii_int

from .models import BotEvent

PAGE = 100


def events_after(user_id: int, since: int, limit: int = PAGE) -> list[dict[str, Any]]:
    """The bot's events with an id above ``since``, oldest first (at most ``limit``)."""
    return [event.to_json() for event in BotEvent.objects.filter(user_id=user_id, id__gt=since).order_by("id")[:limit]]


def newest_id(user_id: int) -> int:
    return int(BotEvent.objects.filter(user_id=user_id).aggregate(newest=Max("id"))["newest"] or 0)


def parse_since(raw: str | None) -> int | None:
    """``?since=`` or ``Last-Event-ID``: a non-negative id in ASCII digits, else None (``ascii_int``)."""
    if raw is None or raw == "":
        return None
    value = ascii_int(raw.strip())
    return value if value is not None and value >= 0 else None
