"""The bot chain: consecutive bot turns played in one thread, without a trip through the broker each.

``run`` plays the bot move due and then every bot move it leads to: the reactions to its commits call
``queue_if_chaining``, which queues the next move here instead of sending a task, so a person's card is
answered in the time the bots take to decide. With ``BOT_DELAY_SECONDS`` a real worker sends each move as
a task with that pause instead. In eager mode this also keeps a whole bot-only match off the stack: the
moves run as a loop, not as tasks nested in each other's after-commit reactions.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from django.conf import settings

_local = threading.local()


def queue_if_chaining(match_id: int, seq: int) -> bool:
    """Queue the bot move due at ``seq`` on this thread's chain, if one runs; False if none does."""
    pending = getattr(_local, "pending", None)
    if pending is None:
        return False
    pending.append((match_id, seq))
    return True


def run(play: Callable[[int, int], int], match_id: int, seq: int) -> int:
    """Play the bot move due at ``seq`` with ``play`` and every bot move queued after it; returns how many
    were played. Inside a chain already, it only queues the move."""
    if queue_if_chaining(match_id, seq):
        return 0
    chaining = settings.CELERY_TASK_ALWAYS_EAGER or settings.BOT_DELAY_SECONDS <= 0
    _local.pending = deque() if chaining else None
    played = 0
    try:
        played += play(match_id, seq)
        while _local.pending:
            played += play(*_local.pending.popleft())
    finally:
        _local.pending = None
    return played


def chain_seconds() -> float:
    """How long consecutive bot moves may run in one transaction before they are committed and shown.

    Quick bots answer a person's card in one commit (one lock, one insert, one notice); a slow one (the
    strong bot's bids) still shows its moves one by one. With ``BOT_DELAY_SECONDS`` each move is a task
    of its own, so it is one move per transaction.
    """
    if settings.BOT_DELAY_SECONDS > 0:
        return 0.0
    return float(settings.BOT_CHAIN_SECONDS)
