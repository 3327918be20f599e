"""The client in clients/python, as a process against a real web server (gunicorn, SQLite, tasks in the web
process): a bot account accepts the host's invitation and plays a whole match at a table with house bots, with
the engine's heuristic bot and through the Bhoos bridge (a small Bhoos-protocol server of random legal cards,
whose first illegal answer the bridge replaces by a legal card and logs); the ladder and arena commands."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from servers import ROOT, Server, migrated_sqlite, run_django, web_server

from bots.bhoos_server import BhoosServer

PASSWORD = "client-password-9"


@pytest.fixture(scope="module")
def server(tmp_path_factory: Any) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("botclient")
    sqlite = migrated_sqlite(folder)
    with web_server(sqlite, folder / "web.log", BOT_EVENTS_HEARTBEAT_SECONDS="2", TOURNAMENT_BOTS_AFTER="2",
                    TOURNAMENT_SCHEDULE="0") as srv:
        srv.sqlite = sqlite  # type: ignore[attr-defined]
        yield srv


def sign_up(url: str, name: str) -> str:
    r = httpx.post(f"{url}/api/auth/signup/", json={"username": name, "password": PASSWORD}, timeout=60)
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def start_client(url: str, token: str, log: Path, *who: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'clients' / 'python'}{os.pathsep}{ROOT}")
    return subprocess.Popen([sys.executable, "-m", "callbreak_client", "play", "--url", url, "--token", token,
                             "--matches", "1", *who], cwd=ROOT, env=env, stdout=log.open("wb"),
                            stderr=subprocess.STDOUT)


def wait_until(check: Any, what: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, f"{what}:\n{log.read_text()}"
        time.sleep(0.2)


def host_a_table_with(url: str, host: str, bot_name: str, proc: subprocess.Popen[bytes], log: Path) -> int:
    """The host makes a table, invites the bot account to seat 2, waits for it to accept, fills the other seats
    with house bots and starts; the match's id."""
    t = httpx.post(f"{url}/api/tables/", json={"visibility": "private", "move_seconds": 60}, headers=auth(host))
    assert t.status_code == 201, t.text
    tid = t.json()["id"]
    r = httpx.post(f"{url}/api/tables/{tid}/seats/2/invite/", json={"username": bot_name}, headers=auth(host))
    assert r.status_code == 200, r.text

    def seated() -> bool:
        seat = httpx.get(f"{url}/api/tables/{tid}/", headers=auth(host)).json()["seats"][2]
        return seat["kind"] == "human" and seat["bot_account"]

    wait_until(seated, "the bot did not accept", proc, log)
    assert httpx.post(f"{url}/api/tables/{tid}/bots/", json={"bot": "normal"}, headers=auth(host)).status_code == 200
    # the host's own seat goes to a house bot too: the host resigns at once, so only bots play
    r = httpx.post(f"{url}/api/tables/{tid}/start/", headers=auth(host))
    assert r.status_code == 201, r.text
    match_id = int(httpx.get(f"{url}/api/tables/{tid}/", headers=auth(host)).json()["match_id"])
    assert httpx.post(f"{url}/api/matches/{match_id}/resign/", headers=auth(host)).status_code == 200
    return match_id


def made_by(sqlite: Path, match_id: int, seat: int) -> list[str]:
    out = run_django(sqlite, "from games.models import Action\n"
                             f"print(','.join(Action.objects.filter(match_id={match_id}, seat={seat})"
                             ".order_by('seq').values_list('made_by', flat=True)))")
    return out.split(",")


