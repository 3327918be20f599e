"""Play online in Chromium: four people press it at once and sit down together (no bot), play a trick; two
people share a table with two bots after the wait; one person alone gets three bots after the wait (the
server waits QUICK_MATCH_BOTS_AFTER=6 s); cancelling stops the wait. Screenshots at 360x740 and 1280x800."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import FAST, STATE_JS, new_context, play_card, sign_up

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def people(browser: Any, base: str, n: int, prefix: str) -> tuple[list[Any], list[Any]]:
    contexts, pages = [], []
    for i in range(n):
        ctx = new_context(browser, viewport=PHONE if i == 0 else DESKTOP, locale="en-US")
        ctx.add_init_script(FAST)
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        sign_up(page, base, f"{prefix}{i}_{secrets.token_hex(2)}")
        contexts.append(ctx)
        pages.append(page)
    return contexts, pages


def press_play_online(page: Any, *, pace: str = "live", rated: bool = True, where: str = "/") -> None:
    if where != "/":
        page.goto(page.url.split("/", 3)[0] + "//" + page.url.split("/")[2] + where)
    box = page.get_by_test_id("quick-match")
    box.get_by_test_id("qm-pace").select_option(pace)
    rated_box = box.locator("input[name=rated]")
    if rated_box.is_checked() != rated:
        rated_box.click()
    box.get_by_test_id("play-online").click()


def match_of(page: Any, base: str) -> int:
    page.wait_for_url(f"{base}/play/*/", timeout=30_000)
    return int(page.url.rstrip("/").split("/")[-1])


def play_first_trick(base: str, pages: list[Any], match_id: int) -> None:
    """Every person bids 2 and plays a legal card through the table page until the first trick is taken."""
    for p in pages:
        p.wait_for_selector("#table-app")
    for _ in range(400):
        view = pages[0].request.get(f"{base}/api/matches/{match_id}/").json()
        if view["seq"] >= 8:  # four bids and four cards: the first trick is over
            return
        for p in pages:
            state = p.evaluate(STATE_JS)
            if state == "bid":
                p.locator('.bid-btn[data-bid="2"]').click()
                p.get_by_test_id("bid-confirm").click()
                p.wait_for_function("document.querySelector('.bid-picker').hidden")
            elif state == "play":
                held = p.locator(".hand .card").count()
                play_card(p, p.locator(".hand .card.legal").first)
                p.wait_for_function(f"document.querySelectorAll('.hand .card').length < {held}")
        pages[0].wait_for_timeout(100)
    raise AssertionError("the first trick was not played")


def test_four_people_press_play_online_and_sit_together(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    contexts, pages = people(browser, base, 4, "f")
    try:
        pages[0].screenshot(path=str(artifacts / "quick-home-360.png"))
        width = pages[0].evaluate("[document.documentElement.scrollWidth, innerWidth, "
                                  "document.querySelector('.hero').scrollWidth, "
                                  "document.querySelector('.hero').clientWidth]")
        assert width[0] <= width[1] and width[2] <= width[3], f"the home page is too wide for a phone: {width}"
        for p in pages[:3]:
            press_play_online(p)
        waiting = pages[0].get_by_test_id("qm-status")
        waiting.filter(has_text="Looking for players").wait_for()
        pages[0].wait_for_function(
            "document.querySelector('[data-testid=qm-status]').textContent.match(/0:0[1-9]/)")  # the time runs
        pages[0].screenshot(path=str(artifacts / "quick-waiting-360.png"))
        pages[1].screenshot(path=str(artifacts / "quick-waiting-1280.png"))
        # the fourth person's home page heard who is here over its socket
        here = pages[3].get_by_test_id("who-is-here")
        pages[3].locator('[data-testid=who-is-here][data-waiting="3"]').wait_for()
        assert "3 waiting" in here.inner_text()
        pages[3].screenshot(path=str(artifacts / "quick-here-1280.png"))
        press_play_online(pages[3])
        ids = {match_of(p, base) for p in pages}
        assert len(ids) == 1, ids
        match_id = ids.pop()
        view = pages[0].request.get(f"{base}/api/matches/{match_id}/").json()
        assert [s["kind"] for s in view["seats"]] == ["human"] * 4, view["seats"]
        play_first_trick(base, pages, match_id)
        pages[0].screenshot(path=str(artifacts / "quick-table-360.png"))
        pages[1].screenshot(path=str(artifacts / "quick-table-1280.png"))
        # an emote from the phone shows beside its seat on the others' tables
        seat0 = next(s["seat"] for s in pages[0].request.get(f"{base}/api/matches/{match_id}/").json()["seats"]
                     if s["you"])
        pages[0].get_by_test_id("emote-btn").click()
        pages[0].get_by_test_id("emote-panel").screenshot(path=str(artifacts / "quick-emote-panel-360.png"))
        pages[0].locator('.emote-choice[data-emote="wow"]').click()
        for p in pages:
            p.locator(f'.seat[data-seat="{seat0}"] .emote-bubble').wait_for()
        pages[1].wait_for_timeout(400)  # the bubble's pop (0.25 s) is over
        bubble = pages[1].locator(f'.seat[data-seat="{seat0}"] .emote-bubble')
        assert bubble.inner_text() == "😮" and bubble.get_attribute("aria-label") == "Wow"
        pages[1].screenshot(path=str(artifacts / "quick-emote-1280.png"))
        pages[0].screenshot(path=str(artifacts / "quick-emote-360.png"))
        # the second page mutes the phone's person: the third still sees their emotes, the second no more
        pages[1].get_by_test_id("emote-btn").click()
        pages[1].locator(f'.emote-mute input[data-seat="{seat0}"]').check()
        pages[1].locator(f'.emote-mutes[data-muted="{seat0}"]').wait_for(state="attached")  # the server has it
        for p in pages:
            p.locator(".emote-bubble").first.wait_for(state="detached")
        pages[0].get_by_test_id("emote-btn").click()
        pages[0].locator('.emote-choice[data-emote="hello"]').click()
        pages[2].locator(f'.seat[data-seat="{seat0}"] .emote-bubble').wait_for()
        pages[1].wait_for_timeout(500)
        assert pages[1].locator(".emote-bubble").count() == 0
        assert all(not p.js_errors for p in pages if hasattr(p, "js_errors"))
    finally:
        for c in contexts:
            c.close()


def test_two_people_get_two_bots_after_the_wait(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    contexts, pages = people(browser, base, 2, "t")
    try:
        for p in pages:
            press_play_online(p, rated=False, where="/lobby/")
        pages[1].get_by_test_id("qm-status").filter(has_text="Looking for players").wait_for()
        pages[1].screenshot(path=str(artifacts / "quick-lobby-waiting-1280.png"))
        ids = {match_of(p, base) for p in pages}
        assert len(ids) == 1
        match_id = ids.pop()
        view = pages[0].request.get(f"{base}/api/matches/{match_id}/").json()
        assert sorted(s["kind"] for s in view["seats"]) == ["bot", "bot", "human", "human"]
        play_first_trick(base, pages, match_id)
    finally:
        for c in contexts:
            c.close()


def test_alone_gets_three_bots_and_cancel_stops_the_wait(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    contexts, (page,) = people(browser, base, 1, "a")
    try:
        press_play_online(page, pace="correspondence")
        page.get_by_test_id("qm-cancel").click()
        page.get_by_test_id("play-online").wait_for()  # back to the button
        assert "/play/" not in page.url
        press_play_online(page, pace="correspondence")
        page.get_by_test_id("qm-status").filter(has_text="bots").or_(
            page.get_by_test_id("qm-status").filter(has_text="Looking")).first.wait_for()
        match_id = match_of(page, base)
        view = page.request.get(f"{base}/api/matches/{match_id}/").json()
        assert sorted(s["kind"] for s in view["seats"]) == ["bot", "bot", "bot", "human"]
        # the cancelled seek's wait ran out before this one's: had it been seated, there would be two matches
        assert [m["id"] for m in page.request.get(f"{base}/api/matches/").json()] == [match_id]
        page.screenshot(path=str(artifacts / "quick-alone-table-360.png"))
    finally:
        for c in contexts:
            c.close()
