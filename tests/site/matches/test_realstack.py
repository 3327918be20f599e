"""The real stack: PostgreSQL row locks, Redis as broker and channel layer, a real Celery worker; deadlines
on it: a short turn's ETA timer fires in a real worker, and beat's sweep plays a turn whose deadline passed
while nothing was scheduled (as after a restart).

Run with `make test-realstack` (DATABASE_URL / REDIS_URL set); skipped with the reason shown when
those are absent, except under CI=true where they must run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection, connections
from django.test import override_settings
from django.utils import timezone
from site_helpers import assert_no_leak, choose, client_for

import engine
from games import tasks
from games.matches import commands, store
from games.matches.commands import SeatSpec
from games.models import Action, Match, Seat
from tests.stack import free_port, http_answers, log_says, running, start, stop

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]


def test_settings_are_the_real_stack() -> None:
    assert connection.vendor == "postgresql"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "callbreak_site.channel_layer.BlockingPoolChannelLayer"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


def test_twenty_threads_post_the_same_action_exactly_one_applies(make_user: Any) -> None:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users])  # people only: no bot moves
    match.refresh_from_db()
    mover = users[match.turn]
    barrier = threading.Barrier(20)
    results: list[tuple[int, Any]] = []
    lock = threading.Lock()

    clients = [client_for(mover) for _ in range(20)]  # made first: the threads only race to post

    def worker(i: int) -> None:
        try:
            client = clients[i]
            barrier.wait(timeout=60)
            r = client.post(f"/api/matches/{match.pk}/actions/", {"seq": 0, "bid": 1 + i % 13}, format="json")
            with lock:
                results.append((r.status_code, r.json()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    statuses = sorted(code for code, _ in results)
    assert statuses == [200] + [409] * 19, results
    assert all(body["code"] == "stale_seq" and body["seq"] == 1 for code, body in results if code == 409)
    assert Action.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.seq == 1 == store.state_of(match).version


def _celery_env() -> dict[str, str]:
    db = connection.settings_dict
    host, port, user = db["HOST"] or "127.0.0.1", db["PORT"] or 5432, db["USER"] or "postgres"
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{user}@{host}:{port}/{db['NAME']}",
        REDIS_URL=settings.REDIS_URL,
        DJANGO_SETTINGS_MODULE="callbreak_site.settings",
        CELERY_TASK_ALWAYS_EAGER="0",
        BOT_SWEEP_SECONDS="1",
        ANALYSIS_BUDGET="2",
    )
    env.pop("DATABASE_POOL_MAX", None)  # the processes the tests start run as in production, pooled
    return env


def celery_log(name: str) -> Path:
    """Per test run, so runs side by side on one machine keep their own logs."""
    return ROOT / "test-artifacts" / f"celery-{name}-{os.getpid()}.log"


def _start(name: str, args: list[str], ready: str) -> Iterator[subprocess.Popen[bytes]]:
    """Run `celery -A callbreak_site <args>` until the fixture ends; its output goes to test-artifacts/."""
    log_path = celery_log(name)
    with running([sys.executable, "-m", "celery", "-A", "callbreak_site", *args], env=_celery_env(), log=log_path,
                 ready=log_says(log_path, ready), what=f"celery {name}") as proc:
        yield proc


@pytest.fixture
def celery_worker() -> Iterator[subprocess.Popen[str]]:
    """A real `celery worker` process on the test database and the test Redis."""
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()  # no leftover tasks or groups from earlier runs
    yield from _start("worker", ["worker", "-P", "solo", "-l", "info", "--without-gossip", "--without-mingle",
                                 "-n", f"test-{os.getpid()}@%h"], "ready.")


@pytest.fixture
def analysis_worker() -> Iterator[subprocess.Popen[str]]:
    """A real worker of the analysis queue only, as deployed beside the bots' worker."""
    yield from _start("analyst", ["worker", "-P", "solo", "-l", "info", "--without-gossip", "--without-mingle",
                                  "-Q", "analysis", "-n", f"analyst-{os.getpid()}@%h"], "ready.")


