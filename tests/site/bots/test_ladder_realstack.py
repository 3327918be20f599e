"""The bot ladder on the real stack (gunicorn with two Uvicorn processes, PostgreSQL, Redis, a Celery worker playing
the house bots and running the pairing after the wait): two client processes (`callbreak_client ladder`, the
engine's heuristic and random bots) seek in the bots' pool, are seated with the ladder's house bots, play and seek
again, two rated matches each; every move of their seats is their own, the matches are rated, the bots' ratings
moved and the yardstick's did not. (The 20-match run is `bench/ladder.py --start`, docs/bots-api.md.)"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from hardening.test_crowd_realstack import stack  # noqa: F401  (the fixture)
from servers import ROOT

from bots.test_client import auth, sign_up
from games.models import Action, Match, Rating, Seat, Seek
from games.ratings.reads import YARDSTICKS

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def ladder_client(url: str, token: str, bot: str, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'clients' / 'python'}{os.pathsep}{ROOT}")
    return subprocess.Popen([sys.executable, "-m", "callbreak_client", "ladder", "--url", url, "--token", token,
                             "--bot", bot, "--matches", "2"], cwd=ROOT, env=env, stdout=log.open("wb"),
                            stderr=subprocess.STDOUT)


def test_two_client_bots_play_rated_ladder_matches(stack: Any, tmp_path: Path) -> None:  # noqa: F811
    url = stack(worker=True, QUICK_MATCH_BOT_POOL_AFTER="2", BOT_LADDER_HOUSE_BOTS="heuristic")
    names = ["ladder_h", "ladder_r"]
    tokens = [sign_up(url, n) for n in names]
    for token in tokens:
        assert httpx.post(f"{url}/api/bot/account/upgrade/", headers=auth(token)).status_code == 201
    logs = [tmp_path / f"{n}.log" for n in names]
    procs = [ladder_client(url, t, b, log) for t, b, log in zip(tokens, ["heuristic", "random"], logs, strict=True)]
    try:
        for proc, log in zip(procs, logs, strict=True):
            assert proc.wait(timeout=420) == 0, log.read_text()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    texts = [log.read_text() for log in logs]
    for text in texts:
        assert "done: 2 matches finished" in text and "2 ladder seeks" in text, text
    bots = list(Seek.objects.filter(user__username__in=names))
    assert len(bots) == 4 and {(s.pool, s.status, s.rated) for s in bots} == {("bots", "matched", True)}
    match_ids = {s.match_id for s in bots}
    deadline = time.monotonic() + 60  # the last match's rating is the worker's task
    while Match.objects.filter(pk__in=match_ids, rated_at__isnull=True).exists():
        assert time.monotonic() < deadline, "a ladder match was never rated"
        time.sleep(0.2)
    assert set(Match.objects.filter(pk__in=match_ids).values_list("status", "rated")) == {("finished", True)}
    for seat in Seat.objects.filter(match_id__in=match_ids).select_related("user"):
        if seat.kind == "bot":
            assert seat.bot == "heuristic"
        else:  # every bid and card of an outside bot's seat is its own: nothing waited for the autopilot
            assert seat.user is not None and seat.user.username in names
            made_by = set(Action.objects.filter(match_id=seat.match_id, seat=seat.index).values_list("made_by",
                                                                                                     flat=True))
            assert made_by == {"player"}, texts
    for name in names:
        rating = Rating.objects.get(user__username=name)
        assert rating.games == 2 and rating.mu != 25.0 and rating.sigma < 25 / 3
    yardstick = Rating.objects.get(bot="heuristic")
    assert (yardstick.mu, yardstick.sigma) == YARDSTICKS["heuristic"] and yardstick.games == len(match_ids)
    board = httpx.get(f"{url}/api/leaderboard/", params={"board": "bots"}, headers=auth(tokens[0])).json()
    assert {r["name"] for r in board} == {*names, "bot:heuristic"}
