"""A template context processor: what the *Play online* box says of the wait and the live clock."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def quick_match(request: HttpRequest) -> dict[str, Any]:
    return {"quick_match_bots_after": int(settings.QUICK_MATCH_BOTS_AFTER),
            "live_move_seconds": int(settings.LIVE_MOVE_SECONDS)}
