"""A real Chromium plays a match against three bots through the browser pages.

Sign up, start a match, bid and play two deals by clicking highlighted cards (the other three through the
API, the open table following them live), check a locked card
explains itself and sends nothing, see the winners, open the replay and step through it, verify the
seed, and switch to 中文 and back. Screenshots land in test-artifacts/e2e/.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import FAST, finish_by_api, new_context, play_card, sign_up, wait_state

pytestmark = pytest.mark.e2e


def sign_up_from_home(page: Any, base: str, username: str) -> None:
    sign_up(page, base, username, from_home=True)
    assert page.locator(".username").inner_text() == username


def test_full_match_in_the_browser(page: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    username = "e2e_" + secrets.token_hex(3)
    page.context.add_init_script(FAST)
    sign_up_from_home(page, base, username)

    action_posts: list[str] = []
    page.on(
        "request",
        lambda r: action_posts.append(r.url) if r.method == "POST" and "/actions/" in r.url else None,
    )

    frames: list[str] = []
    sent_frames: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))
        ws.on("framesent", lambda payload: sent_frames.append(str(payload)))

    page.on("websocket", on_socket)
    fell_back = False

    page.get_by_test_id("play-bots").click()
    page.wait_for_url(re.compile(r".*/play/\d+/$"))
    table_url = page.url
    page.wait_for_selector(".hand .card")
    assert page.locator(".hand .card").count() == 13

    # The layout: four plates, one of them is mine at the bottom, three bots.
    assert page.locator(".seat.pos-bottom .badge.you").count() == 1
    assert page.locator(".seat .badge.bot").count() == 3

    my_actions = 0
    bids = 0
    locked_checked = False
    shot_table = False
    for _ in range(400):
        st = wait_state(page)
        if st == "end" or page.get_by_test_id("deal-no").inner_text().startswith("Deal 3"):
            break  # two deals in the browser here, the rest through the API
        if st == "bid":
            # the picker shows the bids so far and the running total against 13
            assert "/ 13" in page.locator(".bid-total").inner_text()
            enabled = page.locator(".bid-btn:not([disabled])")
            assert enabled.count() == 13
            page.locator('.bid-btn[data-bid="2"]').click()
            confirm = page.get_by_test_id("bid-confirm")
            assert "2" in confirm.inner_text()
            confirm.click()
            bids += 1
            my_actions += 1
            page.wait_for_function("document.querySelector('.bid-picker').hidden")
            continue
        # the first-trick hint is for the player who leads the deal's first trick only
        if page.locator(".first-trick-hint").is_visible():
            assert page.locator(".trick .card").count() == 0
        # playing
        if not locked_checked and page.locator(".hand .card.locked").count() > 0:
            before = len(action_posts)
            locked = page.locator(".hand .card.locked").first
            reason_code = locked.get_attribute("data-reason")
            play_card(page, locked)
            bubble = page.get_by_test_id("reason")
            bubble.wait_for(state="visible")
            text = bubble.inner_text()
            assert text.strip(), "a locked card must say why"
            assert reason_code, "a locked card carries its reason code"
            page.wait_for_timeout(600)
            assert len(action_posts) == before, "clicking a locked card must send nothing"
            locked_checked = True
            page.screenshot(path=str(artifacts / "table-locked-reason.png"))
        if not shot_table and my_actions >= 8 and page.locator(".trick .card").count() >= 2:
            page.screenshot(path=str(artifacts / "table-desktop.png"))
            shot_table = True
            # markers: one dealer, one seat to play (mine), and the last trick can be reviewed
            assert not page.locator(".status-actions").is_visible()
            assert page.locator(".seat .dealer-chip:not([hidden])").count() == 1
            assert page.locator(".seat.turn").count() == 1
            assert page.locator(".seat.pos-bottom.turn").count() == 1
            page.locator("#last-trick-btn").click()
            assert page.locator(".trick.reviewing .card").count() == 4
            assert page.locator(".trick-note").inner_text().strip()
            page.screenshot(path=str(artifacts / "table-last-trick.png"))
            page.locator("#last-trick-btn").click()
            assert page.locator(".trick.reviewing").count() == 0
        card = page.locator(".hand .card.legal").first
        code = card.get_attribute("data-card")
        n_before = page.locator(".hand .card").count()
        if not fell_back and page.get_by_test_id("deal-no").inner_text().startswith("Deal 2"):
            # the socket goes down just as I play: the card goes by POST instead, once
            posts = len(action_posts)
            page.wait_for_selector("#table-app[data-live='1']")
            card.scroll_into_view_if_needed()
            page.evaluate("([c]) => { window.callbreakTable.dropSocket();"
                          " document.querySelector(`.hand .card[data-card='${c}']`).click(); }", [code])
            page.wait_for_function("n => window.callbreakTable.sentBy.rest > 0", arg=posts)
            fell_back = True
        else:
            play_card(page, card, double=True)  # a double click must still send one action
        my_actions += 1
        page.wait_for_function(
            "([c, n]) => !document.querySelector(`.hand .card[data-card='${c}']`)"
            " || document.querySelectorAll('.hand .card').length > n",
            arg=[code, n_before],
        )
    else:
        pytest.fail("the match did not reach its third deal")

    assert bids == 2
    # a forced card (the only legal one) is played by the table itself (the auto-play option, on by default)
    auto = int(page.evaluate("document.getElementById('table-app').dataset.autoPlayed || '0'"))
    assert auto >= 2 and my_actions + auto == 2 + 26, (my_actions, auto)
    # every bid and card was sent exactly once: on the socket, but the one sent while it was down
    assert fell_back and len(action_posts) == 1
    socket_actions = [f for f in sent_frames if '"seq"' in f and ('"bid"' in f or '"card"' in f)]
    sent = my_actions + auto  # mine and those the table played for me
    assert len(socket_actions) + len(action_posts) == sent, (len(socket_actions), len(action_posts))
    assert page.evaluate("window.callbreakTable.sentBy") == {"socket": sent - 1, "rest": 1}
    # the bots' bids and cards arrived live over the WebSocket
    live_views = [f for f in frames if '"type": "match"' in f or '"type":"match"' in f]
    assert live_views, "no live view over the WebSocket"
    assert locked_checked, "no locked card seen in two deals"
    # the rest of the match through the API; the open table follows live and ends with the dialog
    match_id = int(table_url.rstrip("/").split("/")[-1])
    seat = page.evaluate("fetch(location.pathname.replace('/play/', '/api/matches/')).then(r => r.json())")["seat"]
    # while the person played here, every newer view was animated from the actions its message carried: never
    # shown at once, and compared with the one before only for the views around the socket's drop, which carry
    # no actions: the POST's answer (the view after the bots' replies too), the resync the reconnect fetches and
    # the new socket's first view (each newer than the one before when a bot moved between them, as on a busy
    # machine)
    paths = page.evaluate("window.callbreakTable.paths")
    assert paths["actions"] >= my_actions and paths["diff"] <= 3 and paths["jump"] == 0, paths
    finish_by_api(base, {seat: page}, match_id)
    assert wait_state(page) == "end"
    # the API's burst: newest views at times (compared, never shown at once)
    assert page.evaluate("window.callbreakTable.paths")["jump"] == 0

    # The end: winners, final scores, seed and its commitment.
    end = page.get_by_test_id("end")
    assert end.is_visible()
    assert page.get_by_test_id("winners").inner_text().strip()
    assert page.locator(".final-scores li").count() == 4
    seed = page.locator(".end-fair .seed").text_content()
    commitment = page.locator(".end-fair .commitment").text_content()
    assert seed and re.fullmatch(r"[0-9a-f]{64}", commitment)
    # the dialog has the focus; Escape closes it and the focus stays at the table
    assert page.evaluate("document.querySelector('.end-dialog').contains(document.activeElement)")
    page.screenshot(path=str(artifacts / "end.png"))
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('.end-dialog').open")
    assert page.locator(".status-actions").is_visible()
    # the dialog's "close" event, which gives the focus back, comes a task after "open" turns false
    page.wait_for_function("document.activeElement && document.activeElement.id === 'show-end'", timeout=5_000)
    # the match's last trick is still on the table
    assert page.locator(".trick .card").count() == 4
    assert "Watch the replay" in page.locator(".status-actions").inner_text()
    sheet = page.get_by_test_id("score-sheet")
    assert sheet.locator("tbody tr").count() == 5
    sheet.screenshot(path=str(artifacts / "score-sheet.png"))
    page.screenshot(path=str(artifacts / "table-final.png"), full_page=True)

    # The replay: step through, jump, verify the seed in the browser.
    page.locator("#replay-link-2").click()
    page.wait_for_url(re.compile(r".*/replay/\d+/$"))
    page.wait_for_selector("#replay-app[data-ready='1']")
    assert page.locator(".rseat .rhand .card").count() == 52  # all four hands face up
    label0 = page.get_by_test_id("step-label").inner_text()
    for _ in range(6):
        page.get_by_test_id("step-fwd").click()
    label6 = page.get_by_test_id("step-label").inner_text()
    assert label6 != label0 and label6.startswith("7/")
    page.get_by_test_id("step-back").click()
    assert page.get_by_test_id("step-label").inner_text().startswith("6/")
    page.get_by_test_id("jump-deal").select_option("3")
    page.get_by_test_id("jump-trick").select_option("5")
    assert "Trick 5" in page.get_by_test_id("step-label").inner_text()
    assert page.locator(".replay-table .trick .card").count() >= 1
    # autoplay at the fastest speed moves on by itself, and pauses
    pos_before = int(page.locator("#replay-app").get_attribute("data-pos"))
    page.locator("#speed").select_option("150")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function(f"Number(document.getElementById('replay-app').dataset.pos) >= {pos_before + 3}")
    page.get_by_test_id("autoplay").click()
    paused_at = page.locator("#replay-app").get_attribute("data-pos")
    page.wait_for_timeout(400)
    assert page.locator("#replay-app").get_attribute("data-pos") == paused_at
    # the replay JSON downloads as callbreak-replay/1
    with page.expect_download() as dl:
        page.get_by_test_id("download").click()
    doc = json.loads(Path(dl.value.path()).read_text())
    assert doc["format"] == "callbreak-replay/1" and len(doc["deals"]) == 5
    page.get_by_test_id("verify-btn").click()
    page.wait_for_selector("[data-testid=verify-result][data-deals]")
    result = page.get_by_test_id("verify-result")
    assert result.get_attribute("data-ok") == "1"
    assert result.get_attribute("data-deals") == "1"
    assert "matches the commitment" in result.inner_text()
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)

    # 中文 and back.
    page.get_by_test_id("lang-zh-hans").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    page.wait_for_selector("#replay-app[data-ready='1']")
    assert "规则" in page.locator(".mainnav").inner_text()
    assert "校验" in page.locator("#verify-title").inner_text()
    page.screenshot(path=str(artifacts / "replay-zh.png"), full_page=True)
    page.goto(f"{base}/matches/")
    assert "我的比赛" in page.locator("h1").inner_text()
    page.get_by_test_id("lang-en").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert "My matches" in page.locator("h1").inner_text()

    # Play again from the finished table: a new match, a cleared table, a fresh hand.
    page.goto(table_url)
    page.get_by_test_id("end").wait_for()
    page.get_by_test_id("play-again").click()
    page.wait_for_url(lambda url: "/play/" in url and url != table_url)
    page.wait_for_selector(".hand .card")
    assert page.locator(".hand .card").count() == 13
    assert page.get_by_test_id("score-sheet").locator("tbody tr:not(.current)").count() == 0
    assert page.locator(".trick .card").count() <= 3
    assert not page.js_errors, page.js_errors


def test_browser_verifier_matches_the_fairness_vectors(page: Any, site_url: str) -> None:
    """The replay viewer's SHA-256, shuffle and deal reproduce the test vectors of fairness.md."""
    page.goto(f"{site_url}/rules/")
    result = page.evaluate(
        """async () => {
          const m = await import('/static/js/sha256.js');
          const commit = m.hex(await m.sha256('example-seed'));
          const fallback = m.hex(m.sha256js(new TextEncoder().encode('example-seed')));
          const long = 'x'.repeat(200);
          const longOk = m.hex(await m.sha256(long)) === m.hex(m.sha256js(new TextEncoder().encode(long)));
          const deck = (await m.shuffledDeck('example-seed', 1)).join(' ');
          const dealer = await m.firstDealer('example-seed');
          const deal2 = await m.dealHands('example-seed', 2, 0);
          const other = m.hex(await m.sha256('callbreak-2026'));
          return {commit, fallback, longOk, deck, dealer, deal2seat0: deal2[0].join(' '), other};
        }"""
    )
    commitment = "cd139b161afd30dee3e1924f98dbae55ed2206c803f2a1dff5f4b6b62ce0d9f7"
    assert result["commit"] == commitment
    assert result["fallback"] == commitment
    assert result["longOk"]
    assert result["dealer"] == 3
    assert result["deck"] == (
        "6D 5H TC 4H TS 6H KS 3S 9H 2S 8S JD QH KC AC 3D JC 9D JS 2C TD 4D 3H JH 7D 8C 4C 5D 2D 5C "
        "8D KH 6S AD QD TH KD 6C 8H 7C 3C 9S 7H QC 4S 2H 5S AH QS 7S AS 9C"
    )
    assert result["deal2seat0"] == "6C 4D 4C JH 3D QS 5S TS 7D 5C 5H AC AH"
    assert result["other"] == "05c20f729f419db7b76baef3f5e971081fba99defae02615d863f3c76fb60dc9"


