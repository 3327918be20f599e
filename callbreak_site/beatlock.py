"""One beat for the whole site, however many machines run one.

Beat sends the periodic sweeps (owed bot moves, deadlines, pairing runs). Two beats would send each twice: every
task is idempotent, so nothing breaks, but the sweeps' load doubles and a second schedule hides the first. So a
beat holds a lease in Redis (the broker every beat shares): ``SET key token NX PX ttl``, renewed every third of
the lease by a thread of its own. A beat that finds the lease held by another refuses to run (it exits with
``LEASE_HELD``; ``bin/supervise`` or the orchestrator starts it again later, so it is a standby that takes over
within a lease of the holder's death). A beat that loses its lease (Redis emptied, a pause longer than the lease)
stops its loop. While Redis is away, a beat waits for it, as its broker connection does.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
import uuid
from typing import Any

logger = logging.getLogger("callbreak_site.beatlock")

KEY = "callbreak:beat:lease"
LEASE_HELD = 3  # the exit status of a beat that found another beat's lease

# Renew only a lease that is still ours: compare and extend in one step.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""


class BeatLease:
    """This beat's lease: taken once at start, renewed until the process ends or another holds it."""

    def __init__(self, url: str, ttl: float) -> None:
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.ttl_ms = max(1000, int(ttl * 1000))
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._renew = self.client.register_script(_RENEW)

    def holder(self) -> str | None:
        raw = self.client.get(KEY)
        return raw.decode() if isinstance(raw, bytes) else raw

    def take(self) -> bool:
        """True once taken; False when another beat holds it. Waits while Redis cannot be reached."""
        import redis

        while True:
            try:
                return bool(self.client.set(KEY, self.token, nx=True, px=self.ttl_ms))
            except redis.RedisError as exc:
                logger.warning("beat lease: Redis unreachable (%s); waiting", exc)
                time.sleep(1)

    def renew(self) -> bool:
        """Extend our lease; take it again if it lapsed and nobody else took it. False: another beat has it."""
        if self._renew(keys=[KEY], args=[self.token, self.ttl_ms]):
            return True
        return bool(self.client.set(KEY, self.token, nx=True, px=self.ttl_ms))

    def release(self) -> None:
        import contextlib

        import redis

        with contextlib.suppress(redis.RedisError):
            if self.holder() == self.token:
                self.client.delete(KEY)

    def keep(self, service: Any) -> threading.Thread:
        """Renew every third of the lease until the process ends; stop ``service`` (beat's loop) if it is lost."""
        import redis

        def run() -> None:
            while True:
                time.sleep(self.ttl_ms / 3000)
                try:
                    if not self.renew():
                        logger.error("beat lease: held by %s now; this beat stops", self.holder())
                        service.stop()
                        return
                except redis.RedisError as exc:
                    logger.warning("beat lease: could not renew (%s); trying again", exc)

        thread = threading.Thread(target=run, name="beat-lease", daemon=True)
        thread.start()
        return thread


def hold_or_refuse(service: Any, url: str, ttl: float) -> BeatLease:
    """At beat's start: take the lease or exit with ``LEASE_HELD``."""
    import atexit

    lease = BeatLease(url, ttl)
    if not lease.take():
        logger.error("beat lease: another beat runs the schedule (%s); this one refuses to run", lease.holder())
        sys.exit(LEASE_HELD)
    logger.warning("beat lease: taken by %s for %.0f s, renewed while this beat runs", lease.token, ttl)
    atexit.register(lease.release)
    lease.keep(service)
    return lease
