"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per request context under ASGI (``caches`` is context-local), and each
object made its own connection pool: every request opened a new Redis connection (TCP and ``HELLO``)
for its first rate-limit count, a third of the time of a request's checks under load. Here the pools
live in the process, keyed by server and options, and every cache object of the process uses them.
redis-py's pools are thread-safe and start afresh in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_POOLS: dict[tuple[str, str], Any] = {}
_LOCK = threading.Lock()


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
                    pool = _POOLS[key] = client._pool_class.from_url(server, **client._pool_options)
        return pool


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
