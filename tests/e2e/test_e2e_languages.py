"""The table in नेपाली, हिन्दी and 中文, chosen from the browser's language, at 360×740, 740×360 and on a desktop:
the page is in that language (the menu's language buttons, the status line, the hand's labels), Devanagari is
set in the font shipped with the site, and the language can be changed from the menu. Screenshots land in
test-artifacts/e2e/table-<lang>-<size>.png."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from e2e_helpers import FAST, new_context, play_card, sign_up, wait_state

pytestmark = pytest.mark.e2e

SIZES = {"portrait": {"width": 360, "height": 740}, "landscape": {"width": 740, "height": 360},
         "desktop": {"width": 1280, "height": 860}}
# browser language -> (the page's lang, words of the table in it, the label of "spades" in the hand)
LANGS = {
    "ne-NP": ("ne", ["बाजी 1 / 5"], "सुरत"),
    "hi-IN": ("hi", ["बाज़ी 1 / 5"], "हुकुम"),
    "zh-CN": ("zh-hans", ["第 1"], None),
}


@pytest.mark.parametrize("locale", list(LANGS))
def test_the_table_in_each_language(browser: Any, site_url: str, artifacts: Any, locale: str) -> None:
    lang, words, spade = LANGS[locale]
    ctx = new_context(browser, viewport=SIZES["desktop"], locale=locale)
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        sign_up(page, site_url, "lang_" + secrets.token_hex(3), email=False)
        assert page.evaluate("document.documentElement.lang") == lang
        page.get_by_test_id("play-bots").click()
        page.wait_for_url(re.compile(r".*/play/\d+/$"), wait_until="commit")
        try:
            page.wait_for_selector(".hand .card")
        except Exception:
            raise AssertionError(f"no hand; page errors: {errors}") from None
        deal = page.get_by_test_id("deal-no").inner_text()
        assert any(w in deal for w in words), deal
        if spade:
            labels = " ".join(page.locator(".hand .card").evaluate_all("(cs) => cs.map((c) => c.ariaLabel)"))
            # a hand with no spade at all is dealt about once in 80 matches: then no label can name the suit
            spades = page.locator(".hand .card").evaluate_all(
                "(cs) => cs.filter((c) => c.dataset.card.endsWith('S')).length")
            assert spade in labels if spades else spade not in labels, labels
            page.evaluate("document.fonts.ready")
            assert page.evaluate("document.fonts.check('16px \"CB Devanagari\"', 'क')"), "no Devanagari font"
            assert page.evaluate("[...document.fonts].some((f) => f.family.includes('CB Devanagari')"
                                 " && f.status === 'loaded')"), "the shipped Devanagari font was not loaded"
        shots = 0
        for _ in range(80):
            state = wait_state(page)
            if state == "bid":
                page.locator(".bid-btn[data-bid='2']").click()
                page.get_by_test_id("bid-confirm").click()
                page.wait_for_function("document.querySelector('.bid-picker').hidden")
                continue
            if state != "play":
                break
            if page.locator(".trick .card").count() >= 2:
                for size, vp in SIZES.items():
                    page.set_viewport_size(vp)
                    page.wait_for_timeout(150)
                    page.screenshot(path=str(artifacts / f"table-{lang}-{size}.png"))
                page.set_viewport_size(SIZES["desktop"])
                shots += 1
                break
            card = page.locator(".hand .card.legal").first
            code = card.get_attribute("data-card")
            play_card(page, card)
            page.wait_for_selector(f".hand .card[data-card='{code}']", state="detached")
        assert shots == 1
        # no English left in the status line or the table's tools
        text = page.locator(".statusbar, .table-tools").inner_text() if False else " ".join(
            page.locator(".statusbar, .table-tools button:visible").all_inner_texts())
        for english in ("Your turn", "Waiting for", "Last trick", "Options", "Scores"):
            assert english not in text, (english, text)
        # the rules page in the language, then back to English from the menu
        page.goto(f"{site_url}/rules/")
        page.screenshot(path=str(artifacts / f"rules-{lang}.png"))
        page.get_by_test_id("lang-en").click()
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert not errors, errors
    finally:
        ctx.close()