@pytest.fixture
def prefork_worker() -> Iterator[subprocess.Popen[str]]:
    """A `celery worker` as production runs it: prefork processes, each with its connection pool."""
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    yield from _start("prefork", ["worker", "-c", "2", "-l", "info", "--without-gossip", "--without-mingle",
                                  "-n", f"prefork-{os.getpid()}@%h"], "ready.")


def _sessions_opened() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def test_a_prefork_worker_keeps_its_database_sessions_across_tasks(make_user: Any, prefork_worker: Any) -> None:
    """Celery's Django fix-up closed a prefork child's whole pool around every task, so each bot move started
    a PostgreSQL session (a backend process) of its own; now a child keeps its sessions."""
    matches = []
    for _ in range(12):
        match = commands.create_match(seats=[SeatSpec(user=make_user()) for _ in range(4)])
        match.refresh_from_db()
        Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
        matches.append(match)
    tasks.bot_move.apply_async((matches[0].pk, 0))  # the children connect once
    _wait_for_action(matches[0], 0, "the first bot move")
    _wait_for_tasks_done(1, "prefork")  # its transaction and task are over, not only its action written
    before = _sessions_opened()
    for match in matches[1:]:
        tasks.bot_move.apply_async((match.pk, 0))
    for match in matches[1:]:
        _wait_for_action(match, 0, "a bot move")
    _wait_for_tasks_done(12, "prefork")
    assert _sessions_opened() - before < 6  # 11 tasks: at least 22 sessions without the fix


def _wait_for_tasks_done(count: int, worker: str = "worker", timeout: float = 30) -> None:
    """Until the worker has logged ``count`` bot moves done (a worker at log level info says so of each)."""
    log = celery_log(worker)
    deadline = time.monotonic() + timeout
    while sum("bot_move[" in line and " succeeded in " in line for line in log.read_text().splitlines()) < count:
        assert time.monotonic() < deadline, f"{count} tasks not done:\n" + log.read_text()[-3000:]
        time.sleep(0.05)


@pytest.fixture
def celery_beat(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    yield from _start("beat", ["beat", "-l", "info", "--schedule", str(tmp_path / "beat-schedule")],
                      "beat: Starting")


ORIGIN = (b"origin", b"http://testserver")


async def test_whole_match_against_three_bots_on_the_real_stack(make_user: Any, celery_worker: Any) -> None:
    from callbreak_site.asgi import application

    user = await database_sync_to_async(make_user)("realstack")
    api = await database_sync_to_async(client_for)(user)
    created = await database_sync_to_async(
        lambda: api.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json"))()
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    seed = (await database_sync_to_async(Match.objects.get)(pk=match_id)).seed
    token = api._credentials["HTTP_AUTHORIZATION"].split()[1]
    comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/?token={token}", headers=[ORIGIN])
    connected, _ = await comm.connect()
    assert connected
    rng = random.Random(1)
    last_seq, mine, messages = -1, 0, 0

    def state_at(seq: int) -> engine.MatchState:
        return store.state_of(Match.objects.get(pk=match_id), upto=seq)

    while True:
        msg = await comm.receive_json_from(timeout=30)
        assert msg["type"] == "match"
        view = msg["match"]
        messages += 1
        assert view["seq"] > last_seq
        last_seq = view["seq"]
        assert_no_leak(view, await database_sync_to_async(state_at)(view["seq"]), 0, seed)
        if view["phase"] == "finished":
            break
        if not view["your_turn"]:
            continue
        body = choose(view, rng)
        r = await database_sync_to_async(
            lambda body=body: api.post(f"/api/matches/{match_id}/actions/", body, format="json"))()
        assert r.status_code == 200, r.content
        mine += 1
    await comm.disconnect()
    assert mine == 70 and last_seq == 280
    assert messages > mine  # bot moves arrived over the socket too (sent by the worker process)
    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    assert match.status == "finished"
    made_by = await database_sync_to_async(
        lambda: set(Action.objects.filter(match=match).values_list("made_by", flat=True)))()
    assert made_by == {"player", "bot"}
    doc = await database_sync_to_async(lambda: api.get(f"/api/matches/{match_id}/replay/").json())()
    assert engine.verify_replay(doc).version == 280


def test_a_bot_task_delivered_twice_plays_once(make_user: Any, celery_worker: Any) -> None:
    import redis

    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users])
    match.refresh_from_db()
    Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
    tasks.bot_move.apply_async((match.pk, 0))
    tasks.bot_move.apply_async((match.pk, 0))  # the same task again, as a broker redelivery would
    tasks.bot_move.apply_async((match.pk, 0))
    r = redis.Redis.from_url(settings.REDIS_URL)
    deadline = time.monotonic() + 30
    while r.llen("celery") > 0 or Action.objects.filter(match=match).count() == 0:
        assert time.monotonic() < deadline, "the worker did not take the tasks"
        time.sleep(0.2)
    _wait_for_tasks_done(3)  # the last taken task has finished too
    assert Action.objects.filter(match=match).count() == 1
    assert Action.objects.get(match=match).made_by == "autopilot"
    match.refresh_from_db()
    assert match.seq == 1
    log = celery_log("worker").read_text()
    assert log.count("succeeded") >= 3 and "True" in log and "False" in log


