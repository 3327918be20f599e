"""What happens to analyses, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.platform.outbox import Event


@dataclass(frozen=True)
class AnalysisQueued(Event):
    """An analysis is to be computed (made, or asked for again)."""

    analysis_id: int


@dataclass(frozen=True)
class AnalysisProgress(Event):
    """How far the review of ``seat`` is, for the people of the match (who may see its replay and its
    analyses): the replay page shows its progress and loads it when done."""

    match_id: int
    seat: int
    done: int
    total: int
    status: str
    user_ids: tuple[int, ...]
