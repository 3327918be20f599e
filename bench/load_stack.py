"""The crowd benchmark's stack (``bench/load.py --start``, ``bench/soak.py``): the real stack on loopback, a fresh
PostgreSQL database and Redis database, ``make serve``'s server, a Celery worker and beat, each process in a session
of its own so that stopping it ends its children; started and awaited through ``tests/stack.py`` as the tests do."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.stack import free_port, http_answers, stop, wait_until  # noqa: E402


@dataclass
class Stack:
    """The real stack on loopback, started and stopped by this script."""

    web: int
    workers: int
    pg_admin: str = "postgres://postgres@127.0.0.1:5432/postgres"
    redis_base: str = "redis://127.0.0.1:6379"
    port: int = field(default_factory=free_port)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    db_name: str = field(default_factory=lambda: f"callbreak_load_{os.getpid()}")
    redis_db: int = field(default_factory=lambda: int(os.environ.get("LOAD_REDIS_DB", "15")))
    logs: Path = field(default_factory=lambda: Path(f"/tmp/callbreak-load-{os.getpid()}"))
    worker_metrics_port: int = field(default_factory=free_port)
    bots_after: float = 20.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        base = self.pg_admin.rsplit("/", 1)[0]
        return {
            "QUICK_MATCH_BOTS_AFTER": str(self.bots_after),
            **os.environ,
            "DATABASE_URL": f"{base}/{self.db_name}",
            "REDIS_URL": f"{self.redis_base}/{self.redis_db}",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "BOT_DELAY_SECONDS": "0",
            "HTTPS": "0",
            # every simulated person signs up from 127.0.0.1: the per-address sign-up limit is for the internet
            "RATE_LIMIT_SIGNUP": "100000/hour",
            # at think time 0 a simulated person acts faster than any person can (8 a second and more): the
            # per-person limits on actions and API calls (5 a second sustained) would throttle the benchmark itself
            "RATE_LIMIT_ACTION": "1000/s",
            "RATE_LIMIT_ACTION_SUSTAINED": "100000/min",
            "RATE_LIMIT_API": "100000/min",
            "WEB_CONCURRENCY": str(self.web),
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "LOG_LEVEL": "WARNING",
            "WORKER_METRICS_PORT": str(self.worker_metrics_port),
        }

    def commands(self) -> dict[str, list[str]]:
        """The command of each process the stack runs (web, worker, beat)."""
        return {
            "web": [str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py", "callbreak_site.asgi:application"],
            "worker": [str(BIN / "celery"), "-A", "callbreak_site", "worker", "-l", "warning",
                       "-c", str(self.workers), "-n", f"load{os.getpid()}@%h"],
            "beat": [str(BIN / "celery"), "-A", "callbreak_site", "beat", "-l", "warning",
                     "--schedule", str(self.logs / "beat-schedule")],
        }

    def _psql(self, sql: str) -> None:
        subprocess.run(["psql", self.pg_admin, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True,
                       stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}"')
        self._psql(f'CREATE DATABASE "{self.db_name}"')
        subprocess.run(["redis-cli", "-u", f"{self.redis_base}/{self.redis_db}", "FLUSHDB"], check=True,
                       stdout=subprocess.DEVNULL)
        env = self.env()
        subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        subprocess.run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                       env=env, check=True)
        for name, cmd in self.commands().items():
            log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
            metrics_dir = self.logs / f"metrics-{name}"  # each process tree adds up its processes' samples
            shutil.rmtree(metrics_dir, ignore_errors=True)
            metrics_dir.mkdir()
            proc_env = {**env, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
            self.procs[name] = subprocess.Popen(cmd, cwd=ROOT, env=proc_env, stdout=log, stderr=subprocess.STDOUT,
                                                start_new_session=True)
        web_log = self.logs / "web.log"
        try:
            wait_until(http_answers(f"{self.url}/api/leaderboard/", (200, 401, 403)), "the server",
                       proc=self.procs["web"], log=web_log, every=0.3)
        except RuntimeError as err:
            raise SystemExit(f"the server did not come up; see {web_log}\n{err}") from None

    def stop(self, keep_db: bool = False) -> None:
        for proc in self.procs.values():
            stop(proc, group=True)
        if keep_db:
            print(f"database kept: {self.db_name}", file=sys.stderr)
            return
        try:
            self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        except subprocess.CalledProcessError:
            print(f"could not drop the database {self.db_name}", file=sys.stderr)
