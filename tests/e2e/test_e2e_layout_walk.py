"""Every screen at every size: a walk through the site at 360×740, 740×360 (phones), 1366×768 and 1920×1080 in
English, 中文, नेपाली and हिन्दी. Home (logged out and in), sign-up, the table (bidding and playing a live match,
four cards left, the end dialog), replay, review, lobby, table room, settings, leaderboard and the arenas (the list,
a running arena with the walker in it, a finished one with its podium); each fails on a
covered text (the element at a visible text's centre is neither it, inside it nor around it), on a tap target under
44 CSS px or a text under 12 px at phone sizes, on a play button below the fold of the home at phone sizes, on the
replay's board, hand and step controls not all on one screen, on seats, picker and chips colliding at the table,
on four cards in two rows and on a chat bubble drawn under the cards. A failure names the page, size and language.

Screenshots land in $LAYOUT_SHOTS (default test-artifacts/e2e/walk/) as <page>-<size>-<lang>.png.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import (
    FAST,
    covered_texts,
    finish_by_api,
    new_context,
    outside_viewport,
    overlaps,
    settle,
    sign_up,
    small_targets,
    small_texts,
    wait_state,
)

pytestmark = pytest.mark.e2e

SIZES = {"360x740": (360, 740), "740x360": (740, 360), "1366x768": (1366, 768), "1920x1080": (1920, 1080)}
PHONES = {"360x740", "740x360"}
LANGS = ["en", "zh-hans", "ne", "hi"]
HOME_PLAY = ".hero .btn-big"  # the home's play buttons, logged out and in


def _csrf(page: Any) -> str:
    return next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")


@dataclass
class Site:
    """What the walk visits: the walker's signed-in state, its matches and its private table."""

    base: str
    state: dict[str, Any]
    finished: int
    bidding: int
    playing: int
    four_left: int
    table: int
    database: str
    arena: int = 0
    arena_done: int = 0
    pages: dict[tuple[str, bool], Any] = field(default_factory=dict)

    def wind_clocks(self) -> None:
        """Give the live matches their 45 s again (as when made): the walk takes minutes, and a turn whose time
        ran out is played by the autopilot, which would leave no bid or card to show."""
        deadline = (datetime.now(UTC) + timedelta(seconds=45)).strftime("%Y-%m-%d %H:%M:%S.%f")
        with sqlite3.connect(self.database) as db:
            db.execute("UPDATE games_match SET deadline = ? WHERE id IN (?, ?, ?)",
                       (deadline, self.bidding, self.playing, self.four_left))


def _bot_match(page: Any, base: str) -> int:
    made = page.request.post(f"{base}/api/matches/", data={"opponents": "bots"}, headers={"X-CSRFToken": _csrf(page)})
    assert made.ok, made.text()
    return int(made.json()["id"])


# Make matches live (15 s a move and a 30 s bank, as a live quick match): the table then shows its clock and
# Resign, which the bid picker must leave in view. No beat runs here, so the expired clock changes nothing.
LIVE = """
from datetime import timedelta
from django.utils import timezone
from games.matches.models import Match, Seat
ids = [%s]
Match.objects.filter(pk__in=ids).update(move_seconds=15, deadline=timezone.now() + timedelta(seconds=45))
Seat.objects.filter(match_id__in=ids, kind=Seat.Kind.HUMAN).update(bank_seconds=30)
"""


# Two arenas (games/tournaments): one running with the walker playing in it, one finished with its podium; people
# of three scripts with their results (the walk's matches stand in for theirs). Made here, not by joining: a join
# would set off the pairing, which would seat the walker at a new match.
ARENAS = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.models import ArenaMatch, Entry, Result, Tournament
now = timezone.now()
walker = get_user_model().objects.get(username=%r)
running = Tournament.objects.create(name="Hourly Live Arena", starts_at=now - timedelta(minutes=5), minutes=30)
done = Tournament.objects.create(name="Daily Long Arena", starts_at=now - timedelta(hours=3), minutes=120,
                                 closed_at=now - timedelta(minutes=50))
games = {running: ArenaMatch.objects.create(tournament=running, match_id=%d, started_at=now, counted_at=now),
         done: ArenaMatch.objects.create(tournament=done, match_id=%d, started_at=now, counted_at=now)}
