"""A host in Chromium invites a bot account (a program: the client in clients/python, started here) to a seat
of a table; the bot accepts through the API, its seat shows the BOT API badge, the host fills the rest with house
bots and starts, and the match page shows the bot's plate with its badge. Screenshots (desktop, 360x740 and
740x360) land in test-artifacts/e2e/."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from e2e_helpers import new_context, sign_up

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def test_host_invites_a_bot_account_which_joins_and_the_match_starts(browser: Any, site_url: str,
                                                                     artifacts: Any, tmp_path: Path) -> None:
    base = site_url
    bot_name = "robo_" + secrets.token_hex(3)
    r = httpx.post(f"{base}/api/auth/signup/", json={"username": bot_name, "password": "bot-password-Q7-9"})
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    assert httpx.post(f"{base}/api/bot/account/upgrade/", headers={"Authorization": f"Token {token}"}
                      ).status_code == 201
    log = tmp_path / "client.log"
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'clients' / 'python'}{os.pathsep}{ROOT}")
    client = subprocess.Popen([sys.executable, "-m", "callbreak_client", "play", "--url", base, "--token", token,
                               "--bot", "heuristic"], cwd=ROOT, env=env, stdout=log.open("wb"),
                              stderr=subprocess.STDOUT)
    context = new_context(browser, viewport={"width": 1280, "height": 860})
    host = context.new_page()
    host.set_default_timeout(20_000)
    errors: list[str] = []
    host.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_up(host, base, "host_" + secrets.token_hex(3))
        host.goto(f"{base}/lobby/")
        host.select_option("select[name=visibility]", "private")
        host.get_by_test_id("create-table").click()
        host.wait_for_url(f"{base}/tables/*/")
        host.get_by_test_id("invite-name-1").fill(bot_name)
        host.get_by_test_id("invite-1").click()
        # the seat waits for the bot's answer, then the bot (through the client) sits there: the page follows
        # the client is a program of its own, started above: on a busy machine it takes a while to be listening
        try:
            host.get_by_test_id("bot-account-1").wait_for(timeout=60_000)
        except Exception as exc:
            host.screenshot(path=str(artifacts / "bot-account-never-sat.png"), full_page=True)
            raise AssertionError(f"the bot never sat; its client's log ({client.poll()}):\n{log.read_text()}") from exc
        assert bot_name in host.get_by_test_id("seat-1").inner_text()
        # the client logs its acceptance once the answer returns, which may be after the page has heard of it
        for _ in range(100):
            if "accepted the invitation" in log.read_text():
                break
            host.wait_for_timeout(100)
        assert "accepted the invitation" in log.read_text(), log.read_text()
        host.get_by_test_id("fill-bots").click()
        host.get_by_test_id("start").wait_for()
        host.screenshot(path=str(artifacts / "bot-account-table-room.png"))
        host.set_viewport_size({"width": 360, "height": 740})
        host.screenshot(path=str(artifacts / "bot-account-table-room-360.png"), full_page=True)
        host.get_by_test_id("start").click()
        host.wait_for_url(f"{base}/play/*/")
        # the bot's plate: its name and the BOT API badge (not the house bots' "Bot")
        host.wait_for_function("[...document.querySelectorAll('.badge.badge-program')]"
                               ".some((b) => !b.hidden && b.textContent === 'BOT API')")
        assert host.locator(".badge.badge-program").count() == 1
        host.screenshot(path=str(artifacts / "bot-account-match-360.png"))
        host.set_viewport_size({"width": 740, "height": 360})
        host.screenshot(path=str(artifacts / "bot-account-match-740x360.png"))
        host.set_viewport_size({"width": 1280, "height": 860})
        host.screenshot(path=str(artifacts / "bot-account-match.png"))
        assert client.poll() is None, log.read_text()
        assert errors == []
    finally:
        client.kill()
        client.wait()
        context.close()
