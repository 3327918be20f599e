"""Connection pools on the real stack: Redis's (the channel layer's and the cache's) are of a fixed size and make
a burst wait its turn rather than fail; PostgreSQL's checks a connection before handing it out."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from django.conf import settings

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

BURST = 400


def _layer(backend: str, size: int) -> Any:
    from django.utils.module_loading import import_string

    host: dict[str, Any] = {"address": settings.REDIS_URL, "max_connections": size}
    if "Blocking" in backend:
        host["timeout"] = 10
    return import_string(backend)(hosts=[host], prefix="pooltest")


async def _burst(layer: Any) -> list[BaseException]:
    results = await asyncio.gather(*(layer.group_add(f"burst{i % 7}", f"specific.x!{i}") for i in range(BURST)),
                                   return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    await layer.flush()
    return errors


async def test_the_settings_channel_layer_is_blocking_and_sized() -> None:
    from channels.layers import get_channel_layer
    from redis.asyncio import BlockingConnectionPool

    layer = get_channel_layer()
    assert layer is not None
    pool = layer.create_pool(0)
    assert isinstance(pool, BlockingConnectionPool) and pool.max_connections == settings.REDIS_POOL_SIZE
    await pool.disconnect()


async def test_a_burst_of_group_operations_waits_for_a_connection() -> None:
    """400 sockets' ``group_add`` at once through 20 connections: all done. redis-py's default pool raised
    MaxConnectionsError past its size (the issue: 400 of 600 sockets refused with HTTP 500)."""
    assert await _burst(_layer("callbreak_site.channel_layer.BlockingPoolChannelLayer", 20)) == []
    errors = await _burst(_layer("channels_redis.core.RedisChannelLayer", 20))
    assert errors and all("connection" in str(e).lower() for e in errors)  # what the blocking pool prevents


async def test_a_message_is_received_with_one_command_and_no_backup_queue() -> None:
    """The site's layer pops a message and nothing else: channels_redis's backup queue (a script, a ZADD and a
    ZPOPMIN around each message) is not written. Messages still arrive in order, one by one."""
    layer = _layer("callbreak_site.channel_layer.BlockingPoolChannelLayer", 5)
    channel = await layer.new_channel()
    for n in range(3):
        await layer.send(channel, {"type": "hello", "n": n})
    assert [(await layer.receive(channel))["n"] for _ in range(3)] == [0, 1, 2]
    real_channel = layer.non_local_name(channel)
    connection = layer.connection(layer.consistent_hash(real_channel))
    assert await connection.exists(layer._backup_channel_name(layer.prefix + real_channel)) == 0
    await layer.flush()


def test_a_burst_of_cache_operations_waits_for_a_connection() -> None:
    """12 threads each holding a connection for 0.2 s (a blocking pop) through 4 connections: all served by the
    blocking pool, in turn; redis-py's default pool refuses those past 4 ("Too many connections")."""
    from django.core.cache.backends.redis import RedisCache

    def burst(options: dict[str, Any]) -> list[Exception]:
        cache = RedisCache(settings.REDIS_URL, {"OPTIONS": options, "KEY_PREFIX": "pooltest"})
        errors: list[Exception] = []
        barrier = threading.Barrier(12)

        def one() -> None:
            barrier.wait()
            try:
                cache._cache.get_client(write=True).blpop(["pooltest:nothing"], timeout=0.2)
            except Exception as err:  # counted: the test says which pool has them
                errors.append(err)

        threads = [threading.Thread(target=one) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        return errors

    blocking = dict(settings.CACHES["default"]["OPTIONS"], max_connections=4)
    assert blocking["pool_class"] == "redis.BlockingConnectionPool" and blocking["timeout"] >= 1
    assert burst(blocking) == []
    refused = burst({"max_connections": 4})
    assert refused and all("MaxConnections" in type(e).__name__ or "connections" in str(e) for e in refused)


def test_a_pool_whose_connections_all_died_hands_one_out_soon_after_the_database_is_back() -> None:
    """A pool of four connections, all terminated again and again for 3 s (a restart, a fail-over): a connection
    asked for during the storm comes within 2 s of its end. With psycopg_pool's own delays (1, 2, 4, 8 s … between
    the checks of one wait) it came 11–14 s after it, and a bot move waited out DATABASE_POOL_WAIT
    (callbreak_site/dbpool.py, which the settings apply)."""
    import psycopg
    from django.db import connection
    from psycopg_pool import ConnectionPool

    name = f"pooltest-{threading.get_ident()}"
    wanted = ("dbname", "user", "password", "host", "port")
    params = {k: v for k, v in connection.get_connection_params().items() if k in wanted}
    pool = ConnectionPool("", min_size=1, max_size=8, timeout=20, open=True, check=ConnectionPool.check_connection,
                          kwargs={**params, "application_name": name})
    try:
        held = [pool.getconn() for _ in range(4)]
        for conn in held:
            pool.putconn(conn)
        stop_at = time.monotonic() + 3
        killed: list[int] = []

        def storm() -> None:
            with psycopg.connect(**params, autocommit=True) as killer:
                while time.monotonic() < stop_at:
                    row = killer.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                                         " WHERE application_name = %s", [name]).fetchone()
                    killed.append(row[0] if row else 0)
                    time.sleep(0.02)

        killer = threading.Thread(target=storm)
        killer.start()
        time.sleep(0.3)
        with pool.connection() as conn:
            conn.execute("SELECT 1")
            after_the_storm = time.monotonic() - stop_at
        killer.join()
        assert sum(killed) >= 4
        assert after_the_storm < 2.0, after_the_storm
    finally:
        pool.close()
