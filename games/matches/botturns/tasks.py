"""The bot turns' Celery tasks: thin, idempotent, taking ids only.

``bot_move(match_id, seq)`` plays the bot move due at ``seq`` (and the bot moves it leads to, see ``chain``):
a redelivery or a task for an old ``seq`` finds the match moved on and does nothing. ``resume_stalled_bot_turns``
is beat's recovery sweep. Task names stay ``games.tasks.<function>``, as brokers and beat's schedule know them.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from redis.exceptions import RedisError

from games.matches import commands, reads
from games.platform import metrics, outbox
from games.platform.task_options import DB_RETRY

from . import chain, ways

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.bot_move", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             **DB_RETRY)
def bot_move(self: Any, match_id: int, seq: int, sent_at: float | None = None) -> bool:
    """Play the bot move due at ``seq`` and the bot moves that follow it (``sent_at``: when the task was sent,
    for the bots' reply latency). A retry goes on from the match's current ``seq``: the fault may have struck
    moves after ``seq`` in the chain."""
    if self.request.retries:
        seq = reads.current_seq(match_id, default=seq)
    played = chain.run(commands.play_bot_turn, match_id, seq)
    if played:
        metrics.BOT_MOVES.inc(played)
        if sent_at is not None:
            metrics.BOT_REPLY_SECONDS.observe(max(0.0, time.time() - sent_at))
    return played > 0


def send(match_id: int, seq: int, sent_at: float) -> None:
    """A ``bot_move`` task for the move due at ``seq``: after ``BOT_DELAY_SECONDS`` with a broker
    (``WORKER_DELAYED``), at once (``WORKER``), run here and now in eager mode (``EAGER``)."""
    outbox.task_now(bot_move, match_id, seq, sent_at, countdown=ways.countdown(), eager="inline")


#: A bot move the sweeps sent again is not sent again for this long: while the workers are behind, each sweep
#: would otherwise add one more task per waiting match to the queue they are behind on.
RESEND_SECONDS = 15


@shared_task(name="games.tasks.resume_stalled_bot_turns", acks_late=True, ignore_result=True, **DB_RETRY)
def resume_stalled_bot_turns(within: float | None = None) -> int:
    """Beat's recovery sweeps: a bot move owed for ``BOT_OWED_SECONDS`` (past ``BOT_DELAY_SECONDS``) goes to the
    workers as a task. Such a move was lost: its web process died before its bot lane played it, or its task
    died with a worker or the broker. ``within``: only the matches written in the last so many seconds (the
    sweep every ``BOT_SWEEP_SECONDS``, which reads few rows); None: all (the sweep every minute, for a move owed
    longer). Idempotent by ``seq``, as every bot task: the move is played once, whoever gets there first. Returns
    how many moves were sent."""
    now = timezone.now()
    owed_after = settings.BOT_OWED_SECONDS + max(settings.BOT_DELAY_SECONDS, 0.0)
    since = None if within is None else now - timedelta(seconds=within)
    sent = 0
    for match_id, seq in reads.waiting_on_a_bot(settled_before=now - timedelta(seconds=owed_after), since=since):
        if _first_resend(match_id, seq):
            outbox.task_now(bot_move, match_id, seq, time.time())  # the delay, if any, has passed already
            sent += 1
    return sent


def _first_resend(match_id: int, seq: int) -> bool:
    """Whether the sweep has not sent this move in the last ``RESEND_SECONDS`` (a cache that cannot answer:
    send it; a duplicate plays nothing)."""
    try:
        return bool(cache.add(f"bot-owed:{match_id}:{seq}", 1, timeout=RESEND_SECONDS))
    except (RedisError, OSError):
        log.warning("bot move of match %s at seq %s sent again without the cache's check", match_id, seq,
                    exc_info=True)
        return True
