"""The one decision table of how a bot's turn is run.

A write left a bot to act (``reactions``): where is its move played? The rows, first match wins:

=================  =======================================================  ============================================
row                when                                                     how the move is played
=================  =======================================================  ============================================
``CHAIN``          this thread runs a chain already (a lane thread, a       queued on that chain, whose loop plays it
                   worker's task, eager mode's task)                        next (``chain``)
``LANE``           a web process with its bot threads on (``lane.use``),    on one of its ``BOT_LANE_THREADS`` threads,
                   a quick bot (``QUICK_LEVELS``), no delay                 at once, as a chain; a failure: ``WORKER``
``EAGER``          ``CELERY_TASK_ALWAYS_EAGER`` (``make run``, tests)       the ``bot_move`` task run here and now
                                                                            (``outbox.task_now``'s ``inline``), as a
                                                                            chain: a bot-only match is a loop, not
                                                                            reactions nested in each other
``WORKER``         a broker, no delay                                       a ``bot_move`` task, at once; the worker
                                                                            plays the moves after it as a chain
``WORKER_DELAYED`` a broker, ``BOT_DELAY_SECONDS`` > 0                      a ``bot_move`` task after the pause; one
                                                                            move per task, each the next's pause apart
=================  =======================================================  ============================================

Within a chain, consecutive bot moves shorter than ``chain_seconds`` in all share one transaction (a person's
card is answered in one commit); with a delay asked, each move is a transaction of its own. Beat's sweep
(``tasks.resume_stalled_bot_turns``) sends a move nobody played in time to the workers, whatever its row.
"""

from __future__ import annotations

import enum

from django.conf import settings

#: The bots quick enough (well under a millisecond a move) to be played on a web process's own threads.
QUICK_LEVELS = frozenset({"easy", "normal"})


class Way(enum.Enum):
    """A row of the table: where a bot move due now is played."""

    CHAIN = "chain"
    LANE = "lane"
    EAGER = "eager"
    WORKER = "worker"
    WORKER_DELAYED = "worker_delayed"


def way(level: str, *, chaining: bool, lane_on: bool) -> Way:
    """The row for a bot move due now: ``level``, the bot's (empty: unknown, never the lane); ``chaining``:
    this thread runs a chain; ``lane_on``: this process has its bot threads."""
    if chaining:
        return Way.CHAIN
    if lane_on and level in QUICK_LEVELS and pause_seconds() <= 0:
        return Way.LANE
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return Way.EAGER
    if pause_seconds() > 0:
        return Way.WORKER_DELAYED
    return Way.WORKER


def pause_seconds() -> float:
    """``BOT_DELAY_SECONDS``: the pause a real worker makes before each bot move (eager mode never sleeps)."""
    return float(settings.BOT_DELAY_SECONDS)


def countdown() -> float | None:
    """The pause of a ``bot_move`` task sent now, if any."""
    return pause_seconds() if pause_seconds() > 0 else None


def chains() -> bool:
    """Whether a runner (a lane thread, a task) plays the bot moves its move leads to on its own thread: always
    but on a worker asked to pause before each move (``WORKER_DELAYED``: each is a task of its own)."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER) or pause_seconds() <= 0


def chain_seconds() -> float:
    """How long consecutive bot moves may run in one transaction before they are committed and shown.

    Quick bots answer a person's card in one commit (one lock, one insert, one notice); a slow one (the
    strong bot's bids) still shows its moves one by one. With ``BOT_DELAY_SECONDS`` each move is a
    transaction of its own.
    """
    if pause_seconds() > 0:
        return 0.0
    return float(settings.BOT_CHAIN_SECONDS)
