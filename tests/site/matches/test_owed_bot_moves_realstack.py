"""A web process SIGKILLed after it committed a person's bid and before its bot lane played the bots' answer: the
answer dies with the lane, and the next bot move is owed. Beat's sweep (every ``BOT_SWEEP_SECONDS``, as set by
default) has a worker play it within seconds; it waited for the sweep of a minute before.

To kill the process in that moment every time, the test holds the bot's row of the log: an uncommitted row at
the ``seq`` the bot's move will take (the action's foreign key is checked at commit, so the person's write does
not wait on it), which makes the lane's insert wait on the unique ``(match, seq)`` until the test lets go, after
the kill. The killed process's database session then ends without committing (its client is gone)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection
from hardening.test_faults import Celery, beat, worker
from site_helpers import token_for

from games.models import Action, Match
from matches.test_realstack import _free_port, _web_process

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]


def _env() -> dict[str, str]:
    """The worker's and beat's environment with the sweeps' default schedule."""
    from django.conf import settings

    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_SWEEP_SECONDS", "BOT_OWED_SECONDS",
                                                            "DATABASE_POOL_MAX")}
    env.update(DATABASE_URL=f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
                            f"{db['NAME']}",
               REDIS_URL=settings.REDIS_URL, DJANGO_SETTINGS_MODULE="callbreak_site.settings",
               CELERY_TASK_ALWAYS_EAGER="0", BOT_DELAY_SECONDS="0")
    return env


def _wait(predicate: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _waiting_on(blocker_pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [blocker_pid])
        return bool(cursor.fetchone()[0])


def test_a_bot_move_owed_by_a_killed_web_process_is_played_within_seconds(make_user: Any, tmp_path: Path) -> None:
    import psycopg
    import redis
    from django.conf import settings

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    env = _env()
    procs: list[Celery] = [worker(env), beat(env, tmp_path)]
    port = _free_port()
    web = _web_process(port)
    base = f"http://127.0.0.1:{port}"
    db = connection.settings_dict
    try:
        headers = {"Authorization": f"Token {token_for(make_user('owed'))}"}
        created = httpx.post(f"{base}/api/matches/", json={"opponents": "bots", "bot": "normal"}, headers=headers,
                             timeout=30)
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        view = _wait(lambda: (v := httpx.get(f"{base}/api/matches/{match_id}/", headers=headers, timeout=10).json())
                     ["your_turn"] and v, 30, "the person's first bid (the bots before them play on the lane)")
        seq = view["seq"]
        with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"] or "postgres",
                             dbname=db["NAME"]) as blocker:
            blocker.execute("INSERT INTO games_action (match_id, seq, seat, bid, card, made_at, made_by) "
                            "VALUES (%s, %s, 0, 1, '', now(), 'bot')", [match_id, seq + 1])
            answer = httpx.post(f"{base}/api/matches/{match_id}/actions/", json={"seq": seq, "bid": 3},
                                headers=headers, timeout=30)
            assert answer.status_code == 200, answer.text
            committed = time.monotonic()
            assert not answer.json()["your_turn"]  # a bot answers the bid
            _wait(lambda: _waiting_on(blocker.info.backend_pid), 10, "the lane to reach the bot's move")
            (lane_process,) = _children(web.pid)  # gunicorn's one worker: its lane holds the move
            os.kill(lane_process, signal.SIGKILL)
            _wait(lambda: not Path(f"/proc/{lane_process}").exists() or
                  Path(f"/proc/{lane_process}/stat").read_text().split(") ")[1].startswith("Z"), 10, "the kill")
            blocker.rollback()
        assert Match.objects.get(pk=match_id).seq == seq + 1  # the bots' answer was not committed
        move = _wait(lambda: Action.objects.filter(match_id=match_id, seq=seq + 1).first(), 30, "the owed move")
        waited = time.monotonic() - committed
        assert move.made_by == "bot"
        assert waited < 10, f"the owed bot move was played {waited:.1f} s after the person's bid"
        assert "resume-stalled-bot-turns" in procs[1].log.read_text()
        # the chain goes on from there: the person's turn comes round again
        _wait(lambda: httpx.get(f"{base}/api/matches/{match_id}/", headers=headers, timeout=10).json()["your_turn"],
              30, "the person's turn after the bots")
    finally:
        web.terminate()
        web.wait(timeout=30)
        for proc in procs:
            proc.stop()


def test_the_sweep_leaves_out_a_match_whose_write_is_under_way(make_user: Any) -> None:
    """A bot deciding holds its match's row (``match_write``): the sweep does not send the move again then, nor
    wait for the row."""
    import psycopg
    from django.utils import timezone

    from games.matches import commands, reads
    from games.matches.commands import SeatSpec
    from games.models import Seat

    matches = []
    for _ in range(2):
        match = commands.create_match(seats=[SeatSpec(user=make_user()) for _ in range(4)])
        match.refresh_from_db()
        Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
        matches.append(match)
    db = connection.settings_dict
    later = timezone.now() + timezone.timedelta(seconds=10)
    with psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"] or "postgres",
                         dbname=db["NAME"]) as writer:
        writer.execute("SELECT id FROM games_match WHERE id = %s FOR UPDATE", [matches[0].pk])
        started = time.monotonic()
        assert reads.waiting_on_a_bot(settled_before=later) == [(matches[1].pk, 0)]
        assert time.monotonic() - started < 2
        writer.rollback()
    assert sorted(reads.waiting_on_a_bot(settled_before=later)) == sorted((m.pk, 0) for m in matches)
