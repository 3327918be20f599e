"""Friends and watching in the browser: one person plays a live match against bots while a friend follows them
on /friends/, sees them playing, opens Watch and sees the cards appear at /watch/{id}/ (a trick behind); the friend
then challenges them, and the one challenged accepts the seat from the table's page; the player's table shows that
one watches. Screenshots at 360×740 and 1366×768 land in test-artifacts/e2e/social/."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from e2e_helpers import people, sign_up

pytestmark = pytest.mark.e2e


def _csrf(page: Any) -> str:
    return next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")


def _play(page: Any, base: str, match_id: int, actions: int) -> None:
    """The player bids 2 and plays the first legal card, through the API, ``actions`` times (bots answer)."""
    done = 0
    for _ in range(400):
        view = page.request.get(f"{base}/api/matches/{match_id}/").json()
        if done >= actions or view["phase"] == "finished":
            return
        if not view.get("your_turn"):
            page.wait_for_timeout(50)
            continue
        move = {"bid": 2} if view["phase"] == "bidding" else {"card": view["legal"][0]}
        answer = page.request.post(f"{base}/api/matches/{match_id}/actions/", data={"seq": view["seq"], **move},
                                   headers={"X-CSRFToken": _csrf(page)})
        assert answer.ok, answer.text()
        done += 1


def test_a_friend_watches_a_live_match_and_challenges(browser: Any, site_url: str, artifacts: Any) -> None:
    base, shots = site_url, artifacts / "social"
    shots.mkdir(parents=True, exist_ok=True)
    phone = {"viewport": {"width": 360, "height": 740}, "locale": "en-US", "is_mobile": True, "has_touch": True}
    desk = {"viewport": {"width": 1366, "height": 768}, "locale": "en-US"}
    with people(browser, phone, desk) as ((player, friend), errors):
        pname, fname = "pl_" + secrets.token_hex(3), "fr_" + secrets.token_hex(3)
        sign_up(player, base, pname, email=False)
        sign_up(friend, base, fname, email=False)
        made = player.request.post(f"{base}/api/matches/", data={"opponents": "bots"},
                                   headers={"X-CSRFToken": _csrf(player)})
        assert made.ok, made.text()
        match_id = made.json()["id"]
        player.goto(f"{base}/play/{match_id}/")  # the player's page is open: online, playing
        _play(player, base, match_id, 2)  # the bid and a first card: the first trick under way

        friend.goto(f"{base}/friends/")
        friend.get_by_test_id("follow-name").fill(pname)
        friend.get_by_test_id("follow").click()
        friend.get_by_test_id(f"friend-{pname}").wait_for()
        assert friend.get_by_test_id(f"friend-status-{pname}").inner_text() == "Playing now"
        friend.screenshot(path=str(shots / "friends-1366x768.png"))
        friend.get_by_test_id(f"watch-friend-{pname}").click()
        friend.wait_for_url(re.compile(rf".*/watch/{match_id}/$"))
        _play(player, base, match_id, 3)  # two tricks on: a trick behind, cards show
        friend.wait_for_selector(".watch-play .card", timeout=20_000)
        seq = int(friend.get_by_test_id("watch").get_attribute("data-seq") or 0)
        assert seq > 0 and friend.locator(".hand .card").count() == 0  # no hand on a watcher's screen
        friend.screenshot(path=str(shots / "watch-1366x768.png"))
        player.get_by_test_id("watchers").wait_for()  # the player's table shows that one watches
        assert player.get_by_test_id("watchers").inner_text().strip().endswith("1")
        player.screenshot(path=str(shots / "table-watched-360x740.png"))
        _play(player, base, match_id, 2)
        friend.wait_for_function(f"Number(document.querySelector('#watch').dataset.seq) > {seq}")

        # the friend challenges the player; the player accepts the seat on the table's page
        friend.goto(f"{base}/friends/")
        friend.get_by_test_id(f"challenge-{pname}").click()
        friend.wait_for_url(re.compile(r".*/tables/\d+/$"))
        table_url = friend.url
        player.goto(table_url)
        player.get_by_test_id("accept-1").click()
        player.get_by_text(f"{pname} (you)").wait_for()
        friend.get_by_text(pname).first.wait_for()
        player.goto(f"{base}/watch/")
        player.screenshot(path=str(shots / "watch-list-360x740.png"))
        assert not errors, errors
