"""Two people in two browsers: a private table by invitation link, live seat updates, bots fill the
rest, the host starts and both land on the match; the leaderboard, profile and settings pages render.
Screenshots land in test-artifacts/e2e/."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import FAST, finish_by_api, new_context, people, sign_up, start_private_table

pytestmark = pytest.mark.e2e

def test_private_table_by_invitation(browser: Any, site_url: str, artifacts: Any) -> None:
    base = site_url
    desk = {"viewport": {"width": 1200, "height": 820}}
    with people(browser, desk, desk) as ((host, guest), errors):
        hname, gname = "host_" + secrets.token_hex(3), "guest_" + secrets.token_hex(3)
        sign_up(host, base, hname)
        sign_up(guest, base, gname)

        host.get_by_test_id("nav-lobby").click()
        host.wait_for_url(f"{base}/lobby/")
        host.select_option("select[name=visibility]", "private")
        host.select_option("select[name=move_seconds]", "172800")
        host.get_by_test_id("create-table").click()
        host.wait_for_url(f"{base}/tables/*/")
        host.wait_for_selector("[data-testid=seat-0]")
        assert hname in host.locator("[data-testid=seat-0]").inner_text()
        link = host.locator(".invite-box input").input_value()
        assert "/invite/" in link
        host.screenshot(path=str(artifacts / "lobby-table-room.png"))

        # the private table is not in the guest's lobby (other tests' public tables may be)
        table_id = host.url.rstrip("/").split("/")[-1]
        guest.goto(f"{base}/lobby/")
        guest.wait_for_selector("#table-list li:not(.muted)")
        assert guest.get_by_test_id(f"table-{table_id}").count() == 0
        guest.screenshot(path=str(artifacts / "lobby.png"))

        guest.goto(link)
        guest.get_by_test_id("sit-2").click()
        guest.wait_for_function(
            f"document.querySelector('[data-testid=seat-2]').innerText.includes('{gname}')")
        # the host's page updates by itself (lobby message over /ws/me/)
        host.wait_for_function(
            f"document.querySelector('[data-testid=seat-2]').innerText.includes('{gname}')")
        host.get_by_test_id("fill-bots").click()
        host.wait_for_selector("[data-testid=start]")
        host.get_by_test_id("start").click()
        host.wait_for_url(f"{base}/play/*/")
        guest.wait_for_url(f"{base}/play/*/")  # the guest follows when the table starts
        assert host.url == guest.url
        # a timed match: both see Resign; whoever is to move sees the clock, and "My matches" shows time left
        for p in (host, guest):
            p.get_by_test_id("resign").wait_for()
        host.wait_for_function("document.querySelector('[data-testid=deadline]') !== null")
        on_turn = host if host.locator("[data-testid=deadline].mine").count() else guest
        assert on_turn.get_by_test_id("deadline").inner_text() == "Turn ends in 2 days"
        on_turn.screenshot(path=str(artifacts / "correspondence-table.png"))
        match_url = on_turn.url
        on_turn.goto(f"{base}/matches/")
        on_turn.get_by_test_id("time-left").wait_for()
        assert on_turn.get_by_test_id("time-left").inner_text() == "Turn ends in 2 days"
        # the tab title says whose turn it is, on any page
        on_turn.wait_for_function("document.title.startsWith('(1) Your turn')")
        on_turn.screenshot(path=str(artifacts / "my-matches.png"))
        on_turn.goto(match_url)

        for path, shot in (("/leaderboard/", "leaderboard.png"), (f"/players/{hname}/", "profile.png"),
                           ("/settings/", "settings.png")):
            host.goto(f"{base}{path}")
            host.screenshot(path=str(artifacts / shot))
        host.get_by_test_id("settings-save").wait_for()
        assert not errors, errors


def two_people_at_a_table(browser: Any, base: str) -> tuple[list[Any], list[Any], int, dict[int, Any]]:
    """A rated private table with two people (seats 0 and 2) and two bots, started: the contexts, the
    pages (host, guest), the match id and the pages by seat."""
    contexts = [new_context(browser, viewport={"width": 1200, "height": 820}) for _ in range(2)]
    for c in contexts:
        c.add_init_script(FAST)
    host, guest = (c.new_page() for c in contexts)
    for p in (host, guest):
        p.set_default_timeout(20_000)
    sign_up(host, base, "h_" + secrets.token_hex(3))
    gname = "g_" + secrets.token_hex(3)
    sign_up(guest, base, gname)
    match_id = start_private_table(host, guest, base, gname)
    return contexts, [host, guest], match_id, {0: host, 2: guest}


def view_of(page: Any, base: str, match_id: int) -> Any:
    return page.request.get(f"{base}/api/matches/{match_id}/").json()


def test_my_matches_live_and_the_turn_in_the_title(browser: Any, site_url: str, artifacts: Any) -> None:
    """Needs the server's {"type": "match"} summaries on /ws/me/: "My matches" and the tab title follow
    a running match live, saying whose turn it is and the time left."""
    base = site_url
    contexts, (host, guest), match_id, by_seat = two_people_at_a_table(browser, base)
    try:
        for p in (host, guest):
            p.goto(f"{base}/matches/")
            p.get_by_test_id(f"match-{match_id}").wait_for()
        # play (through the API) until it is the other person's turn, twice, and watch it live
        for _ in range(2):
            view = view_of(host, base, match_id)
            mover = by_seat.get(view["turn"])
            assert mover is not None, view
            waiter = guest if mover is host else host
            row = waiter.get_by_test_id(f"match-{match_id}")
            mover_name = mover.locator(".username").inner_text()
            assert mover_name in row.get_by_test_id("match-state").inner_text()
            assert row.get_by_test_id("time-left").inner_text().startswith("Turn ends in")
            assert not waiter.title().startswith("(1) Your turn")
            mover.wait_for_function("document.title.startsWith('(1) Your turn')")
            token = next(c["value"] for c in mover.context.cookies() if c["name"] == "csrftoken")
            while True:  # the mover acts (the bots answer at once) until the turn is the waiter's
                mine = view_of(mover, base, match_id)
                if mine["turn"] != mine["seat"]:
                    break
                move = {"bid": 2} if mine["phase"] == "bidding" else {"card": mine["legal"][0]}
                mover.request.post(f"{base}/api/matches/{match_id}/actions/", data={"seq": mine["seq"], **move},
                                   headers={"X-CSRFToken": token})
            # no reload: the waiter's list and title change by themselves
            row.get_by_test_id("match-state").filter(has_text="Your move").wait_for()
            waiter.wait_for_function("document.title.startsWith('(1) Your turn')")
            waiter.screenshot(path=str(artifacts / "my-matches-live.png"))
    finally:
        for c in contexts:
            c.close()


def test_rematch_and_rating_after_a_match_among_people(browser: Any, site_url: str, artifacts: Any) -> None:
    """Needs the server's rematch routes, the match view's table_id and rating, and the rematch notice: the end
    screen of a rated match shows the rating change and offers the one-tap rematch; the other person, elsewhere,
    is told, answers yes on the end dialog, and both land on the new match."""
    base = site_url
    contexts, (host, guest), match_id, by_seat = two_people_at_a_table(browser, base)
    try:
        finish_by_api(base, by_seat, match_id)
        guest.goto(f"{base}/matches/")  # the guest waits elsewhere for the rematch notice
        host.goto(f"{base}/play/{match_id}/")
        host.get_by_test_id("end").wait_for()
        host.get_by_test_id("rating-change").filter(has_text="→").wait_for()
        assert not host.get_by_test_id("play-again").is_visible()
        host.screenshot(path=str(artifacts / "end-rated.png"))
        host.get_by_test_id("rematch").click()
        host.get_by_test_id("rematch-status").filter(has_text="Waiting for").wait_for()
        notice = guest.get_by_test_id("notice").filter(has_text="wants a rematch")
        notice.wait_for()
        notice.get_by_role("link").click()  # to the finished match's end dialog, where the guest answers
        guest.wait_for_url(f"{base}/play/{match_id}/")
        guest.get_by_test_id("rematch").filter(has_text="Yes").click()
        for p in (host, guest):
            p.wait_for_function(f"location.pathname.startsWith('/play/') && location.pathname !== '/play/{match_id}/'")
        assert host.url == guest.url
        host.screenshot(path=str(artifacts / "rematch-started.png"))
        # The review of the finished match: the guest's own by default, the host's on request.
        guest.goto(f"{base}/replay/{match_id}/#review")
        guest.wait_for_selector("#review[data-state='done'][data-seat='2']", timeout=30_000)
        assert guest.get_by_test_id("review-seat").locator("option").count() == 2
        guest.get_by_test_id("review-seat").select_option("0")
        guest.wait_for_selector("#review[data-state='done'][data-seat='0']", timeout=30_000)
        assert guest.locator(".review-moves .move").count() == 70
    finally:
        for c in contexts:
            c.close()
