"""Reads of bot accounts' events: those after an id, in order, and the newest id."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from games.matches.models import Match, Seat
from games.tables.models import Table, TableSeat
from games.web.bounds import ascii_int

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


def pending_events(user_id: int) -> list[dict[str, Any]]:
    """The events still awaiting the bot's answer, oldest first: its invitations to open tables and its turns in
    running matches (each as it was recorded). A stream opened without ``since`` starts with them, so a bot that
    starts (or lost its place) misses nothing that it still has to answer."""
    turns = [f"your_turn:{seat.match_id}::{seat.match.seq}" for seat in Seat.objects.filter(
        user_id=user_id, autopilot=False, match__status=Match.Status.ACTIVE).select_related("match")
        if seat.match.turn == seat.index]
    tables = TableSeat.objects.filter(invited_id=user_id, table__status=Table.Status.OPEN).values("table_id")
    pending = (BotEvent.objects.filter(user_id=user_id, key__in=turns)
               | BotEvent.objects.filter(user_id=user_id, kind=BotEvent.Kind.INVITED, table_id__in=tables))
    return [event.to_json() for event in pending.order_by("id")[:PAGE]]