def test_beat_starts_and_its_sweep_resumes_a_stalled_bot_turn(
    make_user: Any, celery_worker: Any, celery_beat: Any
) -> None:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users])
    match.refresh_from_db()
    # A seat handed to a bot with no task sent (as if the task were lost): only beat's sweep can move it.
    Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
    deadline = time.monotonic() + 30
    while not Action.objects.filter(match=match).exists():
        assert time.monotonic() < deadline, celery_log("beat").read_text()
        time.sleep(0.2)
    assert Action.objects.get(match=match).made_by == "autopilot"
    assert "resume-stalled-bot-turns" in celery_log("beat").read_text()


# --- deadlines on the real stack ---------------------------------------------------------------

@pytest.fixture
def fast_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEADLINE_SWEEP_SECONDS", "1")
    monkeypatch.setenv("BOT_SWEEP_SECONDS", "1")


def _wait_for_action(match: Match, seq: int, what: str, timeout: float = 30) -> Action:
    deadline = time.monotonic() + timeout
    while not Action.objects.filter(match=match, seq=seq).exists():
        assert time.monotonic() < deadline, f"{what}:\n" + celery_log("worker").read_text()[-3000:]
        time.sleep(0.2)
    return Action.objects.get(match=match, seq=seq)


@pytest.mark.usefixtures("fast_sweep")
def test_a_short_turn_expires_through_its_timer(make_user: Any, celery_worker: Any) -> None:
    users = [make_user() for _ in range(4)]
    with override_settings(LIVE_BANK_SECONDS=0):  # a live pace's bank would add its seconds to the turn
        match = commands.create_match(seats=[SeatSpec(user=u) for u in users], move_seconds=2)
    match.refresh_from_db()
    assert match.deadline is not None and match.deadline <= timezone.now() + timedelta(seconds=2)
    action = _wait_for_action(match, 0, "the timer did not play the expired turn")
    assert action.made_by == "autopilot" and action.seat == match.turn
    assert action.made_at >= match.deadline


@pytest.mark.usefixtures("fast_sweep")
def test_beat_sweeps_a_deadline_that_passed_with_nothing_scheduled(
    make_user: Any, celery_worker: Any, celery_beat: Any
) -> None:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users], move_seconds=86400)
    match.refresh_from_db()
    # long turns get no timer: only the sweep can find this one
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    action = _wait_for_action(match, 0, "beat's sweep did not play the expired turn")
    assert action.made_by == "autopilot"
    assert "sweep-deadlines" in celery_log("beat").read_text()
    match.refresh_from_db()
    assert match.seq == 1 and match.deadline is not None and match.deadline > timezone.now()


_free_port = free_port  # the other real-stack modules' name for it


