"""Steps the browser tests share."""

from __future__ import annotations

import time
from typing import Any

PASSWORD = "felt-table-Q7-spades"

# A test may speed the table's pace up (localStorage "cb-pace"): 0.15 shows a whole match in seconds.
FAST = "localStorage.setItem('cb-pace', '0.1')"

# What the table asks of the player now: the end dialog, a bid, a card, or nothing yet.
STATE_JS = """() => {
  const app = document.getElementById('table-app');
  if (!app) return 'none';
  const end = document.querySelector('.end-dialog');
  if (end && end.open) return 'end';
  const picker = document.querySelector('.bid-picker');
  if (picker && !picker.hidden && document.querySelector('.bid-btn:not([disabled])')) return 'bid';
  if (app.dataset.interactive === '1' && document.querySelector('.hand .card.legal')) return 'play';
  return 'wait';
}"""


def new_context(browser: Any, **options: Any) -> Any:
    """A browser context for the tests: Playwright's string predicates (wait_for_function) are evaluated
    in the page, which the site's Content-Security-Policy (no eval) would refuse."""
    return browser.new_context(bypass_csp=True, **options)


def sign_up(page: Any, base: str, username: str, *, from_home: bool = False, email: bool = True) -> None:
    """Create an account through the sign-up form; the site then lands on the home page, signed in."""
    if from_home:
        page.goto(f"{base}/")
        page.get_by_role("link", name="Sign up").first.click()
    else:
        page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    if email:
        page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(f"{base}/")


def wait_state(page: Any, timeout: float = 30_000) -> str:
    """What the table asks of the player, once it asks something.  Read again after the wait, and waited for
    again if it is gone by then: a frame drawn playable can be redrawn as not (a forced card the table plays
    itself once the player's options have loaded)."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            page.wait_for_function(f"({STATE_JS})() !== 'wait'",
                                   timeout=max(1.0, (deadline - time.monotonic()) * 1000))
        except Exception as exc:
            debug = page.evaluate("window.callbreakTable && window.callbreakTable.debug()")
            raise AssertionError(f"the table is stuck: {debug}") from exc
        state = str(page.evaluate(STATE_JS))
        if state != "wait":
            return state


def play_card(page: Any, card: Any, *, tap: bool = False, double: bool = False) -> None:
    """Click (or tap) a card of the hand where a player would: on its visible strip.

    Through the card's locator, so Playwright waits until the card has stopped moving (a card of a new
    deal flies in from above; a card that turns playable lifts) and checks that the point hits this
    card, not a neighbour: a click at coordinates read mid-flight could land on another card or none."""
    box = card.bounding_box()
    at = {"x": 9, "y": min(32, box["height"] / 2)}
    if tap:
        card.tap(position=at)
    elif double:
        card.dblclick(position=at)
    else:
        card.click(position=at)


def finish_by_api(base: str, pages: dict[int, Any], match_id: int, limit: int = 600) -> dict[str, Any]:
    """Play a match to its end through the REST API: each seat's page (its cookies) plays its first legal
    move whenever it is its turn. ``pages`` maps seat -> page; bots answer by themselves."""
    any_page = next(iter(pages.values()))
    view: dict[str, Any] = {}
    for _ in range(limit):
        view = any_page.request.get(f"{base}/api/matches/{match_id}/").json()
        if view["phase"] == "finished":
            return view
        page = pages.get(view["turn"])
        if page is None:
            any_page.wait_for_timeout(50)
            continue
        mine = page.request.get(f"{base}/api/matches/{match_id}/").json()
        if not mine.get("your_turn") or (mine["phase"] != "bidding" and not mine.get("legal")):
            continue  # played meanwhile: the page itself plays a forced card (the auto-play option, on by default)
        move = {"bid": 2} if mine["phase"] == "bidding" else {"card": mine["legal"][0]}
        token = next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")
        page.request.post(f"{base}/api/matches/{match_id}/actions/", data={"seq": mine["seq"], **move},
                          headers={"X-CSRFToken": token})
    raise AssertionError(f"match {match_id} did not finish: {view.get('phase')}")


IN_VIEW_JS = """(sels) => sels.map((s) => {
  const el = document.querySelector(s);
  if (!el) return [s, false, 'missing'];
  const r = el.getBoundingClientRect();
  const ok = r.width > 0 && r.height > 0 && r.left >= -1 && r.top >= -1
    && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
  const box = [r.left, r.top, r.right, r.bottom].map(Math.round);
  return [s, ok, box.concat([innerWidth, innerHeight])];
})"""


def assert_in_viewport(page: Any, selectors: list[str]) -> None:
    """Every element is on screen at once, with no scrolling."""
    results = page.evaluate(IN_VIEW_JS, selectors)
    bad = [r for r in results if not r[1]]
    assert not bad, f"not inside the viewport: {bad}"
    scroll = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
                           " innerWidth, innerHeight]")
    assert scroll[0] <= scroll[2] + 1 and scroll[1] <= scroll[3] + 1, f"the page scrolls: {scroll}"


# The width of each hand card's part that is not covered by the next one, measured by hit-testing.
VISIBLE_STRIPS_JS = """() => {
  const cards = [...document.querySelectorAll('.hand .card')];
  return cards.map((c) => {
    const r = c.getBoundingClientRect();
    const y = r.top + r.height * 0.55;
    let n = 0;
    for (let x = Math.floor(r.left); x <= Math.ceil(r.right); x++) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('.card') === c) n++;
    }
    return n;
  });
}"""


# For each card of the hand: the widest run of its own pixels across (at any height) and the tallest run
# down (at any place across), found by hit-testing every 2 px: what a finger can hit of it.
TAP_TARGETS_JS = """() => [...document.querySelectorAll('.hand .card')].map((c) => {
  const r = c.getBoundingClientRect();
  const own = (x, y) => { const h = document.elementFromPoint(x, y); return h && h.closest('.card') === c; };
  let wide = 0, tall = 0;
  for (let y = r.top + 1; y < r.bottom; y += 2) {
    let run = 0;
    for (let x = r.left + 1; x < r.right; x += 2) { run = own(x, y) ? run + 2 : 0; wide = Math.max(wide, run); }
  }
  for (let x = r.left + 1; x < r.right; x += 2) {
    let run = 0;
    for (let y = r.top + 1; y < r.bottom; y += 2) { run = own(x, y) ? run + 2 : 0; tall = Math.max(tall, run); }
  }
  return [c.dataset.card, wide, tall];
})"""
