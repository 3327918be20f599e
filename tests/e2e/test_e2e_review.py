"""The strong bot's review of a finished match in the replay viewer: the end dialog links to it, the panel
shows the progress while the server computes it (202), then the summary, the chart and the marks on the
timeline and the list of decisions; hover, focus or tap shows the better choice; 中文; a phone.
The e2e server reviews with ANALYSIS_BUDGET=2 (conftest), in a thread at the match's end.
Screenshots land in test-artifacts/e2e/."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from e2e_helpers import finish_by_api, new_context, sign_up

pytestmark = pytest.mark.e2e

ANALYSIS = re.compile(r".*/api/matches/\d+/analysis/.*")
DONE = "#review[data-state='done']"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def csrf(page: Any) -> str:
    return next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")


def one_y_scale(page: Any) -> bool:
    """The chart's y labels stand in one column (one scale), at least two of them."""
    xs = page.evaluate("[...document.querySelectorAll('.chart .c-ylab')].map(e => e.getAttribute('x'))")
    return len(xs) >= 2 and len(set(xs)) == 1


def inside(page: Any, selector: str) -> bool:
    """The element's box is wholly inside the viewport (no scrolling needed to see it)."""
    return bool(page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5"
        " && r.right <= innerWidth + 0.5; }", selector))


