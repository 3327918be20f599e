"""Where state lives: the database and its pool, Redis for the channel layer, and the shared cache.

Nothing set gives the embedded mode (a SQLite file, an in-memory channel layer, this process's memory as the
cache); ``DATABASE_URL`` switches to PostgreSQL and ``REDIS_URL`` to channels_redis and a Redis cache (and, in
config/tasks.py, a Redis broker for a real ``celery worker``).
"""

from __future__ import annotations

from typing import Any

import dj_database_url

from .env import env_float, env_int, env_str
from .framework import BASE_DIR

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", "")
DATABASES: dict[str, Any]
if DATABASE_URL:
    # CONN_HEALTH_CHECKS: a connection is checked before it is handed out (psycopg_pool's check_connection with
    # the pool), so one the database closed (a restart, pg_terminate_backend) is replaced, not given to a request
    # or a bot move to fail on.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
    # A connection pool per process (psycopg_pool): a request or a socket's view borrows an open
    # connection instead of opening one (a few ms each over loopback, far more over a network).
    # DATABASE_POOL_MAX=0 turns it off (each request then opens a connection of its own). Behind PgBouncer the pool
    # holds connections to PgBouncer, which lends server connections per transaction.
    # A request that finds every connection busy queues for one (first come, first served) for at most
    # DATABASE_POOL_WAIT seconds, and at most DATABASE_POOL_QUEUE requests queue; past either it answers 503 with
    # Retry-After (games.web.api_errors). Nothing holds a connection while a password is hashed
    # (games.platform.passwords).
    _pool_max = env_int("DATABASE_POOL_MAX", 8)
    if _pool_max > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1, "max_size": _pool_max, "timeout": env_float("DATABASE_POOL_WAIT", 20.0),
            "max_waiting": env_int("DATABASE_POOL_QUEUE", 1000),
        }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Parameters bound by the server, and a statement a connection has run DATABASE_PREPARE times (default 5)
        # prepared there: the few statements of an action and a bot move are then neither quoted into text by the
        # client nor parsed and planned again by PostgreSQL. DATABASE_PREPARE=0 turns preparing off (needed behind
        # a pooler in transaction mode, which may hand a prepared statement's name to another connection).
        _prepare = env_int("DATABASE_PREPARE", 5)
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=_prepare if _prepare > 0 else None)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of failing
            # with "database is locked" when a read transaction upgrades to a write.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Match states (each a replay of its log) kept in memory per process (games/matches/store.py), the latest used.
MATCH_STATE_CACHE_SIZE = 2000

# --- Redis: the channel layer (the Celery broker is in config/tasks.py) -------------------------
REDIS_URL = env_str("REDIS_URL", "")
REDIS_POOL_SIZE = env_int("REDIS_POOL_SIZE", 50)
REDIS_POOL_WAIT = env_float("REDIS_POOL_WAIT", 10.0)
CHANNEL_LAYERS: dict[str, dict[str, Any]]
if REDIS_URL:
    # A socket's consumer waits for its messages with BZPOPMIN, which Redis answers after 5 s when none came;
    # redis-py 8 gives up on a read after 5 s too, so a quiet socket's wait raced its own answer and, losing,
    # closed the socket. Reads may take the wait and a margin; a dead Redis still shows within 30 s.
    # Redis connections per pool (one pool per process and event loop, and the cache's per process): past them an
    # operation waits up to REDIS_POOL_WAIT seconds for one instead of failing (redis-py's default pool raised
    # MaxConnectionsError past 100, and a burst of sockets got HTTP 500s). Redis takes 10,000 clients by default.
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "callbreak_site.channel_layer.BlockingPoolChannelLayer",
                    "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5,
                                          "max_connections": REDIS_POOL_SIZE, "timeout": REDIS_POOL_WAIT}]}}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Cache ------------------------------------------------------------------------------------
# The cache holds what every web process must share (rate-limit counters, cached profile stats): Redis when
# REDIS_URL (or CACHE_URL) is set, this process's memory otherwise (`make run`, tests: one process).
CACHE_URL = env_str("CACHE_URL", REDIS_URL)
# After Redis fails (refused, timed out), the cache does not try it again for this many seconds: its calls fail
# at once and fall back to this process's memory (callbreak_site/cache.py), instead of each waiting a timeout.
CACHE_RETRY_SECONDS = env_float("CACHE_RETRY_SECONDS", 5.0)
CACHES: dict[str, dict[str, Any]]
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "callbreak_site.cache.SharedPoolRedisCache",  # one connection pool per process
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "callbreak",
            # a Redis that does not answer must not hold a request for long (callbreak_site.cache,
            # games.platform.ratelimit)
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "pool_class": "redis.BlockingConnectionPool",
                        "max_connections": REDIS_POOL_SIZE, "timeout": min(REDIS_POOL_WAIT, 2.0)},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "callbreak"}}
