"""Faults on the real stack (PostgreSQL, Redis, real Celery processes): a worker killed with SIGKILL in the
middle of the bots' moves, Redis restarted during play, the database connection broken during an action.
The match goes on to a consistent end each time (its log replays to its row), and a broken request answers
a clean 503, with nothing half-saved.

The Redis restart uses a Redis server of its own on a free port (the shared one serves other runs)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from site_helpers import client_for

from games.matches import commands, store
from games.matches.commands import SeatSpec
from games.models import Action, Match
from tests import stack
from tests.stack import log_says

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
BOTS = [SeatSpec(bot="hard"), SeatSpec(bot="easy"), SeatSpec(bot="normal"), SeatSpec(bot="easy")]


def _env(redis_url: str | None = None) -> dict[str, str]:
    from django.conf import settings

    db = connection.settings_dict
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
                     f"{db['NAME']}",
        REDIS_URL=redis_url or settings.REDIS_URL, DJANGO_SETTINGS_MODULE="callbreak_site.settings",
        CELERY_TASK_ALWAYS_EAGER="0", BOT_SWEEP_SECONDS="1", BOT_DELAY_SECONDS="0",
    )
    env.pop("DATABASE_POOL_MAX", None)
    return env


class Celery:
    """A `celery` process (worker or beat) for one test, its output in test-artifacts/."""

    def __init__(self, name: str, args: list[str], ready: str, env: dict[str, str]) -> None:
        self.log = ROOT / "test-artifacts" / f"faults-{name}-{os.getpid()}-{time.monotonic_ns()}.log"
        self.proc = stack.start([sys.executable, "-m", "celery", "-A", "callbreak_site", *args], env=env,
                                log=self.log, ready=log_says(self.log, ready), what=f"celery {name}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=20)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def worker(env: dict[str, str]) -> Celery:
    return Celery("worker", ["worker", "-P", "solo", "-l", "info", "--without-gossip", "--without-mingle",
                             "-n", f"faults-{os.getpid()}-{time.monotonic_ns()}@%h"], "ready.", env)


def beat(env: dict[str, str], tmp_path: Path) -> Celery:
    return Celery("beat", ["beat", "-l", "info", "--schedule", str(tmp_path / f"beat-{time.monotonic_ns()}")],
                  "beat: Starting", env)


def _seq(match_id: int) -> int:
    return int(Match.objects.values_list("seq", flat=True).get(pk=match_id))


def wait_until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def assert_consistent(match_id: int) -> None:
    """The stored log has no gap or duplicate and replays to the match row."""
    match = Match.objects.get(pk=match_id)
    seqs = list(Action.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(len(seqs))) and len(seqs) == match.seq
    store.STATES.clear()
    assert store.state_of(match).version == match.seq


def test_a_worker_killed_mid_move_is_recovered(tmp_path: Path) -> None:
    env = _env()
    import redis

    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    first, sweeper = worker(env), beat(env, tmp_path)
    second = None
    try:
        match = commands.create_match(seats=BOTS)  # bots only: the worker plays it all
        wait_until(lambda: _seq(match.pk) >= 8, 120, "the bots to start")
        first.kill()  # SIGKILL, in the middle of the chain of moves (each hard move takes a while)
        assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
        stopped_at = _seq(match.pk)
        # nobody plays while no worker runs: beat's sweep queues the owed move, and it waits there untaken
        queue = redis.Redis.from_url(env["REDIS_URL"])
        wait_until(lambda: queue.llen("celery") > 0, 60, "beat's sweep to queue the owed bot move")
        assert _seq(match.pk) == stopped_at
        second = worker(env)
        wait_until(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, 600, "the match to end")
        assert_consistent(match.pk)
    finally:
        for proc in (first, second, sweeper):
            if proc is not None:
                proc.stop()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """A Redis server of this test's own, and a function that restarts it (same port, data dropped)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    state: dict[str, subprocess.Popen[bytes]] = {}

    def start() -> None:
        state["proc"] = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                          "--appendonly", "no", "--dir", str(tmp_path)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)

    def restart(down_until: Any) -> None:
        """Stopped until ``down_until()`` says its absence was met, then started again."""
        state["proc"].terminate()
        state["proc"].wait(timeout=10)
        wait_until(down_until, 60, "Redis to be missed")
        start()

    start()
    try:
        yield f"redis://127.0.0.1:{port}/0", restart
    finally:
        state["proc"].terminate()
        state["proc"].wait(timeout=10)


def test_redis_restarted_during_play(own_redis: tuple[str, Any], tmp_path: Path) -> None:
    url, restart = own_redis
    env = _env(url)
    procs = [worker(env), beat(env, tmp_path)]
    try:
        match = commands.create_match(seats=BOTS)  # its first task went to this process's broker: the sweep finds it
        wait_until(lambda: _seq(match.pk) >= 4, 120, "the bots to start")
        # every queued task and group is lost with it; down until the worker has met its absence (a refused
        # connection, to the broker or the channel layer)
        refused = procs[0].log.read_text().count("[Errno 111]")
        restart(down_until=lambda: procs[0].log.read_text().count("[Errno 111]") > refused)
        wait_until(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, 600, "the match to end")
        assert_consistent(match.pk)
        assert all(p.proc.poll() is None for p in procs), "a process died with Redis"
    finally:
        for p in procs:
            p.stop()


def test_a_database_connection_broken_during_an_action(make_user: Any) -> None:
    import psycopg

    user = make_user("frieda")
    match = commands.create_match(seats=[SeatSpec(user=user), SeatSpec(user=make_user("gus")),
                                         SeatSpec(user=make_user("hedy")), SeatSpec(user=make_user("ivo"))])
    match = Match.objects.get(pk=match.pk)
    mover = match.seats.get(index=match.turn).user
    api = client_for(mover)
    view = api.get(f"/api/matches/{match.pk}/").json()
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid  # the connection the next request will use
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"] or "postgres",
                         dbname=db["NAME"], autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (pid,))
    body = {"seq": view["seq"], "bid": 3}
    r = api.post(f"/api/matches/{match.pk}/actions/", body, format="json")
    assert r.status_code == 503 and r.json()["code"] == "unavailable" and r["Retry-After"] == "1"
    # what the end of every request does on a server (the test client leaves it out): drop a broken connection
    connection.close_if_unusable_or_obsolete()
    r = api.post(f"/api/matches/{match.pk}/actions/", body, format="json")  # a new connection: it works
    assert r.status_code == 200 and r.json()["seq"] == view["seq"] + 1
    assert_consistent(match.pk)
