"""The PostgreSQL pool's retries: 0.05 s apart at first, never more than 0.2 s apart.

psycopg_pool (3.3) waits 1, 2, 4, 8, 16 s … between the attempts of one wait: between the health checks of the
connections it hands out, and between its attempts to connect. When the database closes every connection at
once (a restart, a fail-over, ``pg_terminate_backend``), a pool holds several dead ones, oldest first, and a
request or a bot move checked them one by one, sleeping longer after each: after a 3-second storm of terminated
backends it got a connection 11–14 s after the storm's end (or gave up at ``DATABASE_POOL_WAIT``), though the
database had been back all that time. With the delays capped, each dead connection costs at most 0.2 s (a pool
of four: a connection under a second after the storm). A pool whose database is down tries to connect five
times a second, each try a refused connection: cheap beside a request or a bot move kept waiting after the
database is back.
Applied by the settings (``callbreak_site/settings.py``) when the database is PostgreSQL.
"""

from __future__ import annotations

from typing import Any

#: The first retry's delay, and the longest any retry waits (seconds).
FIRST_DELAY = 0.05
MAX_DELAY = 0.2


def steady_retries() -> None:
    """Cap the delays of every psycopg pool of this process (idempotent; before or after the pools exist)."""
    from psycopg_pool.base import AttemptWithBackoff

    if getattr(AttemptWithBackoff, "_callbreak_capped", False):
        return
    exponential = AttemptWithBackoff.update_delay

    def update_delay(self: Any, now: float) -> None:
        exponential(self, now)
        self.delay = min(self.delay, MAX_DELAY)

    AttemptWithBackoff.INITIAL_DELAY = FIRST_DELAY
    AttemptWithBackoff.update_delay = update_delay  # type: ignore[method-assign]
    AttemptWithBackoff._callbreak_capped = True  # type: ignore[attr-defined]
