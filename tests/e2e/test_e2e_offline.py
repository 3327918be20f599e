"""Play with no connection: the installed app plays a whole match against bots with the engine itself (Pyodide
in a worker), keeps it in IndexedDB, and uploads it once the network is back, verified and reviewable.

Open the site once (the service worker keeps the table and the engine), go offline, reload, open the offline
table from the offline page, play all 5 deals, go online, and find the match in My matches with its offline
badge, its replay verified by the server and its review served.
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import pytest
from e2e_helpers import FAST, new_context, play_card, play_in_page, sign_up, wait_state

pytestmark = pytest.mark.e2e


def play_to_the_end(page: Any) -> int:
    """Bid 2 and play the first legal card until the end dialog; the number of my actions. The first two deals
    by Playwright's clicks, the rest by the same clicks from inside the page (``play_in_page``)."""
    for mine in range(200):
        st = wait_state(page, timeout=60_000)
        if st == "end":
            return mine
        if page.get_by_test_id("deal-no").inner_text().startswith("Deal 3"):
            return mine + play_in_page(page)
        if st == "bid":
            page.locator('.bid-btn[data-bid="2"]').click()
            page.get_by_test_id("bid-confirm").click()
            page.wait_for_function("document.querySelector('.bid-picker').hidden")
        else:
            card = page.locator(".hand .card.legal").first
            code = card.get_attribute("data-card")
            n_before = page.locator(".hand .card").count()
            play_card(page, card)
            page.wait_for_function(
                "([c, n]) => !document.querySelector(`.hand .card[data-card='${c}']`)"
                " || document.querySelectorAll('.hand .card').length > n",
                arg=[code, n_before],
            )
    raise AssertionError("the offline match did not end")


def test_a_whole_match_offline_then_uploaded(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    ctx = new_context(browser, offline_engine=True, viewport={"width": 1280, "height": 860}, locale="en-US")
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        username = "off_" + secrets.token_hex(3)
        sign_up(page, base, username)
        # the first visit: the service worker takes the page, then keeps the engine (home asks it to)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.wait_for_selector("#offline-play[data-ready='1']", timeout=120_000)

        ctx.set_offline(True)
        page.reload()
        page.get_by_test_id("offline").wait_for()  # the offline page, from the service worker
        offer = page.locator("[data-offline-play] [data-testid='play-offline']")
        offer.wait_for()
        started = time.monotonic()
        offer.click()
        page.wait_for_url(re.compile(r".*/play-offline/$"))
        page.wait_for_selector(".hand .card", timeout=60_000)
        ready_in = time.monotonic() - started
        assert page.locator(".hand .card").count() == 13
        assert page.evaluate("window.callbreakTable.offline") is True
        assert page.locator(".seat .badge.bot").count() == 3
        commitment = page.locator(".side-panel .commitment").text_content()
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)

        # closing the app mid-match resumes it: reload (still offline) after a few moves
        wait_state(page, timeout=60_000)
        page.reload()
        page.wait_for_selector(".hand .card", timeout=60_000)
        assert page.locator(".side-panel .commitment").text_content() == commitment

        mine = play_to_the_end(page)
        assert mine >= 5
        page.screenshot(path=str(artifacts / "offline-end.png"))
        assert page.get_by_test_id("winners").inner_text().strip()
        seed = page.locator(".end-dialog .seed").text_content()
        assert seed  # the seed shows at the end, as on the server
        assert not page.get_by_test_id("review-link").is_visible()  # not uploaded yet

        # back online: the end dialog's page uploads it (and any page of the site would)
        ctx.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        page.get_by_test_id("review-link").wait_for(state="visible", timeout=30_000)
        href = page.get_by_test_id("review-link").get_attribute("href")
        match_id = int(re.search(r"/replay/(\d+)/", href).group(1))

        page.goto(f"{base}/matches/")
        row = page.get_by_test_id(f"match-{match_id}")
        row.wait_for()
        assert row.get_by_test_id("offline-badge").inner_text() == "offline"
        listed = page.request.get(f"{base}/api/matches/").json()
        assert [(m["id"], m["offline"], m["rated"], m["status"]) for m in listed] == [
            (match_id, True, False, "finished")]
        replay = page.request.get(f"{base}/api/matches/{match_id}/replay/").json()
        assert replay["seed"] == seed and len(replay["deals"]) == 5
        # the post-game review: queued, then served
        for _ in range(120):
            review = page.request.get(f"{base}/api/matches/{match_id}/analysis/")
            if review.status == 200:
                break
            assert review.status == 202, review.text()
            page.wait_for_timeout(500)
        assert review.status == 200 and review.json()["format"] == "callbreak-analysis/1"
        assert not errors, errors
        print(f"offline table ready in {ready_in:.2f} s")
    finally:
        ctx.close()
