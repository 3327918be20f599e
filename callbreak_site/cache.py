"""Django's Redis cache with one connection pool per process, and a breaker for a Redis that is away.

Django keeps a cache object per request context under ASGI (``caches`` is context-local), and each
object made its own connection pool: every request opened a new Redis connection (TCP and ``HELLO``)
for its first rate-limit count, a third of the time of a request's checks under load. Here the pools
live in the process, keyed by server and options, and every cache object of the process uses them.
redis-py's pools are thread-safe and start afresh in a forked child.

While Redis is away each cache call waited for its own timeout (1 s), several a request: an anonymous
profile view cost about a second. After a connection fails (refused, reset, timed out) the breaker stays
open for ``CACHE_RETRY_SECONDS`` (5): every cache call of the process fails at once with
``CacheUnavailable``, and the first call after that tries Redis again. Meanwhile ``get`` and ``set`` use the
process's memory, and the rate limits count there (``games.platform.ratelimit``).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

_POOLS: dict[tuple[str, str], Any] = {}
_LOCK = threading.Lock()


class CacheUnavailable(RedisConnectionError):
    """Redis failed a moment ago: not asked again before the breaker closes."""


class Breaker:
    """Open for ``seconds`` after a failure; shared by every cache connection of the process."""

    def __init__(self) -> None:
        self.until = 0.0

    def seconds(self) -> float:
        return float(settings.CACHE_RETRY_SECONDS)

    def is_open(self) -> bool:
        return time.monotonic() < self.until

    def trip(self) -> None:
        self.until = time.monotonic() + self.seconds()

    def reset(self) -> None:
        self.until = 0.0


BREAKER = Breaker()
_FAULTS = (RedisConnectionError, RedisTimeoutError, OSError)


class BreakerConnection(Connection):
    """redis-py's connection, failing at once while the breaker is open and opening it when Redis fails."""

    def connect(self) -> None:
        if BREAKER.is_open():
            raise CacheUnavailable("Redis did not answer a moment ago; not tried again yet.")
        try:
            super().connect()  # type: ignore[no-untyped-call]
        except _FAULTS:
            BREAKER.trip()
            raise

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        if BREAKER.is_open():
            self.disconnect()  # type: ignore[no-untyped-call]
            raise CacheUnavailable("Redis did not answer a moment ago; not tried again yet.")
        try:
            super().send_packed_command(command, check_health)  # type: ignore[no-untyped-call]
        except _FAULTS:
            BREAKER.trip()
            raise

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)
        except _FAULTS:
            BREAKER.trip()
            raise


class SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write: bool) -> Any:
        client: Any = self  # Django's private attributes, which the stubs do not declare
        index = client._get_connection_pool_index(write)
        server = client._servers[index]
        key = (server, repr(sorted(client._pool_options.items())))
        pool = _POOLS.get(key)
        if pool is None:
            with _LOCK:
                pool = _POOLS.get(key)
                if pool is None:
                    pool = _POOLS[key] = client._pool_class.from_url(
                        server, connection_class=BreakerConnection, **client._pool_options)
        return pool


_LOCAL = LocMemCache("callbreak-fallback", {"OPTIONS": {"MAX_ENTRIES": 10_000}})


class SharedPoolRedisCache(RedisCache):
    """While Redis is away, ``get`` and ``set`` use this process's memory instead (what is cached here can be
    computed again: a profile's stats, under a key that names what they were computed from); the rate limits
    count in memory by themselves (``games.platform.ratelimit``)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except _FAULTS:
            return _LOCAL.get(self.make_key(key, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except _FAULTS:
            _LOCAL.set(self.make_key(key, version), value, timeout)
