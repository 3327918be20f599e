"""A flash crowd and a database that drops every connection, on the real stack (PostgreSQL, Redis, gunicorn with
Uvicorn workers as `make serve` runs it, a prefork Celery worker):

- 200 people sign up and start a match at the same moment: every answer is a 201 (120 of 200 got 503 when a
  sign-up held its pooled connection while it hashed the password);
- the database's backends are terminated in the middle of play (pg_terminate_backend): every match's bots move
  again within 10 s (bot moves that failed were not retried: matches waited for beat's sweep, a minute), and every
  action answered 200 is in the match's log.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection
from matches.test_realstack import _celery_env, _free_port

from games.matches import commands
from games.matches.commands import SeatSpec
from games.models import Action, Match
from tests.stack import http_answers, log_says, stop, wait_until

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
PASSWORD = "crowd-password-9"


class Process:
    """A server process for one test, its output in test-artifacts/."""

    def __init__(self, name: str, args: list[str], env: dict[str, str]) -> None:
        self.log = ROOT / "test-artifacts" / f"crowd-{name}-{os.getpid()}-{time.monotonic_ns()}.log"
        self.log.parent.mkdir(exist_ok=True)
        out = open(self.log, "w")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)

    def wait_for(self, ready: str, timeout: float = 60) -> None:
        """Until its output says ``ready``."""
        wait_until(log_says(self.log, ready), ready, proc=self.proc, log=self.log, timeout=timeout)

    def wait_answers(self, url: str) -> str:
        """Until ``url`` (a web server's) answers; the URL."""
        wait_until(http_answers(f"{url}/api/leaderboard/"), url, proc=self.proc, log=self.log, every=0.3)
        return url

    def stop(self) -> None:
        if self.proc.poll() is None:
            stop(self.proc, timeout=30)


def _env(**extra: str) -> dict[str, str]:
    env = _celery_env()
    env.update(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="127.0.0.1", HTTPS="0", LOG_LEVEL="warning",
               RATE_LIMIT_SIGNUP="100000/hour", BOT_SWEEP_SECONDS="3600", DEADLINE_SWEEP_SECONDS="3600", **extra)
    return env


@pytest.fixture
def stack() -> Iterator[Any]:
    """Start `make serve`'s web server (two processes) and, if asked, a prefork worker; stop them after."""
    import redis
    from django.conf import settings

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    started: list[Process] = []

    def start(worker: bool = False, **extra: str) -> str:
        port = _free_port()
        env = _env(WEB_CONCURRENCY="2", HOST="127.0.0.1", PORT=str(port), **extra)
        web = Process("web", [str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py",
                              "callbreak_site.asgi:application"], env)
        started.append(web)
        if worker:
            started.append(Process("worker", [sys.executable, "-m", "celery", "-A", "callbreak_site", "worker", "-c",
                                              "2", "-l", "info", "--without-gossip", "--without-mingle",
                                              "-n", f"crowd-{os.getpid()}-{port}@%h"], env))
            started[-1].wait_for("ready.")
        return web.wait_answers(f"http://127.0.0.1:{port}")

    try:
        yield start
    finally:
        for proc in started:
            proc.stop()


async def _burst(url: str, people: int) -> tuple[list[int], list[int]]:
    limits = httpx.Limits(max_connections=people + 10, max_keepalive_connections=people + 10)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(120.0)) as http:
        go = asyncio.Event()

        async def one(i: int) -> tuple[int, int]:
            await go.wait()
            r = await http.post(f"{url}/api/auth/signup/", json={"username": f"crowd{i}", "password": PASSWORD})
            if r.status_code != 201:
                return r.status_code, 0
            m = await http.post(f"{url}/api/matches/", json={"opponents": "bots", "bot": "random"},
                                headers={"Authorization": f"Token {r.json()['token']}"})
            return 201, m.status_code

        tasks = [asyncio.create_task(one(i)) for i in range(people)]
        await asyncio.sleep(0.2)
        go.set()
        answers = await asyncio.gather(*tasks)
    return [a for a, _ in answers], [b for _, b in answers]


def test_two_hundred_people_sign_up_and_start_a_match_at_once(stack: Any) -> None:
    url = stack()
    signups, starts = asyncio.run(_burst(url, 200))
    assert signups == [201] * 200, sorted(set(signups))
    assert starts == [201] * 200, sorted(set(starts))
    assert Match.objects.count() == 200


def _terminate_other_backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return int(cursor.fetchone()[0])


