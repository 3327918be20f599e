"""Every page, checked with axe-core in Chromium (no serious or critical violation) under the
Content-Security-Policy the site is moving to (no inline script or style, no on* attributes)."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from e2e_helpers import SAVE_DATA, finish_by_api, sign_up

pytestmark = pytest.mark.e2e

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; font-src 'self'; manifest-src 'self'; worker-src 'self'")
CSP_WATCH = """document.addEventListener('securitypolicyviolation', (e) => {
  (window.__csp = window.__csp || []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ''}`);
});"""


def with_csp(context: Any) -> None:
    """Serve every page with the Content-Security-Policy header and record what it blocks."""

    def add_header(route: Any) -> None:
        if route.request.resource_type != "document":
            route.continue_()
            return
        response = route.fetch(max_redirects=0)
        headers = {**response.headers, "content-security-policy": CSP}
        route.fulfill(response=response, headers=headers)

    context.route("**/*", add_header)
    context.add_init_script(CSP_WATCH)


def check(page: Any, name: str, failures: list[str]) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                              for n in v["nodes"][:4])
            failures.append(f"{name}: {v['id']} ({v['impact']}) {v['help']} — {nodes}")
    blocked = page.evaluate("window.__csp || []")
    failures.extend(f"{name}: CSP blocked {b}" for b in blocked)


def test_every_page_is_accessible(browser: Any, site_url: str) -> None:
    base = site_url
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")  # the CSP kept
    ctx.add_init_script(SAVE_DATA)
    with_csp(ctx)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    failures: list[str] = []
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for path in ("/", "/rules/", "/accounts/signup/", "/accounts/login/", "/leaderboard/"):
            page.goto(base + path)
            check(page, f"{path} (signed out)", failures)
        username = "axe_" + secrets.token_hex(3)
        sign_up(page, base, username)
        page.wait_for_load_state("networkidle")
        check(page, "/ (signed in)", failures)
        # a match against bots: the table while bidding, then the finished table and its replay
        page.get_by_test_id("play-bots").click()
        page.wait_for_url(re.compile(r".*/play/\d+/$"))
        page.wait_for_selector(".hand .card")
        page.wait_for_selector("#table-app[data-interactive='1']")  # (no wait_for_function: CSP forbids eval)
        check(page, "table", failures)
        match_id = int(page.url.rstrip("/").split("/")[-1])
        seat = page.evaluate("fetch(location.pathname.replace('/play/', '/api/matches/')).then(r => r.json())")["seat"]
        finish_by_api(base, {seat: page}, match_id)
        page.reload()
        page.get_by_test_id("end").wait_for()
        check(page, "table (finished, end dialog)", failures)
        page.goto(f"{base}/replay/{match_id}/")
        page.wait_for_selector("#replay-app[data-ready='1']")
        check(page, "replay", failures)
        # the review panel open, with its summary, chart and decisions, and a decision's tip
        page.goto(f"{base}/replay/{match_id}/#review")
        page.wait_for_selector("#review[data-state='done'] .chart", timeout=30_000)
        page.locator(".review-moves .move").nth(3).focus()
        check(page, "replay (review open)", failures)
        page.goto(f"{base}/matches/")
        page.wait_for_selector(".match-list")
        check(page, "my matches", failures)
        page.goto(f"{base}/lobby/")
        page.wait_for_selector("#table-list li:not(.muted)")
        check(page, "lobby", failures)
        page.get_by_test_id("create-table").click()
        page.wait_for_url(re.compile(r".*/tables/\d+/$"))
        page.wait_for_selector("[data-testid=seat-0]")
        check(page, "table room", failures)
        for path in ("/leaderboard/", f"/players/{username}/", "/settings/", "/rules/", "/watch/"):
            page.goto(base + path)
            check(page, f"{path} (signed in)", failures)
        page.goto(f"{base}/friends/")
        page.wait_for_selector("#friend-list li")
        check(page, "friends", failures)
        # a phone: the menu opens
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{base}/")
        page.locator("#menu-btn").click()
        page.get_by_test_id("nav-lobby").wait_for(state="visible")
        check(page, "/ (phone, menu open)", failures)
    finally:
        ctx.close()
    assert not failures, "\n".join(failures)
    assert not errors, errors
