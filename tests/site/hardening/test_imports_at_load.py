"""A fresh web process imports at load what its requests and sockets use (``callbreak_site.asgi``): imported
lazily, two threads importing redis at once (the cache's backend for a request, the channel layer for a socket)
made Python raise an import ``_DeadlockError``, and a socket's handshake got a 500."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from servers import ROOT, embedded_env

LOADED = ["redis", "redis.asyncio", "channels_redis.core", "callbreak_site.cache", "callbreak_site.channel_layer",
          "callbreak_site.urls", "games.urls", "kombu.transport.redis", "celery.app.amqp", "celery.app.control"]

RACE = """
import json, sys, threading, traceback
import callbreak_site.asgi
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import caches
from django.urls import resolve
from callbreak_site.celery import app

THREADS = 12
paths = [lambda: caches["default"].get("race"),  # Redis is away: answered from memory
         lambda: get_channel_layer(),
         lambda: resolve("/api/leaderboard/"),
         lambda: app.connection_for_write().get_transport_cls()]
barrier = threading.Barrier(THREADS * len(paths))
errors = []

def run(path):
    barrier.wait()
    try:
        path()
    except BaseException as err:
        errors.append("".join(traceback.format_exception(err))[-1500:])

threads = [threading.Thread(target=run, args=(path,)) for path in paths for _ in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join(60)
assert not any(thread.is_alive() for thread in threads)
print(json.dumps(errors))
"""


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _env(tmp_path: Path) -> dict[str, str]:
    """A production web process's settings on Redis (never reached: nothing here needs it to answer)."""
    return embedded_env(tmp_path / "none.sqlite3", REDIS_URL=f"redis://127.0.0.1:{_closed_port()}/0",
                        CACHE_RETRY_SECONDS="60")


def _python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_the_asgi_application_imports_redis_and_the_views_at_load(tmp_path: Path) -> None:
    code = ("import json, sys\nimport callbreak_site.asgi\n"
            f"print(json.dumps([name for name in {LOADED!r} if name not in sys.modules]))")
    assert json.loads(_python(code, _env(tmp_path))) == []


def test_threads_at_a_fresh_process_first_requests_import_nothing_at_once(tmp_path: Path) -> None:
    for _ in range(6):  # each a fresh process (before the fix, 3 in 10 raised)
        errors = json.loads(_python(RACE, _env(tmp_path)))
        assert errors == [], errors[0]