def _web_process(port: int) -> subprocess.Popen[bytes]:
    """One production web process (gunicorn with one Uvicorn worker, as `make serve` runs it)."""
    env = {**_celery_env(), "WEB_CONCURRENCY": "1", "HOST": "127.0.0.1", "PORT": str(port), "DEBUG": "0",
           "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "127.0.0.1", "HTTPS": "0"}
    return start([str(Path(sys.executable).parent / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py",
                  "callbreak_site.asgi:application"], env=env,
                 log=ROOT / "test-artifacts" / f"web-{port}-{os.getpid()}.log",
                 ready=http_answers(f"http://127.0.0.1:{port}/api/leaderboard/"), what="gunicorn")


async def test_two_web_processes_share_the_channel_layer(make_user: Any) -> None:
    """A socket held by one web process sees an action made through another (scaling out works)."""
    import httpx
    import websockets
    from site_helpers import token_for

    users = [await database_sync_to_async(make_user)() for _ in range(4)]
    match = await database_sync_to_async(commands.create_match)(seats=[SeatSpec(user=u) for u in users])
    match = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    mover = users[match.turn]
    watcher = users[(match.turn + 1) % 4]
    tokens = {u.pk: await database_sync_to_async(token_for)(u) for u in (mover, watcher)}
    port_a, port_b = _free_port(), _free_port()
    procs = [_web_process(port_a), _web_process(port_b)]
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port_a}/ws/matches/{match.pk}/?token={tokens[watcher.pk]}",
                                      origin=f"http://127.0.0.1:{port_a}") as ws:  # type: ignore[arg-type]
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["match"]["seq"] == 0
            async with httpx.AsyncClient() as http:
                r = await http.post(f"http://127.0.0.1:{port_b}/api/matches/{match.pk}/actions/",
                                    json={"seq": 0, "bid": 3}, headers={"Authorization": f"Token {tokens[mover.pk]}"})
            assert r.status_code == 200, r.text
            seen = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert seen["type"] == "match" and seen["match"]["seq"] == 1
            assert seen["match"]["bids"][mover_seat(seen["match"], mover.get_username())] == 3
    finally:
        for proc in procs:
            stop(proc, timeout=30)


def mover_seat(view: dict[str, Any], name: str) -> int:
    return next(s["seat"] for s in view["seats"] if s["name"] == name)


async def test_a_finished_bot_match_is_analysed_on_its_own_queue(
        make_user: Any, celery_worker: Any, analysis_worker: Any) -> None:
    """The bots' worker plays; the match's end queues the review on the analysis queue, which only the
    analysis worker consumes; the API answers 202, then 200 with the document."""
    from games.models import Analysis

    user = await database_sync_to_async(make_user)()
    client = await database_sync_to_async(client_for)(user)
    view = (await database_sync_to_async(
        lambda: client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json"))()).json()
    rng = random.Random(11)
    deadline = time.monotonic() + 120
    url = f"/api/matches/{view['id']}/"
    while view["phase"] != "finished":
        assert time.monotonic() < deadline
        if not view["your_turn"]:
            await asyncio.sleep(0.05)
            view = (await database_sync_to_async(lambda: client.get(url))()).json()
            continue
        body = choose(view, rng)
        r = await database_sync_to_async(lambda b=body: client.post(f"{url}actions/", b, format="json"))()
        view = r.json() if r.status_code == 200 else view
    first = await database_sync_to_async(lambda: client.get(f"/api/matches/{view['id']}/analysis/"))()
    assert first.status_code in (200, 202)
    while True:
        assert time.monotonic() < deadline + 120, "the analysis worker did not finish the review"
        r = await database_sync_to_async(lambda: client.get(f"/api/matches/{view['id']}/analysis/"))()
        if r.status_code == 200:
            break
        assert r.status_code == 202 and r.json()["status"] in ("queued", "running")
        await asyncio.sleep(0.5)
    doc = r.json()
    assert doc["format"] == "callbreak-analysis/1" and len(doc["decisions"]) == 70
    assert await database_sync_to_async(Analysis.objects.filter(match_id=view["id"]).count)() == 1
    assert "games.tasks.analyze_seat[" in celery_log("analyst").read_text()
    assert "games.tasks.analyze_seat[" not in celery_log("worker").read_text()  # never on the bots' worker