def test_review_of_a_finished_match(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    ctx = new_context(browser, viewport={"width": 1280, "height": 860}, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    phone_ctx = None
    try:
        sign_up(page, base, "rev_" + secrets.token_hex(3))
        made = page.request.post(f"{base}/api/matches/", data={"opponents": "bots"},
                                 headers={"X-CSRFToken": csrf(page)})
        assert made.ok, made.text()
        match_id = made.json()["id"]
        seat = page.request.get(f"{base}/api/matches/{match_id}/").json()["seat"]
        assert page.request.get(f"{base}/api/matches/{match_id}/analysis/").status == 409  # not over yet
        finish_by_api(base, {seat: page}, match_id)

        # The end dialog links to the review.
        page.goto(f"{base}/play/{match_id}/")
        page.get_by_test_id("end").wait_for()
        link = page.get_by_test_id("review-link")
        assert link.is_visible()
        assert link.get_attribute("href") == f"/replay/{match_id}/#review"
        page.screenshot(path=str(artifacts / "end-review-link.png"))

        # While the server computes it the panel shows the progress: the first answer is made a 202 here
        # (at this budget the server's own review is done within a second or two).
        # (The server's progress messages on /ws/me/ may show other counts meanwhile.)
        hold = [True]

        def pending(route: Any) -> None:
            if hold[0]:
                route.fulfill(status=202, json={"match_id": match_id, "seat": seat, "status": "running",
                                                "done": 23, "total": 70})
            else:
                route.continue_()

        page.route(ANALYSIS, pending)
        link.click()
        page.wait_for_url(re.compile(r".*/replay/\d+/#review$"))
        page.wait_for_function(
            "/Reviewing… \\d+\\/70/.test(document.querySelector('[data-testid=review-status]').textContent)")
        assert page.locator("#review").get_attribute("data-state") == "pending"
        hold[0] = False
        page.wait_for_selector(DONE, timeout=30_000)  # polled again every 3 s
        page.unroute(ANALYSIS)
        doc = page.request.get(f"{base}/api/matches/{match_id}/analysis/").json()
        assert doc["format"] == "callbreak-analysis/1" and doc["seat"] == seat

        # #review opened the panel: summary, chart, marks
        assert page.get_by_test_id("review-toggle").get_attribute("aria-expanded") == "true"
        assert page.locator("#review-body").is_visible()
        summary = page.get_by_test_id("review-summary")
        assert f"{doc['summary']['accuracy']:.1f}%" in summary.locator(".rs-acc").inner_text()
        assert summary.locator(".rs-deals tbody tr").count() == 5
        # the chart has one y scale at a time: deals 1-4 in points, or deal 5 as the chance of winning
        assert page.locator(".chart").get_attribute("data-view") == "total"
        assert page.locator(".chart .c-end").count() == 4  # the actual total after each of deals 1-4
        assert page.locator(".chart .c-line").count() >= 1
        assert one_y_scale(page)
        n_marked = sum(doc["summary"]["labels"][k] for k in ("inaccuracy", "mistake", "blunder"))
        assert n_marked >= 1, doc["summary"]
        assert page.locator("#review").get_attribute("data-marks") == str(n_marked)
        assert page.locator(".tl-mark").count() == n_marked
        bad = ("inaccuracy", "mistake", "blunder")
        marked5 = sum(1 for x in doc["decisions"] if x["deal"] == 5 and x["label"] in bad)
        assert page.locator(".chart .c-mark").count() == n_marked - marked5
        page.get_by_test_id("chart-win").click()
        assert page.locator(".chart").get_attribute("data-view") == "win"
        assert page.locator(".chart .c-end").count() == 1  # the result of the match
        assert page.locator(".chart .c-mark").count() == marked5
        assert one_y_scale(page)
        assert all(t.endswith("%") for t in page.locator(".chart .c-ylab").all_text_contents())
        page.get_by_test_id("review-chart").screenshot(path=str(artifacts / "review-chart-win.png"))
        page.get_by_test_id("chart-total").click()
        assert page.locator(".chart").get_attribute("data-view") == "total"
        assert page.locator(".review-moves .move").count() == len(doc["decisions"]) == 70
        assert page.locator(".review-moves .move .mk").filter(has_text="?").count() == n_marked
        page.screenshot(path=str(artifacts / "review-desktop.png"), full_page=True)

        # Hover a mark on the timeline: the better choice and the loss, the card drawn like the replay's.
        by_index = {str(x["index"]): x for x in doc["decisions"]}
        marks = page.locator(".tl-mark")
        ids = [marks.nth(k).get_attribute("data-i") for k in range(n_marked)]
        i = next((k for k in reversed(ids) if by_index[k]["kind"] == "card"), ids[-1])  # a card if any
        mark = page.locator(f".tl-mark[data-i='{i}']")
        d = by_index[i]
        mark.hover()
        tip = page.locator("#review-tip")
        tip.wait_for(state="visible")
        assert "Better:" in tip.inner_text() and f"(+{d['loss']:.1f})" in tip.inner_text()
        if d["kind"] == "card":
            assert tip.locator(f".mini-card .card[data-card='{d['best']}']").count() == 1
        page.screenshot(path=str(artifacts / "review-hover.png"))
        # A click takes the replay there; the box under the step label says why.
        mark.click()
        assert page.locator(".review-moves .move[aria-current='step']").get_attribute("data-i") == i
        # the replay stands on that very move (the decision's version is its place in the log)
        label = page.get_by_test_id("step-label").inner_text()
        if d["kind"] == "bid":
            assert f"bids {d['played']}" in label, label
        else:
            rank, suit = d["played"]
            assert f"plays {'10' if rank == 'T' else rank}{SUITS[suit]}" in label, label
        note = page.get_by_test_id("review-note")
        assert note.is_visible() and "Better:" in note.inner_text()
        # The keyboard: the list of decisions is one tab stop; ← → move and the replay follows.
        pos = int(page.locator("#replay-app").get_attribute("data-pos"))
        page.locator(".review-moves .move[tabindex='0']").focus()
        page.keyboard.press("ArrowLeft")
        assert int(page.locator("#replay-app").get_attribute("data-pos")) < pos
        assert page.evaluate("document.activeElement.matches('.move[aria-current=step]')")
        assert tip.is_visible()
        # "Next mark" goes back to the mark we came from
        page.get_by_test_id("next-mark").click()
        assert page.locator(".review-moves .move[aria-current='step']").get_attribute("data-i") == i
        page.get_by_test_id("review").screenshot(path=str(artifacts / "review-panel.png"))
        # the chart's marks show the same tip
        page.get_by_test_id("review-chart").scroll_into_view_if_needed()
        page.locator(".chart .c-mark").first.hover()
        tip.wait_for(state="visible")
        assert "Better:" in tip.inner_text()
        page.screenshot(path=str(artifacts / "review-chart-hover.png"))

        # 中文: the panel follows the catalog.
        page.get_by_test_id("lang-zh-hans").click()
        page.wait_for_load_state()
        page.wait_for_selector(DONE)
        if page.get_by_test_id("review-toggle").get_attribute("aria-expanded") != "true":
            page.get_by_test_id("review-toggle").click()
        assert "复盘" in page.locator("#review-title").inner_text()
        assert "准确率" in page.get_by_test_id("review-summary").inner_text()
        page.get_by_test_id("review").screenshot(path=str(artifacts / "review-zh.png"))
        page.get_by_test_id("lang-en").click()
        page.wait_for_load_state()

        # A phone: the same review, a tap on a mark shows the better choice.
        phone_ctx = new_context(browser, viewport={"width": 360, "height": 740}, locale="en-US",
                                is_mobile=True, has_touch=True)
        phone_ctx.add_cookies(ctx.cookies())
        phone = phone_ctx.new_page()
        phone.set_default_timeout(20_000)
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        phone.goto(f"{base}/replay/{match_id}/#review")
        phone.wait_for_selector(DONE)
        phone.wait_for_selector(".chart")
        assert phone.evaluate("document.querySelector('.chart').getBoundingClientRect().right <= innerWidth")
        assert phone.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [360, 360]  # no sideways scroll
        phone.screenshot(path=str(artifacts / "review-phone.png"))
        phone.locator(".tl-mark").last.tap()
        pnote = phone.get_by_test_id("review-note")
        pnote.wait_for(state="visible")
        assert "Better:" in pnote.inner_text()
        assert phone.locator("#review-tip").is_hidden()
        pnote.scroll_into_view_if_needed()
        phone.screenshot(path=str(artifacts / "review-phone-tap.png"))
        phone.screenshot(path=str(artifacts / "review-phone-full.png"), full_page=True)
        assert one_y_scale(phone)

        # A phone, upright and sideways: choosing a decision shows the board and the box saying why
        # together, without scrolling back up.
        for w, h in ((360, 740), (740, 360)):
            phone.set_viewport_size({"width": w, "height": h})
            for kind, target in (("mark", phone.locator(".tl-mark").first),
                                 ("move", phone.locator(".review-moves .move.lab-mistake, "
                                                        ".review-moves .move.lab-inaccuracy, "
                                                        ".review-moves .move.lab-blunder").last)):
                target.tap()
                pnote.wait_for(state="visible")
                assert "Better:" in pnote.inner_text()
                assert inside(phone, ".replay-table"), (w, h, kind)
                assert inside(phone, "[data-testid=review-note]"), (w, h, kind)
                phone.screenshot(path=str(artifacts / f"review-phone-{w}x{h}-{kind}.png"))
            assert phone.evaluate("document.documentElement.scrollWidth") == w  # no sideways scroll
    finally:
        if phone_ctx is not None:
            phone_ctx.close()
        ctx.close()
    assert not errors, errors
