"""A private table's room code, as two people use it on phones: the host creates the table and reads the code on
its page (big, in two groups); Share hands a ready text to the system's share sheet, or without one copies it and
says so; another person types the code on the home page (lower case, with a space) and sits at the table, which
the host sees at once. The code, Share and the join form are at least 44 px tall at 360×740, and nothing covers
them at 360×740, 740×360 and 1366×768, in English and Nepali (axe-core finds nothing serious on a phone).
Screenshots land in test-artifacts/e2e/room-code/."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import new_context, people, sign_up

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
SIZES = {"360x740": PHONE, "740x360": {"width": 740, "height": 360}, "1366x768": {"width": 1366, "height": 768}}

# Each visible element's size and whether a tap at its middle lands on it (nothing covers it).
TARGETS_JS = """(sel) => [...document.querySelectorAll(sel)].filter((el) => el.getClientRects().length).map((el) => {
  el.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {what: el.dataset.testid || el.id || el.className || el.tagName, w: r.width, h: r.height,
          left: r.left, right: r.right, covered: !(hit && (hit === el || el.contains(hit)))};
})"""


def check_targets(page: Any, selector: str, tag: str, *, min_size: float | None = 44) -> list[dict[str, Any]]:
    """Every element ``selector`` finds is inside the page's width, not covered and (``min_size``) large enough
    to tap; the page does not scroll sideways."""
    targets = page.evaluate(TARGETS_JS, selector)
    assert targets, f"{tag}: nothing matches {selector}"
    width = page.evaluate("innerWidth")
    for t in targets:
        assert not t["covered"], f"{tag}: {t['what']} is covered: {t}"
        assert t["left"] >= -1 and t["right"] <= width + 1, f"{tag}: {t['what']} is cut off: {t}"
        if min_size is not None:
            assert t["h"] >= min_size and t["w"] >= min_size, f"{tag}: {t['what']} is under {min_size} px: {t}"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), f"{tag}: the page scrolls sideways"
    return list(targets)


def serious_axe_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    return [f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes'][:3]]}"
            for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]


def create_private_table(page: Any, base: str) -> str:
    page.goto(f"{base}/lobby/")
    page.select_option("select[name=visibility]", "private")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r".*/tables/\d+/$"))
    page.get_by_test_id("room-code").wait_for()
    return page.url


def test_a_friend_joins_by_the_room_code(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    phone = {"viewport": PHONE, "locale": "en-US", "is_mobile": True, "has_touch": True}
    with people(browser, phone, phone) as ((host, guest), errors):
        hname, gname = "rch_" + secrets.token_hex(3), "rcg_" + secrets.token_hex(3)
        sign_up(host, base, hname, email=False)
        sign_up(guest, base, gname, email=False)
        room = create_private_table(host, base)

        code = host.get_by_test_id("room-code").get_attribute("data-code")
        assert code and re.fullmatch(r"[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}", code), code
        shown = host.locator("[data-testid=room-code] [aria-hidden=true]").inner_text()
        assert shown.strip() == f"{code[:3]} {code[3:]}", shown
        check_targets(host, "[data-testid=room-code], #table-room button, #table-room select, #table-room input",
                      "table room 360x740")

        # no share sheet (as on most desktops): Share copies the ready text and says so
        host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        host.evaluate("() => { Object.defineProperty(Navigator.prototype, 'share', "
                      "{value: undefined, configurable: true}); }")
        host.get_by_test_id("share").tap()
        host.wait_for_function("document.querySelector('[data-testid=share-status]').textContent.includes('Copied')")
        copied = host.evaluate("navigator.clipboard.readText()")
        assert f"{code[:3]} {code[3:]}" in copied and f"{base}/invite/" in copied and "Call Break" in copied, copied

        # the friend types it on the home page, in lower case with a space; a wrong code first
        guest.goto(f"{base}/")
        check_targets(guest, "[data-testid=join-code], [data-testid=join-code-submit]", "home 360x740")
        wrong = "ZZZ ZZZ" if code != "ZZZZZZ" else "YYY YYY"
        guest.get_by_test_id("join-code").fill(wrong)
        guest.get_by_test_id("join-code-submit").tap()
        guest.locator("[data-join-code] .form-error").wait_for()
        assert "No open table has this code" in guest.locator("[data-join-code] .form-error").inner_text()
        guest.get_by_test_id("join-code").fill(f"{code[:3].lower()} {code[3:].lower()}")
        guest.get_by_test_id("join-code-submit").tap()
        guest.wait_for_url(room)
        guest.wait_for_function(
            f"document.querySelector('[data-testid=seat-1]')?.innerText.includes('{gname} (you)')")
        assert guest.get_by_test_id("room-code").get_attribute("data-code") == code
        # the host's page follows by itself, drawn again: what Share said is still there
        host.wait_for_function(f"document.querySelector('[data-testid=seat-1]').innerText.includes('{gname}')")
        assert "Copied" in host.get_by_test_id("share-status").inner_text()
        host.screenshot(path=str(artifacts / "room-code-host-joined.png"))
        # with a share sheet: the same text goes to it
        host.evaluate("""() => { Object.defineProperty(Navigator.prototype, 'share', {configurable: true,
          value: (data) => { window.sharedData = data; return Promise.resolve(); }}); }""")
        host.get_by_test_id("share").tap()
        host.wait_for_function("window.sharedData !== undefined")
        assert host.evaluate("window.sharedData.text") == copied
        assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_room_code_screens(browser: Any, site_url: str, artifacts: Path, lang: str) -> None:
    """The table room and the join form (home, lobby) at a phone's two ways and a laptop, in English and Nepali."""
    out = artifacts / "room-code"
    out.mkdir(exist_ok=True)
    locale = "en-US" if lang == "en" else "ne-NP"
    ctx = new_context(browser, viewport=PHONE, locale=locale)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_up(page, site_url, f"rcs{lang}_" + secrets.token_hex(3), email=False)
        assert page.evaluate("document.documentElement.lang") == lang
        room = create_private_table(page, site_url)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(room)
            page.get_by_test_id("room-code").wait_for()
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(out / f"table-room-{lang}-{size}.png"))
            tall = size == "360x740"
            check_targets(page, "[data-testid=room-code], [data-testid=share]", f"{lang} room {size}",
                          min_size=44 if tall else None)
            check_targets(page, "#table-room button, #table-room select, #table-room input", f"{lang} room {size}",
                          min_size=44 if tall else None)
            if tall:
                assert not serious_axe_violations(page), serious_axe_violations(page)
            page.goto(f"{site_url}/")
            page.get_by_test_id("join-code").scroll_into_view_if_needed()
            page.get_by_test_id("join-code").fill("abc 234")
            page.get_by_test_id("join-code-submit").click()
            page.locator("[data-join-code] .form-error").wait_for()
            page.locator("[data-join-code]").evaluate("(f) => f.scrollIntoView({block: 'center'})")
            page.screenshot(path=str(out / f"home-join-{lang}-{size}.png"))
            check_targets(page, "[data-testid=join-code], [data-testid=join-code-submit]", f"{lang} home {size}",
                          min_size=44 if tall else None)
            check_targets(page, "[data-join-code] .form-error, [data-join-code] label", f"{lang} home {size}",
                          min_size=None)
            if tall:
                assert not serious_axe_violations(page), serious_axe_violations(page)
            page.goto(f"{site_url}/lobby/")
            page.get_by_test_id("join-code").scroll_into_view_if_needed()
            page.screenshot(path=str(out / f"lobby-join-{lang}-{size}.png"))
            check_targets(page, "[data-testid=join-code], [data-testid=join-code-submit]", f"{lang} lobby {size}",
                          min_size=44 if tall else None)
        assert not errors, errors
    finally:
        ctx.close()
