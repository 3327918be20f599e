"""The bot chain: consecutive bot moves played in one thread, without a trip through the broker each.

``run`` plays the bot move due and then every bot move it leads to: the reactions to its commits find the chain
running (``running``, the ``CHAIN`` row of ``ways``) and ``queue`` the next move here instead of sending a task,
so a person's card is answered in the time the bots take to decide. In eager mode this also keeps a whole
bot-only match off the stack: the moves run as a loop, not as tasks nested in each other's after-commit
reactions. A worker asked to pause before each move (``ways.chains`` false) plays only the one.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from . import ways

_local = threading.local()


def running() -> bool:
    """Whether this thread runs a chain now (a move due joins it)."""
    return getattr(_local, "pending", None) is not None


def queue(match_id: int, seq: int) -> None:
    """Queue the bot move due at ``seq`` on this thread's chain (``running`` must be true)."""
    _local.pending.append((match_id, seq))


def run(play: Callable[[int, int], int], match_id: int, seq: int) -> int:
    """Play the bot move due at ``seq`` with ``play`` and every bot move queued after it; returns how many
    were played. Inside a chain already, it only queues the move."""
    if running():
        queue(match_id, seq)
        return 0
    _local.pending = deque() if ways.chains() else None
    played = 0
    try:
        played += play(match_id, seq)
        while _local.pending:
            played += play(*_local.pending.popleft())
    finally:
        _local.pending = None
    return played
