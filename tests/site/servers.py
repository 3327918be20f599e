"""A real web server for a test: gunicorn with one Uvicorn worker, as `make serve` runs it (DEBUG off), on a
free port, its own SQLite file migrated once, its output (error and access logs) in a file to read."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.stack import BIN, ROOT, free_port, http_answers, running

__all__ = ["BIN", "ROOT", "Server", "embedded_env", "free_port", "migrated_sqlite", "run_django", "web_server"]


def embedded_env(sqlite: Path, **extra: str) -> dict[str, str]:
    """The environment of a server process on ``sqlite``: no PostgreSQL, no Redis (tasks eager)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL",
                                                            "DATABASE_POOL_MAX", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="callbreak_site.settings", SQLITE_PATH=str(sqlite), DEBUG="0",
               SECRET_KEY="x" * 50, ALLOWED_HOSTS="127.0.0.1", HTTPS="0", RATE_LIMITS="0", **extra)
    return env


def migrated_sqlite(folder: Path) -> Path:
    path = folder / "server.sqlite3"
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=embedded_env(path), check=True, timeout=300)
    return path


def run_django(sqlite: Path, code: str) -> str:
    """Run ``code`` (Python, Django set up) against the server's database; its standard output."""
    script = "import django; django.setup()\n" + code
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=embedded_env(sqlite), check=True,
                          capture_output=True, text=True, timeout=120)
    return done.stdout.strip()


@dataclass
class Server:
    url: str
    port: int
    log: Path
    proc: subprocess.Popen[bytes]

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def web_server(sqlite: Path, log: Path, **extra: str) -> Iterator[Server]:
    """`make serve`'s gunicorn (callbreak_site/gunicorn_conf.py, one Uvicorn worker) until the block ends."""
    port = free_port()
    env = embedded_env(sqlite, WEB_CONCURRENCY="1", HOST="127.0.0.1", PORT=str(port), **extra)
    url = f"http://127.0.0.1:{port}"
    with running([str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py", "callbreak_site.asgi:application"],
                 env=env, log=log, ready=http_answers(f"{url}/api/leaderboard/"), what="gunicorn",
                 stop_timeout=30) as proc:
        yield Server(url, port, log, proc)
