"""Quick bots played in the web process that committed the move they answer, on a few threads of its own
(the ``LANE`` row of ``ways``).

A ``normal`` or ``easy`` bot decides in well under a millisecond, but as a Celery task its answer to a person's
card cost a broker round (the web sends, a worker receives and acknowledges) and, in a worker process that had
not seen the match's last moves, a read and replay of the log: about as much CPU as the person's action itself.
Here the process that has the state in its cache plays the bots' answer right after the commit, on one of
``BOT_LANE_THREADS`` threads (never on the thread of the person's request or socket, whose answer does not
wait). Slow bots (``hard``) and delayed bots (``BOT_DELAY_SECONDS``) still go to the workers, and so does a
move the lane could not play (its task retries as any other). A move the lane holds dies with its process: beat's
sweep (``tasks.resume_stalled_bot_turns``) sends it to the workers once it is owed, ``BOT_OWED_SECONDS`` after
its commit, within ``BOT_SWEEP_SECONDS`` more (3 + 5 s by default).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

from games.matches import commands
from games.platform import metrics

from . import chain

log = logging.getLogger(__name__)

_lane: ThreadPoolExecutor | None = None


def use() -> None:
    """Play quick bots in this process from now on (gunicorn's ``post_worker_init`` calls this in web
    processes, ``callbreak_site/gunicorn_conf.py``)."""
    global _lane
    if _lane is None and settings.BOT_LANE_THREADS > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
        _lane = ThreadPoolExecutor(max_workers=settings.BOT_LANE_THREADS, thread_name_prefix="bots")


def on() -> bool:
    """Whether this process has its bot threads (``use`` was called, and they may run here)."""
    return _lane is not None


def submit(match_id: int, seq: int, fallback: Callable[[int, int, float], None]) -> None:
    """Play the bot move due at ``seq`` (and those it leads to) on the lane; ``fallback`` sends it as a task
    if the lane cannot play it."""
    assert _lane is not None
    _lane.submit(_play, match_id, seq, time.time(), fallback)


def _play(match_id: int, seq: int, sent_at: float, fallback: Callable[[int, int, float], None]) -> None:
    close_old_connections()
    try:
        played = chain.run(commands.play_bot_turn, match_id, seq)
    except Exception:
        log.warning("bot move of match %s at seq %s left to the workers", match_id, seq, exc_info=True)
        fallback(match_id, seq, sent_at)
        return
    finally:
        close_old_connections()  # the thread's connection goes back to the pool
    if played:
        metrics.BOT_MOVES.inc(played)
        metrics.BOT_REPLY_SECONDS.observe(max(0.0, time.time() - sent_at))