def new_bot_match(page: Any, base: str, prefix: str) -> None:
    sign_up(page, base, prefix + secrets.token_hex(3))
    page.get_by_test_id("play-bots").click()
    page.wait_for_url(re.compile(r".*/play/\d+/$"))
    page.wait_for_selector(".hand .card")


def test_keyboard_path(page: Any, site_url: str) -> None:
    """No Tab needed: the bid picker takes the focus, and after each bid or card the focus is on a card
    that can be played when the turn comes back."""
    page.context.add_init_script(FAST)
    new_bot_match(page, site_url, "keys_")
    focused = "document.activeElement && document.activeElement.matches(%s)"
    bid_done = False
    played = 0
    while played < 4:
        state = wait_state(page)
        if state == "bid":
            page.wait_for_function(focused % "'.bid-btn'")  # the picker took the focus
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.id") == "bid-confirm"
            assert "Bid" in page.locator("#bid-confirm").inner_text()
            page.keyboard.press("Enter")
            page.wait_for_function("document.querySelector('.bid-picker').hidden")
            assert page.evaluate(focused % "'.hand .card'"), "after the bid the focus is in the hand"
            bid_done = True
            continue
        assert state == "play"
        page.wait_for_function(focused % "'.hand .card.legal'")  # on a playable card, with no Tab
        code = page.evaluate("document.activeElement.dataset.card")
        page.keyboard.press("Enter")
        page.wait_for_selector(f".hand .card[data-card='{code}']", state="detached")
        assert page.evaluate(focused % "'.hand .card'"), "after a card the focus stays in the hand"
        played += 1
    assert bid_done
    # arrows move along the hand; Home and End jump
    page.keyboard.press("End")
    last = page.evaluate("document.activeElement.dataset.card")
    assert last == page.locator(".hand .card").last.get_attribute("data-card")
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.card") == page.locator(".hand .card").first.get_attribute(
        "data-card")
    assert not page.js_errors, page.js_errors


