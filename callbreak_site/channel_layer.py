"""channels_redis's layer on a blocking connection pool, receiving each message with one command.

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

    # A message is popped once, without channels_redis's backup queue. The backup (a cleanup script before each
    # wait, a ZADD after each message and a ZPOPMIN once it is handled: four commands a message instead of one)
    # keeps a message whose receive was cancelled in the instant it arrived; it was 40% of a web process's event
    # loop under a crowd (py-spy --gil). Such a message is rare and nothing here depends on it: a socket that
    # misses a message reads the match when the next one does not follow (games.matches.consumers), the table
    # resyncs by seq when its socket is silent, and the user socket's rows are refreshed by the next one.

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        result = await self.connection(index).bzpopmin(channel, timeout=timeout)
        return None if result is None else result[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        return None
