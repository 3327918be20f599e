"""Notices do not pile up: in a correspondence match between two people, the one who waits on another page
(the rules) gets one "your turn" notice per turn; it goes away once the turn is taken (here through the
API, as another device would), so after three turns at most one notice ever shows. Opening the match's
page dismisses its notice in the other tabs too."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import FAST, new_context, sign_up, start_private_table

pytestmark = pytest.mark.e2e


def act_until_not_my_turn(page: Any, base: str, match_id: int) -> None:
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    for _ in range(30):
        mine = page.request.get(f"{base}/api/matches/{match_id}/").json()
        if mine["turn"] != mine["seat"] or mine["phase"] == "finished":
            return
        move = {"bid": 2} if mine["phase"] == "bidding" else {"card": mine["legal"][0]}
        page.request.post(f"{base}/api/matches/{match_id}/actions/", data={"seq": mine["seq"], **move},
                          headers={"X-CSRFToken": token})
    raise AssertionError("still my turn")


def test_one_notice_per_match_gone_when_the_turn_is_taken(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    contexts = [new_context(browser, viewport={"width": 1200, "height": 820}) for _ in range(2)]
    for c in contexts:
        c.add_init_script(FAST)
    host, guest = (c.new_page() for c in contexts)
    for p in (host, guest):
        p.set_default_timeout(20_000)
    try:
        sign_up(host, base, "nh_" + secrets.token_hex(3))
        gname = "ng_" + secrets.token_hex(3)
        sign_up(guest, base, gname)
        match_id = start_private_table(host, guest, base, gname, move_seconds="172800")
        # the guest's turn notice is not sent while the match is open: start from the host's turn
        if host.request.get(f"{base}/api/matches/{match_id}/").json()["turn"] == 2:
            act_until_not_my_turn(guest, base, match_id)
        guest.goto(f"{base}/rules/")  # the guest reads the rules meanwhile
        host.goto(f"{base}/matches/")
        notices = guest.get_by_test_id("notice")
        turns = 0
        for _ in range(12):
            view = host.request.get(f"{base}/api/matches/{match_id}/").json()
            if view["turn"] == 0:
                act_until_not_my_turn(host, base, match_id)
                continue
            assert view["turn"] == 2, view
            notices.first.wait_for()  # the guest's turn: a notice on the rules page
            assert notices.count() == 1, notices.all_inner_texts()
            turns += 1
            guest.screenshot(path=str(artifacts / f"notice-turn-{turns}.png"))
            if turns == 3:
                break
            act_until_not_my_turn(guest, base, match_id)  # taken elsewhere: the notice goes
            guest.wait_for_function("document.querySelectorAll('[data-testid=notice]').length === 0")
        assert turns == 3
        # opening the match in another tab dismisses its notice here
        other = guest.context.new_page()
        other.goto(f"{base}/play/{match_id}/")
        guest.wait_for_function("document.querySelectorAll('[data-testid=notice]').length === 0")
        other.close()
    finally:
        for c in contexts:
            c.close()
