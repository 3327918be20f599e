"""An arena in Chromium: staff made it; four people join it from its page and are sent to their table when seated
(the four of them: no bot); their match played (by the API, for speed), the standings count it; the same four are
not seated together again: after the wait each pair gets two bots; the time runs out while those matches run, they
finish and count, and the arena page, open all along, shows the standings move and the podium without a reload.
Screenshots at 360×740 and 1366×768."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import FAST, new_context, sign_up

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 768}

MAKE = """
from datetime import timedelta
from django.utils import timezone
from games.models import Tournament
t = Tournament.objects.create(name="E2E Arena", starts_at=timezone.now() - timedelta(seconds=5), minutes=15,
                              rated=False)
print(t.pk)
"""
TIME_UP = """
from datetime import timedelta
from django.utils import timezone
from games.models import Tournament
Tournament.objects.filter(pk=%d).update(starts_at=timezone.now() - timedelta(minutes=15, seconds=1))
"""


def _me(page: Any, base: str, arena: int) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"{base}/api/tournaments/{arena}/").json()
    return data


def _finish(base: str, pages: list[Any], match_id: int) -> None:
    """Each person of the match hands their seat to the bot (``resign``), which plays it out at once: the
    quickest way through a match here (the seats stay theirs, so the result counts as theirs)."""
    seated = [p for p in pages if p.request.get(f"{base}/api/matches/{match_id}/").ok]
    for p in seated:
        token = next(c["value"] for c in p.context.cookies() if c["name"] == "csrftoken")
        assert p.request.post(f"{base}/api/matches/{match_id}/resign/", headers={"X-CSRFToken": token}).ok
    for _ in range(300):
        if seated[0].request.get(f"{base}/api/matches/{match_id}/").json()["status"] == "finished":
            return
        seated[0].wait_for_timeout(100)
    raise AssertionError(f"match {match_id} did not finish")


def test_four_people_play_an_arena_to_its_podium(browser: Any, site_url: str, manage: Any, artifacts: Any) -> None:
    base = site_url
    arena = int(manage("shell", "-c", MAKE).split()[-1])
    contexts, pages = [], []
    try:
        for i in range(4):
            ctx = new_context(browser, viewport=PHONE if i == 0 else DESKTOP, locale="en-US")
            ctx.add_init_script(FAST)
            page = ctx.new_page()
            page.set_default_timeout(20_000)
            sign_up(page, base, f"arena{i}_{secrets.token_hex(2)}", email=False)
            contexts.append(ctx)
            pages.append(page)
        pages[0].goto(f"{base}/arenas/")
        pages[0].get_by_test_id(f"arena-{arena}").click()
        for p in pages:
            if p is not pages[0]:
                p.goto(f"{base}/arenas/{arena}/")
            p.get_by_test_id("arena-join").click()
        # the fourth join seats the four together: each page goes to the table
        for p in pages:
            p.wait_for_url(f"{base}/play/*/", timeout=30_000)
        first = _me(pages[0], base, arena)["me"]["playing"]
        assert all(_me(p, base, arena)["me"]["playing"] == first for p in pages)
        watcher = pages[0]
        watcher.goto(f"{base}/arenas/{arena}/")  # the standings, open while the match is played
        rows = watcher.get_by_test_id("standings").locator(".standing")
        rows.first.wait_for()
        assert rows.count() == 4 and watcher.locator(".standing .tag.playing").count() == 4
        _finish(base, pages, first)
        watcher.wait_for_function("document.querySelectorAll('.standing .arena-result').length === 4")  # live
        links = watcher.locator(".standing .arena-result").evaluate_all("(a) => a.map((x) => x.pathname)")
        assert set(links) == {f"/replay/{first}/"}  # one finish each, linked to its replay
        points = [float(t) for t in watcher.get_by_test_id("points").all_inner_texts()]
        assert sum(points) == 7 and points == sorted(points, reverse=True)
        watcher.screenshot(path=str(artifacts / "arena-360.png"), full_page=True)
        # the same four wait; after the wait (6 s here) each is seated again, with bots: the watcher's page goes
        watcher.wait_for_url(f"{base}/play/*/", timeout=30_000)
        second = {p: _me(p, base, arena)["me"]["playing"] for p in pages}
        for p in pages[1:]:
            for _ in range(200):
                if second[p]:
                    break
                p.wait_for_timeout(100)
                second[p] = _me(p, base, arena)["me"]["playing"]
        assert all(second.values()) and first not in second.values() and len(set(second.values())) == 2
        # the time runs out while they play: no new match, these two finish and count, and the podium shows
        manage("shell", "-c", TIME_UP % arena)
        pages[1].goto(f"{base}/arenas/{arena}/")
        pages[1].get_by_test_id("standings").locator(".standing").first.wait_for()
        watcher.goto(f"{base}/arenas/{arena}/")
        watcher.get_by_test_id("arena-go").wait_for()
        for match_id in set(second.values()):
            _finish(base, pages, match_id)
        for p in (watcher, pages[1]):  # live, without a reload
            p.get_by_test_id("podium").wait_for()
            p.wait_for_function("document.querySelectorAll('.standing .arena-result').length === 8")
            assert p.get_by_test_id("podium-1").is_visible()
        data = _me(watcher, base, arena)
        assert data["phase"] == "finished" and all(r["matches"] == 2 for r in data["standings"])
        assert [r["username"] for r in data["podium"]] == [r["username"] for r in data["standings"][:3]]
        watcher.screenshot(path=str(artifacts / "arena-podium-360.png"), full_page=True)
        pages[1].screenshot(path=str(artifacts / "arena-podium-1366.png"), full_page=True)
        scroll = watcher.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll[0] <= scroll[1], f"the arena page is too wide for a phone: {scroll}"
    finally:
        for c in contexts:
            c.close()