class Person:
    """Plays one seat over the API, recording every action answered 200 (what the site acknowledged)."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.http = httpx.Client(timeout=30)
        self.token = ""
        self.match_id = 0
        self.acknowledged: list[tuple[int, dict[str, Any]]] = []
        self.statuses: list[tuple[float, int]] = []
        self.rng = random.Random(name)

    def sign_up_and_start(self) -> None:
        r = self.http.post(f"{self.url}/api/auth/signup/", json={"username": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.http.headers["Authorization"] = f"Token {r.json()['token']}"
        r = self.http.post(f"{self.url}/api/matches/", json={"opponents": "bots", "bot": "random"})
        assert r.status_code == 201, r.text
        self.match_id = r.json()["id"]

    def step(self) -> None:
        """One look at the match and, if it is my turn, one action."""
        r = self.http.get(f"{self.url}/api/matches/{self.match_id}/")
        self.statuses.append((time.monotonic(), r.status_code))
        if r.status_code != 200:
            return
        view = r.json()
        if not view["your_turn"] or view["phase"] == "finished":
            return
        legal = view["legal"]
        body: dict[str, Any] = {"seq": view["seq"]}
        if view["phase"] == "bidding":
            body["bid"] = self.rng.choice([b for b in legal if b <= 4] or legal)
        else:
            body["card"] = self.rng.choice(legal)
        r = self.http.post(f"{self.url}/api/matches/{self.match_id}/actions/", json=body)
        self.statuses.append((time.monotonic(), r.status_code))
        if r.status_code == 200:
            self.acknowledged.append((view["seq"], body))


def _seqs() -> dict[int, int]:
    return dict(Match.objects.values_list("pk", "seq"))


def test_backends_terminated_mid_game_every_match_moves_again_within_ten_seconds(stack: Any) -> None:
    # each bot move its own task, a moment apart, so that tasks are in flight when the connections die
    url = stack(worker=True, BOT_DELAY_SECONDS="0.2")
    # hard bots think inside their move's transaction (a few hundred ms): the kill finds some of them there
    bots_only = [commands.create_match(seats=[SeatSpec(bot=level)] * 4).pk for level in ("hard", "hard", "random")]
    people = [Person(url, f"steady{i}") for i in range(4)]
    for person in people:
        person.sign_up_and_start()
    stop = time.monotonic() + 6
    while time.monotonic() < stop:
        for person in people:
            person.step()
        time.sleep(0.05)
    started = _seqs()
    assert all(started[m] >= 2 for m in bots_only), started
    stop = time.monotonic()
    # every backend but this test's, again and again for 3 s: bot moves and requests in flight die with them
    killed = 0
    while time.monotonic() - stop < 3:
        killed += _terminate_other_backends()
        for person in people:
            person.step()
        time.sleep(0.02)
    assert killed >= 10
    before = _seqs()
    killed_at = time.monotonic()
    moved: dict[int, float] = {}
    while time.monotonic() - killed_at < 10 and len(moved) < len(before):
        for person in people:
            person.step()
        now = _seqs()
        for match_id, seq in now.items():
            if seq > before[match_id] and match_id not in moved:
                moved[match_id] = round(time.monotonic() - killed_at, 1)
        time.sleep(0.1)
    stalled = sorted(set(before) - set(moved))
    assert not stalled, (f"no move within 10 s of the kill in matches {stalled}; moved: {moved}",
                         _worker_log_tail())
    # the people play on: no answer but 200 once the pool has replaced its connections
    later = time.monotonic()
    while time.monotonic() - later < 3:
        for person in people:
            person.step()
    late_failures = [code for person in people for at, code in person.statuses if at > killed_at + 2 and code != 200]
    assert late_failures == []
    # nothing acknowledged is lost: every action answered 200 is in the log, at its seq
    for person in people:
        assert person.acknowledged
        for seq, body in person.acknowledged:
            action = Action.objects.get(match_id=person.match_id, seq=seq)
            assert (action.bid, action.card or None) == (body.get("bid"), body.get("card")), (seq, body)
    for match_id in before:
        # the bots play on meanwhile: the row first, then the log (which can only have grown since)
        row_seq = Match.objects.get(pk=match_id).seq
        seqs = list(Action.objects.filter(match_id=match_id).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(len(seqs))) and len(seqs) >= row_seq


def _worker_log_tail() -> str:
    logs = sorted((ROOT / "test-artifacts").glob(f"crowd-worker-{os.getpid()}-*.log"))
    return logs[-1].read_text()[-3000:] if logs else ""
