"""The settings page in a browser: "tap twice to play" set there is honoured by the table (a first tap raises a
card, a second plays it); no request of any page answers 404 (push off included: the page asks for the push key
and is told push is off, with a 200); the page at 360×740, 740×360 and 1366×768 in English and Hindi, its tap
targets at least 44 px on phones and no text covered. Screenshots land in test-artifacts/e2e/ and /tmp/shots/."""

from __future__ import annotations

import re
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import FAST, SMALL_TARGETS_JS, covered_texts, new_context, play_card, sign_up, wait_state

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp/shots")
PHONE = {"width": 360, "height": 740}


def _phone(browser: Any, locale: str = "en-US", viewport: dict[str, int] = PHONE) -> Any:
    ctx = new_context(browser, viewport=viewport, locale=locale, is_mobile=True, has_touch=True)
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return page


def test_tap_twice_to_play(browser: Any, site_url: str) -> None:
    page = _phone(browser)
    try:
        sign_up(page, site_url, "tap_" + secrets.token_hex(3), email=False)
        page.goto(f"{site_url}/settings/")
        page.get_by_test_id("opt-tap-twice").tap()
        page.locator("#table_auto_play").uncheck()  # no card played for me: every card is my taps'
        page.get_by_test_id("table-options-save").tap()
        page.wait_for_url(re.compile(r".*/settings/#table$"))
        assert page.locator("#table_tap_twice").is_checked()
        page.goto(f"{site_url}/")
        page.get_by_test_id("play-bots").tap()
        page.wait_for_url(re.compile(r".*/play/\d+/$"))
        page.wait_for_function("document.querySelector('[data-tap-twice=\"1\"]') !== null")  # options loaded
        for _ in range(60):
            state = wait_state(page)
            if state == "bid":
                page.locator(".bid-btn[data-bid='2']").tap()
                page.get_by_test_id("bid-confirm").tap()
                page.wait_for_function("document.querySelector('.bid-picker').hidden")
                continue
            assert state == "play", state
            if page.locator(".hand .card.legal").count() >= 2:
                break
            play_card(page, page.locator(".hand .card.legal").first, tap=True)  # one legal card: raise, play
            play_card(page, page.locator(".hand .card.legal").first, tap=True)
        else:
            pytest.fail("never two playable cards")
        page.wait_for_function("!document.querySelector('.hand .deal-in')")
        before = page.locator(".hand .card").count()
        first, second = page.locator(".hand .card.legal").nth(0), page.locator(".hand .card.legal").nth(1)
        code = first.get_attribute("data-card")
        play_card(page, first, tap=True)
        assert "raised" in (first.get_attribute("class") or "") and page.locator(".hand .card").count() == before
        play_card(page, second, tap=True)  # another card: that one is raised instead, nothing played
        assert page.locator(".hand .card.raised").count() == 1 and page.locator(".hand .card").count() == before
        play_card(page, first, tap=True)  # raise the first again, then the second tap plays it
        play_card(page, first, tap=True)
        page.wait_for_function(f"!document.querySelector('.hand .card[data-card=\"{code}\"]')")
        assert page.locator(".hand .card").count() == before - 1
        assert page.js_errors == []
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def push_off_url(site_url: str, site_env: dict[str, str]) -> Iterator[str]:
    """A second server of the same database with push off (no VAPID keys)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**site_env, "VAPID_PUBLIC_KEY": "", "VAPID_PRIVATE_KEY": ""}
    log = Path(env["E2E_TMP"]) / "push-off-server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                 "callbreak_site.asgi:application"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the push-off server did not start"
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


API_JS = """async ([path, method, body]) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  const r = await fetch(path, { method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(body) });
  return r.json();
}"""


@pytest.mark.parametrize("push", ["on", "off"])
def test_no_request_of_any_page_answers_404(browser: Any, site_url: str, push: str, request: Any) -> None:
    base = site_url if push == "on" else request.getfixturevalue("push_off_url")
    page = _phone(browser)
    answers: list[tuple[int, str]] = []
    page.on("response", lambda r: answers.append((r.status, r.url)))
    try:
        page.goto(f"{base}/")
        sign_up(page, base, f"nf{push}_" + secrets.token_hex(3), from_home=True)
        for path in ("/", "/settings/", "/lobby/"):
            page.goto(f"{base}{path}")
            page.wait_for_load_state("networkidle")
        # a correspondence match's page offers push in its clock's bar: it asks for the key
        table = page.evaluate(API_JS, ["/api/tables/", "POST", {"visibility": "private", "move_seconds": 86400,
                                                                "rated": False}])
        page.evaluate(API_JS, [f"/api/tables/{table['id']}/bots/", "POST", {"bot": "random"}])
        started = page.evaluate(API_JS, [f"/api/tables/{table['id']}/start/", "POST", {}])
        with page.expect_response(lambda r: "/api/push/key/" in r.url) as key:
            page.goto(f"{base}/play/{started['match_id']}/")
        assert key.value.status == 200 and key.value.json()["enabled"] is (push == "on")
        page.wait_for_load_state("networkidle")
        missing = [url for status, url in answers if status == 404]
        assert missing == [], missing
        assert len(answers) > 20 and page.js_errors == []
    finally:
        page.context.close()


SIZES = {"360x740": {"width": 360, "height": 740}, "740x360": {"width": 740, "height": 360},
         "1366x768": {"width": 1366, "height": 768}}


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_the_settings_page_at_three_sizes(browser: Any, site_url: str, artifacts: Path, lang: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _phone(browser, locale="hi-IN" if lang == "hi" else "en-US")
    try:
        sign_up(page, site_url, f"set{lang}_" + secrets.token_hex(3))
        page.goto(f"{site_url}/settings/")
        # a refused password change shows the rules' messages in the page's language
        page.fill("#password_old_password", "wrong-password-1")
        page.fill("#password_new_password1", "12345678")
        page.fill("#password_new_password2", "12345678")
        page.get_by_test_id("password-submit").tap()
        page.locator("#password .field-errors").first.wait_for()
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            phone = size["width"] < 1000
            scoped = SMALL_TARGETS_JS.replace("document.querySelectorAll(sel)",
                                              "document.querySelector('.settings-page').querySelectorAll(sel)")
            small = page.evaluate(scoped, 44)
            assert not phone or small == [], (name, lang, small)
            covered = [c for c in covered_texts(page) if c]
            assert covered == [], (name, lang, covered)
            for shot in (SHOTS / f"settings-{lang}-{name}.png", artifacts / f"settings-{lang}-{name}.png"):
                page.screenshot(path=str(shot), full_page=True)
            for part in ("table", "password", "deactivate"):  # what a person sees there, one screen each
                page.locator(f"#{part}").scroll_into_view_if_needed()
                page.evaluate(f"document.getElementById('{part}').scrollIntoView()")
                page.screenshot(path=str(SHOTS / f"settings-{lang}-{name}-{part}.png"))
        assert page.js_errors == []
    finally:
        page.context.close()