names = ["Sita_Sharma_Kathmandu", "李小龙", "राम_थापा", "Arjun99", "Maya.K"]
people = [walker] + [get_user_model().objects.create_user(n) for n in names]
for t in (running, done):
    for i, u in enumerate(people):
        e = Entry.objects.create(tournament=t, user=u, points=96 - 13 * i, matches=3, streak=2 - i %% 3,
                                 status="paused" if i == 4 else "active",
                                 match_id=%d if t is running and i < 4 else None)
        place = 1 + i %% 4
        Result.objects.create(game=games[t], entry=e, place=place, points=(0, 48, 24, 12, 0)[place],
                              doubled=place == 1)
print(running.pk, done.pk)
"""


def _play_until(page: Any, base: str, match_id: int, done: Callable[[dict[str, Any]], bool]) -> None:
    """Bid 2 and play the first legal card through the API until ``done(view)`` (bots answer by themselves)."""
    for _ in range(400):
        view = page.request.get(f"{base}/api/matches/{match_id}/").json()
        if done(view):
            return
        if not view.get("your_turn"):
            page.wait_for_timeout(50)
            continue
        move = {"bid": 2} if view["phase"] == "bidding" else {"card": view["legal"][0]}
        page.request.post(f"{base}/api/matches/{match_id}/actions/", data={"seq": view["seq"], **move},
                          headers={"X-CSRFToken": _csrf(page)})
    raise AssertionError(f"match {match_id} never reached the state wanted")


@pytest.fixture(scope="module")
def site(browser: Any, site_url: str, site_env: dict[str, str], manage: Any) -> Iterator[Site]:
    base = site_url
    ctx = new_context(browser, viewport={"width": 1366, "height": 768}, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    walker = "walk_" + secrets.token_hex(3)
    sign_up(page, base, walker, email=False)
    # the walker plays no forced card by itself: a table left at "your turn" stays there for every visit
    saved = page.request.patch(f"{base}/api/me/settings/", data={"auto_play": False},
                               headers={"X-CSRFToken": _csrf(page)})
    assert saved.ok, saved.text()
    made = page.request.post(f"{base}/api/matches/", data={"opponents": "bots"}, headers={"X-CSRFToken": _csrf(page)})
    assert made.ok, made.text()
    finished = made.json()["id"]
    seat = page.request.get(f"{base}/api/matches/{finished}/").json()["seat"]
    finish_by_api(base, {seat: page}, finished)
    # three live matches: one left at the walker's bid, one at a card to play, one at 4 cards left
    bidding = _bot_match(page, base)
    _play_until(page, base, bidding, lambda v: v["phase"] == "bidding" and v.get("your_turn"))
    playing = _bot_match(page, base)
    _play_until(page, base, playing, lambda v: v["phase"] == "playing" and v.get("your_turn"))
    four = _bot_match(page, base)
    _play_until(page, base, four, lambda v: v["phase"] == "playing" and v.get("your_turn") and len(v["hand"]) == 4)
    manage("shell", "-c", LIVE % f"{bidding}, {playing}, {four}")
    table = page.request.post(f"{base}/api/tables/", data={"visibility": "private", "rated": False},
                              headers={"X-CSRFToken": _csrf(page)})
    assert table.ok, table.text()
    table_id = int(table.json()["id"])
    # a friend to list (followed by the walker), and the walker's match at a card to play is watched
    friend = "walkfriend_" + secrets.token_hex(2)
    signed = page.request.post(f"{base}/api/auth/signup/", headers={"X-CSRFToken": _csrf(page)},
                               data={"username": friend, "password": "Walk-" + secrets.token_hex(8)})
    assert signed.ok, signed.text()
    followed = page.request.put(f"{base}/api/friends/{friend}/", headers={"X-CSRFToken": _csrf(page)})
    assert followed.ok, followed.text()
    # the review of the finished match is made in a thread of the server: wait for it once here
    for _ in range(300):
        if page.request.get(f"{base}/api/matches/{finished}/analysis/").status == 200:
            break
        page.wait_for_timeout(100)
    state = ctx.storage_state()
    ctx.close()
    arena, arena_done = map(int, manage("shell", "-c", ARENAS % (walker, bidding, finished, playing))
                            .split()[-2:])
    s = Site(base, state, finished, bidding, playing, four, table_id, site_env["SQLITE_PATH"], arena, arena_done)
    try:
        yield s
    finally:
        for p in s.pages.values():
            p.context.close()


def _page(browser: Any, site: Site, size: str, signed_in: bool) -> Any:
    """One page per size (and signed in or not), reused by every language."""
    key = (size, signed_in)
    if key not in site.pages:
        w, h = SIZES[size]
        phone = size in PHONES
        ctx = new_context(browser, viewport={"width": w, "height": h}, locale="en-US", is_mobile=phone,
                          has_touch=phone, storage_state=site.state if signed_in else None)
        ctx.add_init_script(FAST)
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        page.js_errors = []
        page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
        site.pages[key] = page
    return site.pages[key]


def _table_ready(want: str, cards: int | None = None) -> Callable[[Any], None]:
    def ready(page: Any) -> None:
        page.wait_for_selector(".hand .card")
        assert wait_state(page) == want, f"the table is not at '{want}'"
        if cards is not None:
            page.wait_for_function(f"document.querySelectorAll('.hand .card').length === {cards}")
    return ready


def _end_ready(page: Any) -> None:
    page.wait_for_function("document.querySelector('.end-dialog') && document.querySelector('.end-dialog').open")


def _selector(sel: str) -> Callable[[Any], None]:
    return lambda page: page.wait_for_selector(sel)


def _review_ready(page: Any) -> None:
    """The review open, one of its marked decisions chosen (as a player reads them): the replay goes there and
    the box says why (on a phone the board comes to the top of the screen, the box under or beside it)."""
    page.wait_for_selector("#review[data-state='done']", timeout=30_000)
    if page.get_by_test_id("review-toggle").get_attribute("aria-expanded") != "true":
        page.get_by_test_id("review-toggle").click()
    page.locator(".review-moves .move.lab-mistake, .review-moves .move.lab-inaccuracy, "
                 ".review-moves .move.lab-blunder").first.click()
    page.get_by_test_id("review-note").wait_for()


BUBBLE_JS = """(pos) => [document.querySelector(`.table .seat[data-pos="${pos}"]`)].forEach((seat) => {
  const b = document.createElement('span');
  b.className = 'chat-bubble walk-bubble';
  b.style.animation = 'none';
  b.textContent = 'Well played, all of you: that was close';
  seat.appendChild(b);
})"""
REPLAY_ON_SCREEN = [".replay-table .trick", ".rseat.pos-bottom .rhand", "[data-testid=step-back]",
                    "[data-testid=step-fwd]"]
REPLAY_APART = [".rseat .plate", ".rseat .rhand", ".replay-table .table-info", ".replay-table .trick"]
TABLE_APART = [".seat .plate", ".bid-picker", ".deadline-chip", "[data-testid=resign]", ".table-corner .chip-btn",
               ".trick .card", ".statusbar"]


def _walk(site: Site) -> list[tuple[str, str, bool, Callable[[Any], None]]]:
    """(name, path, signed in, wait until ready)."""
    return [
        ("home-out", "/", False, _selector(HOME_PLAY)),
        ("signup", "/accounts/signup/", False, _selector("#id_username")),
        ("home-in", "/", True, _selector("[data-testid=play-bots]")),
        ("bidding", f"/play/{site.bidding}/", True, _table_ready("bid")),
        ("playing", f"/play/{site.playing}/", True, _table_ready("play")),
        ("four-left", f"/play/{site.four_left}/", True, _table_ready("play", 4)),
        ("end", f"/play/{site.finished}/", True, _end_ready),
        ("replay", f"/replay/{site.finished}/", True, _selector(".rseat.pos-bottom .rhand .card")),
        ("review", f"/replay/{site.finished}/#review", True, _review_ready),
        ("lobby", "/lobby/", True, _selector("[data-testid=create-table]")),
        ("table-room", f"/tables/{site.table}/", True, _selector("[data-testid=room-code]")),
        ("settings", "/settings/", True, _selector("main form")),
        ("leaderboard", "/leaderboard/", True, _selector("main h1")),
        ("friends", "/friends/", True, _selector("[data-testid^=friend-status-]")),
        ("watch-list", "/watch/", True, _selector("[data-testid=watch-list]")),
        ("watch", f"/watch/{site.four_left}/", True, _selector(".watch-play .card")),
        ("arenas", "/arenas/", True, _selector(f"[data-testid=arena-{site.arena}]")),
        ("arena", f"/arenas/{site.arena}/", True, _selector("[data-testid=arena-pause]:not([hidden])")),
        ("arena-end", f"/arenas/{site.arena_done}/", True, _selector("[data-testid=podium-1]")),
    ]


def _shots() -> Path:
    folder = Path(os.environ.get("LAYOUT_SHOTS") or Path(__file__).resolve().parents[2] / "test-artifacts/e2e/walk")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _checks(page: Any, name: str, size: str) -> list[str]:
    """What is wrong with the page shown now, one line per kind of fault."""
    faults: list[str] = []
    covered = covered_texts(page)
    if covered:
        faults.append(f"covered texts: {covered}")
    if size in PHONES:
        small = small_targets(page)
        if small:
            faults.append(f"tap targets under 44 px: {small}")
        tiny = small_texts(page)
        if tiny:
            faults.append(f"texts under 12 px: {tiny}")
        if name.startswith("home"):
            low = page.evaluate(f"[...document.querySelectorAll('{HOME_PLAY}')].filter((b) => b.checkVisibility())"
                                ".map((b) => [b.textContent.trim(), Math.round(b.getBoundingClientRect().bottom)])"
                                ".filter(([, bottom]) => bottom > innerHeight)")
            if low:
                faults.append(f"play buttons below the fold ({SIZES[size][1]} px): {low}")
    # an open dialog shows its title whole when it opens (focusing a button must not scroll the title away)
    cut = page.evaluate("""[...document.querySelectorAll('dialog[open]')].flatMap((d) => {
      const h = d.querySelector('h1, h2, h3');
      if (!h || !h.checkVisibility()) return [];
      const box = d.getBoundingClientRect(), r = h.getBoundingClientRect();
      return r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.top < 0 ? [h.textContent.trim()] : [];
    })""")
    if cut:
        faults.append(f"dialog titles cut off: {cut}")
    if name in ("replay", "review"):
        if name == "replay":
            page.evaluate("window.scrollTo(0, 0)")
        off = outside_viewport(page, REPLAY_ON_SCREEN + (["[data-testid=review-note]"] if name == "review" else []))
        if off:
            faults.append(f"board, hand and step controls not on one screen: {off}")
        apart = overlaps(page, REPLAY_APART)
        if apart:
            faults.append(f"colliding: {apart}")
    if name in ("bidding", "playing", "four-left"):
        apart = overlaps(page, TABLE_APART)
        if apart:
            faults.append(f"colliding: {apart}")
    if name == "four-left":
        # a chat line beside a seat (as chat.js shows one) is drawn over the cards, never under them
        for seat in range(4):
            page.evaluate(BUBBLE_JS, seat)
            under = [c for c in covered_texts(page) if "chat-bubble" in c["el"]]
            page.evaluate("document.querySelectorAll('.walk-bubble').forEach((b) => b.remove())")
            if under:
                faults.append(f"the chat bubble of the seat at {seat} is covered: {under}")
        rows = page.evaluate("document.querySelector('.hand').classList.contains('two-rows')")
        if rows:
            faults.append("4 cards in two rows")
    return faults


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen(browser: Any, site: Site, size: str, lang: str) -> None:
    shots = _shots()
    faults: list[str] = []
    for name, path, signed_in, ready in _walk(site):
        page = _page(browser, site, size, signed_in)
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": site.base}])
        if path.startswith("/play/"):
            site.wind_clocks()
        page.goto(site.base + path)
        if path.endswith("#review"):
            page.reload()  # the same document with a hash: load it again so the hash opens the review
        try:
            ready(page)
            page.evaluate("document.fonts.ready")
            settle(page)
        except Exception as exc:  # noqa: BLE001 - report it as this page's fault, walk on
            faults.append(f"{name} {size} {lang}: not ready: {str(exc).splitlines()[0]}")
            continue
        page.screenshot(path=str(shots / f"{name}-{size}-{lang}.png"))
        faults += [f"{name} {size} {lang}: {f}" for f in _checks(page, name, size)]
        if page.js_errors:
            faults.append(f"{name} {size} {lang}: page errors {page.js_errors}")
            page.js_errors.clear()
    assert not faults, "\n".join(faults)

