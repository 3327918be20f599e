"""Reads of notices: a person's latest, and whether one should be emailed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.accounts import reads as account_reads
from games.presence import reads as presence_reads

from .models import Notice


def latest_notices(user: User, limit: int = 50) -> list[dict[str, Any]]:
    rows = Notice.objects.filter(user=user).order_by("-created_at", "-id")[:limit]
    return [{"id": n.pk, "kind": n.kind, "match_id": n.match_id, "table_id": n.table_id, "seq": n.seq,
             "at": n.created_at.isoformat(), "emailed": n.emailed} for n in rows]


def should_email(user_id: int, match_id: int | None) -> bool:
    """Email goes out unless the person turned it off or has the match page open (a ``Presence`` row per
    open match socket); an address is checked when sending."""
    on_page = match_id is not None and presence_reads.on_match_page(user_id, match_id)
    return not on_page and account_reads.wants_email(user_id)