@pytest.mark.parametrize("bhoos", [False, True], ids=["engine-heuristic", "bhoos-bridge"])
def test_the_client_plays_a_whole_match_as_a_bot_account(server: Any, tmp_path: Path, bhoos: bool) -> None:
    url = server.url
    suffix = "b" if bhoos else "e"
    host, bot = sign_up(url, f"host{suffix}"), sign_up(url, f"robot{suffix}")
    assert httpx.post(f"{url}/api/bot/account/upgrade/", headers=auth(bot)).status_code == 201
    bhoos_server = BhoosServer(illegal=1) if bhoos else None
    log = tmp_path / "client.log"
    proc = start_client(url, bot, log, *(["--bhoos", bhoos_server.url] if bhoos_server else ["--bot", "heuristic"]))
    try:
        match_id = host_a_table_with(url, host, f"robot{suffix}", proc, log)
        assert proc.wait(timeout=300) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
        if bhoos_server is not None:
            bhoos_server.close()
    text = log.read_text()
    view = httpx.get(f"{url}/api/matches/{match_id}/", headers=auth(bot)).json()
    assert view["status"] == "finished"
    # every bid and card of the bot's seat was the client's own (none by the autopilot)
    assert made_by(server.sqlite, match_id, 2) == ["player"] * (5 + 5 * 13), text
    assert "done: 1 matches finished, 70 actions" in text
    if bhoos_server is not None:
        # every request had the 2022 starter code's shapes (the server's check_request), after the /hi greeting
        assert bhoos_server.errors == [] and bhoos_server.greeted == 1
        paths = [p for p, _ in bhoos_server.requests]
        assert paths.count("/bid") == 5 and paths.count("/play") == 65
        assert text.count("illegal answer") == 1 and "'1X'" in text
        last_play = [b for p, b in bhoos_server.requests if p == "/play"][-1]
        assert len(last_play["history"]) == 12 and len(last_play["cards"]) == 1
        assert last_play["context"]["round"] == 5


def test_the_ladder_command_seeks_plays_and_stops(server: Any, tmp_path: Path) -> None:
    """`ladder` on the account socket: a lone bot seeks in the bots' pool, is seated with house bots after the
    pool's wait (the web process's timer), plays every move of its seat and stops after its one match."""
    url = server.url
    bot = sign_up(url, "robotl")
    assert httpx.post(f"{url}/api/bot/account/upgrade/", headers=auth(bot)).status_code == 201
    log = tmp_path / "client.log"
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'clients' / 'python'}{os.pathsep}{ROOT}")
    proc = subprocess.Popen([sys.executable, "-m", "callbreak_client", "ladder", "--url", url, "--token", bot,
                             "--bot", "heuristic", "--matches", "1", "--events", "socket"], cwd=ROOT, env=env,
                            stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        assert proc.wait(timeout=300) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text()
    assert "on the bot ladder" in text and "done: 1 matches finished, 70 actions" in text and "1 ladder seeks" in text
    [row] = httpx.get(f"{url}/api/matches/", headers=auth(bot)).json()
    assert row["status"] == "finished" and sorted(s["kind"] for s in row["seats"]) == ["bot", "bot", "bot", "human"]
    assert {s["bot"] for s in row["seats"] if s["kind"] == "bot"} <= {"heuristic", "strong"}
    assert made_by(server.sqlite, row["id"], row["you"]) == ["player"] * (5 + 5 * 13), text
    profile = httpx.get(f"{url}/api/players/robotl/", headers=auth(bot)).json()
    assert profile["rating"]["games"] == 1  # a rated ladder match


ARENA = """
from datetime import timedelta
from django.utils import timezone
from games.models import Tournament
print(Tournament.objects.create(name="Bots Arena", pool="bots", starts_at=timezone.now(), minutes=15).pk)
"""


def test_the_arena_command_joins_plays_and_stops(server: Any, tmp_path: Path) -> None:
    """`arena`: a bot account joins the running arena of bot accounts (found by itself), is seated with the ladder's
    house bots after the arena's wait, plays every move of its seat, and the match counts in the standings."""
    url = server.url
    bot = sign_up(url, "robota")
    assert httpx.post(f"{url}/api/bot/account/upgrade/", headers=auth(bot)).status_code == 201
    arena = int(run_django(server.sqlite, ARENA))
    log = tmp_path / "client.log"
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'clients' / 'python'}{os.pathsep}{ROOT}")
    proc = subprocess.Popen([sys.executable, "-m", "callbreak_client", "arena", "--url", url, "--token", bot,
                             "--bot", "heuristic", "--matches", "1"], cwd=ROOT, env=env,
                            stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        assert proc.wait(timeout=300) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    text = log.read_text()
    assert f"in arena {arena}" in text and f"joined arena {arena}" in text, text
    assert "done: 1 matches finished, 70 actions" in text, text
    standings = httpx.get(f"{url}/api/tournaments/{arena}/").json()["standings"]
    [row] = standings
    assert row["username"] == "robota" and row["matches"] == 1 and row["points"] == 48  # the only bot account: 1st
    match_id = row["results"][0]["match_id"]
    view = httpx.get(f"{url}/api/matches/{match_id}/", headers=auth(bot)).json()
    assert {s["bot"] for s in view["seats"] if s["kind"] == "bot"} <= {"heuristic", "strong"}
    assert made_by(server.sqlite, match_id, view["seat"]) == ["player"] * (5 + 5 * 13), text
