"""Two people in two browsers: a private table by invitation link, live seat updates, bots fill the
rest, the host starts and both land on the match; the leaderboard, profile and settings pages render.
Screenshots land in test-artifacts/e2e/."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import sign_up

pytestmark = pytest.mark.e2e

def test_private_table_by_invitation(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    contexts = [browser.new_context(viewport={"width": 1200, "height": 820}) for _ in range(2)]
    host, guest = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (host, guest):
        p.set_default_timeout(20_000)
        p.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        hname, gname = "host_" + secrets.token_hex(3), "guest_" + secrets.token_hex(3)
        sign_up(host, base, hname)
        sign_up(guest, base, gname)

        host.get_by_test_id("nav-lobby").click()
        host.wait_for_url(f"{base}/lobby/")
        host.select_option("select[name=visibility]", "private")
        host.select_option("select[name=move_seconds]", "172800")
        host.get_by_test_id("create-table").click()
        host.wait_for_url(f"{base}/tables/*/")
        host.wait_for_selector("[data-testid=seat-0]")
        assert hname in host.locator("[data-testid=seat-0]").inner_text()
        link = host.locator(".invite-box input").input_value()
        assert "/invite/" in link
        host.screenshot(path=str(artifacts / "lobby-table-room.png"))

        # the private table is not in the guest's lobby
        guest.goto(f"{base}/lobby/")
        guest.wait_for_selector("#table-list .empty")
        guest.screenshot(path=str(artifacts / "lobby.png"))

        guest.goto(link)
        guest.get_by_test_id("sit-2").click()
        guest.wait_for_function(
            f"document.querySelector('[data-testid=seat-2]').innerText.includes('{gname}')")
        # the host's page updates by itself (lobby message over /ws/me/)
        host.wait_for_function(
            f"document.querySelector('[data-testid=seat-2]').innerText.includes('{gname}')")
        host.get_by_test_id("fill-bots").click()
        host.wait_for_selector("[data-testid=start]")
        host.get_by_test_id("start").click()
        host.wait_for_url(f"{base}/play/*/")
        guest.wait_for_url(f"{base}/play/*/")  # the guest follows when the table starts
        assert host.url == guest.url
        # a timed match: both see Resign; whoever is to move sees the clock, and "My matches" shows time left
        for p in (host, guest):
            p.get_by_test_id("resign").wait_for()
        host.wait_for_function("document.querySelector('[data-testid=deadline]') !== null")
        on_turn = host if host.locator("[data-testid=deadline].mine").count() else guest
        assert on_turn.get_by_test_id("deadline").inner_text() == "Turn ends in 2 days"
        on_turn.screenshot(path=str(artifacts / "correspondence-table.png"))
        match_url = on_turn.url
        on_turn.goto(f"{base}/matches/")
        on_turn.get_by_test_id("time-left").wait_for()
        assert on_turn.get_by_test_id("time-left").inner_text() == "Turn ends in 2 days"
        on_turn.goto(match_url)

        for path, shot in (("/leaderboard/", "leaderboard.png"), (f"/players/{hname}/", "profile.png"),
                           ("/settings/", "settings.png")):
            host.goto(f"{base}{path}")
            host.screenshot(path=str(artifacts / shot))
        host.get_by_test_id("settings-save").wait_for()
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()
