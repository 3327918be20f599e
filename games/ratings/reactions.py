"""What the ratings concept does once a write has committed: rate a rated match that just finished."""

from __future__ import annotations

from games.matches.events import MatchAdvanced
from games.platform import outbox

from . import tasks


def rate_finished_match(event: MatchAdvanced) -> None:
    """A rated match finished: its rating task (idempotent; beat's sweep sends it again if it is lost)."""
    if event.finished and event.match.rated:
        outbox.task_now(tasks.rate_match, event.match_id)
