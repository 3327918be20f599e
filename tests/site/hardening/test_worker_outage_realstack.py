"""A Celery worker outlives Redis outages (issue 39): its broker, a Redis server of the test's own, is killed
(SIGKILL) and started again on the same port while late-acked tasks are in flight, several times; the worker
process is still running afterwards and still executes a new task.

Before the fix the worker logged "Restoring N unacknowledged message(s)" and exited with
``Unrecoverable error: AttributeError("'NoneType' object has no attribute 'hostname'")`` (see
``callbreak_site.celery``). The machine's own Redis is never touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from matches.test_realstack import _celery_env, _free_port

from callbreak_site.celery import app
from hardening.outage_tasks import HOLD, TOUCH
from hardening.test_crowd_realstack import Process

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

SITE_TESTS = Path(__file__).resolve().parents[1]


class OwnRedis:
    """A throwaway ``redis-server`` on a free port (no persistence), to kill and start again."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                      "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.ConnectionError:
                assert self.proc.poll() is None and time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.02)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no goodbye to the clients
        self.proc.wait(timeout=10)


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis()
    server.start()
    try:
        yield server
    finally:
        if server.proc and server.proc.poll() is None:
            server.kill()


def _send(url: str, name: str, args: tuple[object, ...], count: int = 1) -> None:
    with app.connection_for_write(url) as conn:
        for _ in range(count):
            app.send_task(name, args=args, connection=conn)


def test_the_worker_survives_redis_killed_under_load_and_still_runs_tasks(own_redis: OwnRedis,
                                                                         tmp_path: Path) -> None:
    env = _celery_env()
    env.update(REDIS_URL=own_redis.url, CELERY_BROKER_URL=own_redis.url,
               PYTHONPATH=os.pathsep.join(filter(None, [str(SITE_TESTS), env.get("PYTHONPATH")])))
    # as production runs it: prefork, gossip, mingle and the control channel on
    worker = Process("outage-worker", [sys.executable, "-m", "celery", "-A", "callbreak_site", "worker", "-c", "2",
                                       "-l", "info", "-I", "hardening.outage_tasks",
                                       "-n", f"outage-{os.getpid()}@%h"], env)
    try:
        worker.wait_for("ready.")

        def count(text: str) -> int:
            return worker.log.read_text().count(text)

        for round_ in range(4):
            # one late-acked task held (running) while the consumer waits on BRPOP for a second one: the state a
            # busy worker is in most of the time, and the one that crashed it
            received = count(" received")
            release = tmp_path / f"release-{round_}"
            _send(own_redis.url, HOLD, (str(release), 30.0))
            deadline = time.monotonic() + 30
            while count(" received") <= received:
                assert worker.proc.poll() is None and time.monotonic() < deadline, worker.log.read_text()[-3000:]
                time.sleep(0.05)
            connected = count("Connected to redis")
            own_redis.kill()
            own_redis.start()
            deadline = time.monotonic() + 60
            while count("Connected to redis") <= connected:
                assert worker.proc.poll() is None, f"round {round_}: the worker died\n{worker.log.read_text()[-6000:]}"
                assert time.monotonic() < deadline, worker.log.read_text()[-3000:]
                time.sleep(0.1)
            release.touch()  # the held task ends and is acknowledged on the new connection

        assert worker.proc.poll() is None, worker.log.read_text()[-6000:]
        mark = tmp_path / "ran"
        _send(own_redis.url, TOUCH, (str(mark),))
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert worker.proc.poll() is None and time.monotonic() < deadline, worker.log.read_text()[-3000:]
            time.sleep(0.1)
        assert "Unrecoverable error" not in worker.log.read_text()
    finally:
        worker.stop()
