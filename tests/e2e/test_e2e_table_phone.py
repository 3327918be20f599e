"""The table on a phone, measured: at 360×740 (the hand in two rows) and 740×360, each card of the hand
has at least 36 px by 36 px of its own to tap; no card of the trick covers another; the header steps aside
while playing; a full-screen button in landscape; a forced card is played by itself (the table's option);
the end dialog leaves the last trick in view with all its actions on screen. One deal is played on the
phone, the other four through the API; the finished match opened again. Options change the pace and
auto-play; at most one notice per match however many turns come. Screenshots land in test-artifacts/e2e/.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from e2e_helpers import (
    FAST,
    TAP_TARGETS_JS,
    assert_in_viewport,
    finish_by_api,
    new_context,
    play_card,
    sign_up,
    wait_state,
)

pytestmark = pytest.mark.e2e

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}

# Pairs of trick cards whose boxes overlap (more than half a pixel).
TRICK_OVERLAPS_JS = """() => {
  const boxes = [...document.querySelectorAll('.trick .card')].map((c) => c.getBoundingClientRect());
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0.5 && h > 0.5) out.push([i, j, Math.round(w), Math.round(h)]);
  }
  return out;
}"""

# The trick's cards that the end dialog covers.
UNDER_DIALOG_JS = """() => {
  const d = document.querySelector('.end-dialog').getBoundingClientRect();
  return [...document.querySelectorAll('.trick .card')].map((c) => c.getBoundingClientRect())
    .filter((b) => Math.min(b.right, d.right) - Math.max(b.left, d.left) > 0.5
      && Math.min(b.bottom, d.bottom) - Math.max(b.top, d.top) > 0.5).length;
}"""


def check_table(page: Any, tag: str, artifacts: Any) -> None:
    page.wait_for_function("!document.querySelector('.hand .deal-in')")
    page.screenshot(path=str(artifacts / "phone-last-checked.png"))
    targets = page.evaluate(TAP_TARGETS_JS)
    small = [t for t in targets if t[1] < 36 or t[2] < 36]
    assert not small, f"{tag}: cards with less than 36 px to tap: {small} of {targets}"
    assert not page.evaluate(TRICK_OVERLAPS_JS), f"{tag}: trick cards overlap"
    assert page.evaluate("getComputedStyle(document.querySelector('.topbar')).display") == "none", tag
    assert_in_viewport(page, [".hand .card:first-child", ".hand .card:last-child", "[data-testid=trick]",
                              "[data-testid=menu-chip]"])


@pytest.mark.parametrize("size", ["portrait", "landscape"])
def test_a_match_on_a_phone_measured(browser: Any, site_url: str, artifacts: Any, size: str) -> None:
    viewport = PORTRAIT if size == "portrait" else LANDSCAPE
    ctx = new_context(browser, viewport=viewport, locale="en-US", is_mobile=True, has_touch=True)
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_up(page, site_url, f"ph{size[0]}_" + secrets.token_hex(3), email=False)
        page.get_by_test_id("play-bots").tap()
        page.wait_for_url(re.compile(r".*/play/\d+/$"))
        page.wait_for_selector(".hand .card")
        checked = trick_seen = 0
        for _ in range(400):
            state = wait_state(page)
            deal = page.get_by_test_id("deal-no").inner_text()
            if state == "end" or deal.startswith("Deal 3") or (deal.startswith("Deal 2") and trick_seen):
                break  # a deal on the phone (a second if I led every trick), the rest through the API
            if state == "bid":
                page.locator(".bid-btn[data-bid='2']").tap()
                page.get_by_test_id("bid-confirm").tap()
                page.wait_for_function("document.querySelector('.bid-picker').hidden")
                continue
            hand = page.locator(".hand .card").count()
            # a card the rules leave alone is played by itself: the player never has to tap it
            assert not (page.locator(".hand .card.legal").count() == 1 and hand == 1), "a forced card waited"
            if hand == 13 or (trick_seen < 3 and page.locator(".trick .card").count() >= 2):
                check_table(page, f"{size} with {hand} cards", artifacts)
                checked += 1
                if page.locator(".trick .card").count() >= 2:
                    trick_seen += 1
                    page.screenshot(path=str(artifacts / f"phone-{size}-{trick_seen}.png"))
            if size == "landscape":
                assert_in_viewport(page, ["[data-testid=fullscreen-btn]"])
            card = page.locator(".hand .card.legal").first
            code = card.get_attribute("data-card")
            play_card(page, card, tap=True)
            page.wait_for_selector(f".hand .card[data-card='{code}']", state="detached")
        else:
            pytest.fail("the match did not reach its second deal with a trick seen")
        assert checked >= 2 and trick_seen >= 1, (checked, trick_seen)
        # the deal's last card was played by itself
        assert int(page.get_by_test_id("table").evaluate("(t) => t.closest('#table-app').dataset.autoPlayed")) >= 1
        match_id = int(page.url.rstrip("/").split("/")[-1])
        seat = page.evaluate("fetch(location.pathname.replace('/play/', '/api/matches/')).then(r => r.json())")["seat"]
        finish_by_api(site_url, {seat: page}, match_id)
        page.reload()  # the table following the API's burst live is test_e2e_table.py's and test_e2e_phone.py's
        assert wait_state(page) == "end"
        # the end dialog: beside the last trick, every action on screen
        page.wait_for_function("document.querySelectorAll('.trick .card').length === 4")
        page.screenshot(path=str(artifacts / f"end-phone-{size}-beside.png"))
        assert page.evaluate(UNDER_DIALOG_JS) == 0, "the end dialog covers the last trick"
        assert_in_viewport(page, [".end-dialog", "#end-close", "#replay-link", "#play-again"])
        page.screenshot(path=str(artifacts / f"end-phone-{size}-beside.png"))
        # the phone turns: still beside the trick
        page.set_viewport_size(LANDSCAPE if size == "portrait" else PORTRAIT)
        page.wait_for_timeout(200)
        assert page.evaluate(UNDER_DIALOG_JS) == 0, "the end dialog covers the last trick once turned"
        assert_in_viewport(page, [".end-dialog", "#end-close", "#replay-link", "#play-again"])
        page.screenshot(path=str(artifacts / f"end-phone-{size}-turned.png"))
        assert not errors, errors
    finally:
        ctx.close()


def test_options_change_the_pace_and_the_forced_card(browser: Any, site_url: str, artifacts: Any) -> None:
    """The Options dialog: the card speed scales the table's waits; with auto-play off the forced last card
    waits for the player, and turning it on plays it. Both are kept for the account (a reload keeps them)."""
    ctx = new_context(browser, viewport={"width": 1280, "height": 860}, locale="en-US")
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    page.set_default_timeout(60_000)  # a busy machine: the new match is made with its bots' first moves
    try:
        sign_up(page, site_url, "opt_" + secrets.token_hex(3), email=False)
        page.get_by_test_id("play-bots").click()
        page.wait_for_url(re.compile(r".*/play/\d+/$"))
        page.wait_for_selector(".hand .card")
        pace = "window.callbreakTable.pace"
        assert page.evaluate(pace) == pytest.approx(0.1)  # normal, with the tests' 0.1
        page.get_by_test_id("options-btn").click()
        page.get_by_label("Slow").check()
        page.wait_for_function(f"{pace} > 0.15")
        page.get_by_test_id("opt-auto-play").uncheck()
        page.get_by_text("Saved").wait_for()
        page.screenshot(path=str(artifacts / "table-options.png"))
        page.keyboard.press("Escape")
        page.reload()
        page.wait_for_selector(".hand .card")
        page.wait_for_function(f"{pace} > 0.15")  # slow, kept for the account
        page.get_by_test_id("options-btn").click()
        assert not page.get_by_test_id("opt-auto-play").is_checked()
        page.get_by_label("Instant").check()
        page.wait_for_function(f"{pace} < 0.01")
        page.keyboard.press("Escape")
        for _ in range(60):
            state = wait_state(page)
            if state == "bid":
                page.locator(".bid-btn[data-bid='1']").click()
                page.get_by_test_id("bid-confirm").click()
                page.wait_for_function("document.querySelector('.bid-picker').hidden")
                continue
            if page.locator(".hand .card").count() == 1:
                break
            card = page.locator(".hand .card.legal").first
            code = card.get_attribute("data-card")
            play_card(page, card)
            page.wait_for_selector(f".hand .card[data-card='{code}']", state="detached")
        # the last card of the deal waits for the player: auto-play is off
        assert state == "play" and page.locator(".hand .card.legal").count() == 1
        page.wait_for_timeout(300)
        assert page.locator(".hand .card").count() == 1
        page.get_by_test_id("options-btn").click()
        page.get_by_test_id("opt-auto-play").check()
        page.keyboard.press("Escape")
        page.wait_for_function("document.querySelector('#table-app').dataset.handCards !== '1'")
        assert page.evaluate("document.querySelector('#table-app').dataset.autoPlayed") == "1"
    finally:
        ctx.close()
