"""Reads of analyses: a seat's analysis and what the API answers about it."""

from __future__ import annotations

from typing import Any

from games.matches.models import Match

from .models import Analysis


def for_seat(match: Match, seat: int) -> Analysis | None:
    return Analysis.objects.filter(match=match, seat=seat).first()


def progress_json(analysis: Analysis) -> dict[str, Any]:
    """While it runs: how far it is (decisions done of the seat's total)."""
    return {"match_id": analysis.match_id, "seat": analysis.seat, "status": analysis.status,
            "done": analysis.progress, "total": analysis.total}