TRICK_LOG_JS = """() => {
  window.__trickLog = [];
  const trick = document.querySelector('[data-testid=trick]');
  let before = 0;
  new MutationObserver(() => {
    const n = trick.querySelectorAll('.card').length;
    if (n !== before) window.__trickLog.push({t: performance.now(), n,
      mine: !!trick.querySelector('.slot-0 .card') && n > before && n - before === 1
        && !!trick.querySelector('.slot-0 .card') && window.__lastSlot0 !== trick.querySelector('.slot-0 .card')});
    window.__lastSlot0 = trick.querySelector('.slot-0 .card');
    before = n;
  }).observe(trick, {childList: true, subtree: true});
}"""


def test_cards_land_one_by_one(page: Any, site_url: str) -> None:
    """At the real pace: the bots' cards land in turn, 300-400 ms apart, whatever the server's timing
    (it answers at once here, and may send only the newest view), and a finished trick stays a second."""
    new_bot_match(page, site_url, "pace_")
    page.evaluate(TRICK_LOG_JS)
    tricks_done = 0
    while tricks_done < 3:
        state = wait_state(page)
        if state == "bid":
            page.locator(".bid-btn[data-bid='2']").click()
            page.get_by_test_id("bid-confirm").click()
            page.wait_for_function("document.querySelector('.bid-picker').hidden")
            continue
        card = page.locator(".hand .card.legal").first
        code = card.get_attribute("data-card")
        play_card(page, card)
        page.wait_for_selector(f".hand .card[data-card='{code}']", state="detached")
        tricks_done += 1
    wait_state(page)
    log = page.evaluate("window.__trickLog")
    # each step of the log: a card landed (n grew by one) or the trick was cleared (n fell to 0)
    landed = [(e["t"], e["mine"]) for prev, e in zip([{"n": 0}] + log, log, strict=False) if e["n"] == prev["n"] + 1]
    gaps = [b[0] - a[0] for a, b in zip(landed, landed[1:], strict=False) if not b[1] and b[0] - a[0] < 2000]
    assert len(gaps) >= 3, log
    gaps.sort()
    # about 350 ms apart: the pacer runs each step a full gap after the last one ran, never sooner; a busy machine
    # may draw one card late by a frame or more (seen: 130 ms at load 15), which makes the gap after it that much
    # shorter, so the shortest gap is allowed down to half a gap, and most are a full one
    assert gaps[0] >= 175 and gaps[len(gaps) // 2] >= 330, f"cards landed too close together: {gaps}; {log}"
    # a full trick stays about a second before it is cleared
    holds = [b["t"] - a["t"] for a, b in zip(log, log[1:], strict=False) if a["n"] == 4 and b["n"] < 4]
    assert holds and min(holds) >= 1000, f"a finished trick was cleared too soon: {holds}"
    assert not page.js_errors, page.js_errors


def test_chinese_names_levels_seed_and_dates(browser: Any, site_url: str, artifacts: Any) -> None:
    """中文: bot names and levels, the seed and the verifier in Chinese; dates in the page's language."""
    ctx = new_context(browser, viewport={"width": 360, "height": 740}, locale="en-US", is_mobile=True,
                              has_touch=True)
    ctx.add_init_script(FAST)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    try:
        sign_up(page, site_url, "zh_" + secrets.token_hex(3), email=False)
        page.locator("#menu-btn").tap()  # on a phone the language switch is in the menu
        with page.expect_navigation():
            page.get_by_test_id("lang-zh-hans").tap()
        assert page.locator("html").get_attribute("lang") == "zh-hans"
        page.locator("#bot-level").select_option("easy")
        assert "简单" in page.locator("#bot-level option:checked").inner_text()
        page.get_by_test_id("play-bots").tap()
        page.wait_for_url(re.compile(r".*/play/\d+/$"))
        page.wait_for_selector(".hand .card")
        names = page.locator(".seat .pname").all_inner_texts()
        assert {"格内什", "拉克希米", "哈里", "悉多", "阿周那", "米拉"} & set(names), names
        assert "Bot" not in " ".join(names)
        assert page.locator(".seat .badge.bot").all_inner_texts() == ["机器人"] * 3
        badge = page.locator(".seat .badge.bot").first.get_attribute("title")
        assert "简单" in badge, badge
        page.wait_for_function("!document.querySelector('.hand .deal-in')")
        page.screenshot(path=str(artifacts / "table-phone-zh.png"))
        match_id = int(page.url.rstrip("/").split("/")[-1])
        seat = page.evaluate("fetch(location.pathname.replace('/play/', '/api/matches/')).then(r => r.json())")["seat"]
        finish_by_api(site_url, {seat: page}, match_id)
        page.goto(f"{site_url}/replay/{match_id}/")
        page.wait_for_selector("#replay-app[data-ready='1']")
        assert "种子" in page.get_by_test_id("verify").inner_text()
        page.get_by_test_id("verify-btn").tap()
        page.wait_for_selector("[data-testid=verify-result][data-deals]")
        result = page.get_by_test_id("verify-result").inner_text()
        assert "种子与承诺值一致" in result and "seed" not in result.lower(), result
        page.goto(f"{site_url}/matches/")
        when = page.locator(".match-list .when").first.inner_text()
        assert "年" in when or "月" in when, when  # Intl in the page's language, not the browser's (en-US)
    finally:
        ctx.close()
