"""channels_redis's layer on a blocking connection pool.

channels_redis makes redis-py's default pool, which raises ``MaxConnectionsError`` once its connections are
all in use: one user opening 600 sockets at once got 400 HTTP 500s (each socket's ``group_add`` wanted a
connection of its own), and another user's socket failed beside them. A blocking pool of a fixed size makes
the 601st operation wait its turn (at most the pool's ``timeout``) instead; the size and the wait come from
the host's options (``max_connections``, ``timeout``; settings ``REDIS_POOL_SIZE``, ``REDIS_POOL_WAIT``).
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class BlockingPoolChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
