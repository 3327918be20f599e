"""What the analysis concept does once a write has committed: review every person's seat of a match that
just finished, compute a queued analysis, and tell the match's people how far a review is.

Reviews go to the ``analysis`` queue, consumed by workers of their own: a review never delays a bot's
move. In eager mode (``make run``, tests) a review would hold the request that finished the match for a
minute, so it runs in a background thread (``ANALYSIS_EAGER=thread``, the default) or, with ``off``, not
until the task is run by hand (the site tests run it themselves).
"""

from __future__ import annotations

from typing import Protocol

from django.conf import settings

from games.matches.events import MatchAdvanced
from games.platform import outbox
from games.platform.groups import user_group, user_message

from . import tasks
from .events import AnalysisProgress, AnalysisQueued

QUEUE = "analysis"


def _eager() -> str:
    """``ANALYSIS_EAGER``: ``thread`` by default, ``off`` in the tests."""
    return "skip" if settings.ANALYSIS_EAGER == "off" else "thread"


def review_finished_match(event: MatchAdvanced) -> None:
    if event.finished:
        outbox.task_now(tasks.start_analyses, event.match_id, queue=QUEUE)


class _StoredFinished(Protocol):
    """A finished match stored whole by another concept (an offline match uploaded), known only by its id."""

    @property
    def match_id(self) -> int: ...


def review_stored_match(event: _StoredFinished) -> None:
    outbox.task_now(tasks.start_analyses, event.match_id, queue=QUEUE)


def compute(event: AnalysisQueued) -> None:
    outbox.task_now(tasks.analyze_seat, event.analysis_id, queue=QUEUE, eager=_eager())


def progress(event: AnalysisProgress) -> None:
    payload = {"type": "analysis", "match_id": event.match_id, "seat": event.seat, "done": event.done,
               "total": event.total, "status": event.status}
    for user_id in event.user_ids:
        outbox.group_send_now(user_group(user_id), user_message(payload))
