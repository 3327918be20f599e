"""Steps the browser tests share."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Where a failed browser test's pages are kept (screenshots and text), beside the other screenshots.
FAILED = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e" / "failed"

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


# A browser that asks sites to save data (Chrome's Data Saver, common on phones in Nepal and India): the home
# page then leaves the offline engine (about 14 MB, and Pyodide started once in a worker) alone. Every browser
# test but offline play's runs so; otherwise each home page visit would download and start the engine.
SAVE_DATA = """Object.defineProperty(Navigator.prototype, 'connection', { configurable: true,
  get() { return { saveData: true, effectiveType: '4g', addEventListener() {}, removeEventListener() {} }; } });"""


def new_context(browser: Any, offline_engine: bool = False, **options: Any) -> Any:
    """A browser context for the tests: Playwright's string predicates (wait_for_function) are evaluated
    in the page, which the site's Content-Security-Policy (no eval) would refuse.  ``offline_engine``: the
    home page keeps the offline engine as for anyone not saving data (else the context saves data)."""
    context = browser.new_context(bypass_csp=True, **options)
    if not offline_engine:
        context.add_init_script(SAVE_DATA)
    real_close = context.close

    def close(*args: Any, **kwargs: Any) -> Any:
        # closed while a failure goes up through the test's `finally` (or `people`'s): keep what its pages show
        if sys.exc_info()[1] is not None:
            keep_pages(context.pages)
        return real_close(*args, **kwargs)

    context.close = close
    return context


def keep_pages(pages: list[Any]) -> None:
    """A screenshot and the text of each page in test-artifacts/e2e/failed/, named after the running test: what a
    failed test's player saw (an error shown, a dialog in the way) is then read, not guessed."""
    FAILED.mkdir(parents=True, exist_ok=True)
    test = os.environ.get("PYTEST_CURRENT_TEST", "test").split(" ")[0].split("::")[-1]
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in test)
    for page in pages:
        stem = FAILED / f"{name}-{time.monotonic_ns()}"
        try:
            page.screenshot(path=f"{stem}.png", full_page=True)
            Path(f"{stem}.txt").write_text(f"{page.url}\n\n{page.inner_text('body')}")
        except Exception as err:  # a page already closed: say so, go on with the others
            Path(f"{stem}.txt").write_text(f"no screenshot: {err}")


@contextmanager
def people(browser: Any, *options: dict[str, Any], fast: bool = False) -> Iterator[tuple[list[Any], list[str]]]:
    """One page per ``options`` (each in a browser context of its own, closed at the end), with the tests' 20 s
    timeout, and the list their page errors go to: where several people meet. ``fast``: the table's quick pace."""
    contexts = [new_context(browser, **o) for o in options]
    try:
        pages = []
        errors: list[str] = []
        for c in contexts:
            if fast:
                c.add_init_script(FAST)
            p = c.new_page()
            p.set_default_timeout(20_000)
            p.on("pageerror", lambda exc: errors.append(str(exc)))
            pages.append(p)
        yield pages, errors
    finally:
        for c in contexts:
            c.close()


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


def start_private_table(host: Any, guest: Any, base: str, guest_name: str, move_seconds: str = "") -> int:
    """The host creates a private table (``move_seconds``: the lobby's pace, default as it comes), the guest sits
    at seat 2 by the invitation link, bots fill the rest and the match starts: both pages at the table; its id.
    The host's room shows the guest seated before the bots are asked for: else they could take seat 2 first, or
    the room's redraw for the guest could replace the button under the click."""
    host.goto(f"{base}/lobby/")
    host.select_option("select[name=visibility]", "private")
    if move_seconds:
        host.select_option("select[name=move_seconds]", move_seconds)
    host.get_by_test_id("create-table").click()
    host.wait_for_url(f"{base}/tables/*/")
    guest.goto(host.locator(".invite-box input").input_value())
    guest.get_by_test_id("sit-2").click()
    host.locator("[data-testid=seat-2]", has_text=guest_name).wait_for()
    host.get_by_test_id("fill-bots").click()
    host.get_by_test_id("start").click()
    host.wait_for_url(f"{base}/play/*/")
    guest.wait_for_url(f"{base}/play/*/")
    return int(host.url.rstrip("/").split("/")[-1])


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


# The player, in the page: whenever the table asks, bid 2 (the picker's button, then Confirm) or click the first legal
# card, as a person's clicks would (the table's own click handlers), until the end dialog; the number of actions.
# One round trip for a whole match where Playwright's clicks cost several each: for the deals a test only needs
# played (the checks are on the ones played by hand before).
PLAY_IN_PAGE_JS = """async (limitMs) => {
  const state = (STATE_JS);
  const until = performance.now() + limitMs;
  let acted = 0;
  let last = null;
  let lastAt = 0;
  while (performance.now() < until) {
    const st = state();
    if (st === 'end') return acted;
    // once per seq; again after 3 s if the same question stands (a click the table did not take)
    const mark = document.getElementById('table-app').dataset.seq + st;
    if (mark === last && performance.now() - lastAt < 3000) {
      await new Promise((r) => setTimeout(r, 30));
      continue;
    }
    lastAt = performance.now();
    if (st === 'bid') {
      document.querySelector('.bid-btn[data-bid="2"]').click();
      document.getElementById('bid-confirm').click();
      acted += 1;
      last = mark;
    } else if (st === 'play') {
      document.querySelector('.hand .card.legal').click();
      acted += 1;
      last = mark;
    }
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`the match did not end in ${limitMs} ms: ${state()}`);
}""".replace("STATE_JS", STATE_JS)


def play_in_page(page: Any, limit_ms: int = 240_000) -> int:
    """Play the open table to its end dialog from inside the page (``PLAY_IN_PAGE_JS``); my actions."""
    return int(page.evaluate(PLAY_IN_PAGE_JS, limit_ms))


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
    move whenever it is its turn. ``pages`` maps seat -> page; bots answer by themselves. An action's answer
    is the mover's view after it, so a person who moves again moves at once, with no request in between."""
    url = f"{base}/api/matches/{match_id}/"
    any_page = next(iter(pages.values()))
    view: dict[str, Any] = any_page.request.get(url).json()
    for _ in range(limit):
        if view["phase"] == "finished":
            return view
        page = pages.get(view["turn"])
        if page is None:  # a bot's turn: it answers by itself
            any_page.wait_for_timeout(50)
            view = any_page.request.get(url).json()
            continue
        mine = view if view.get("seat") == view["turn"] else page.request.get(url).json()
        if not mine.get("your_turn") or (mine["phase"] != "bidding" and not mine.get("legal")):
            # played meanwhile: the page itself plays a forced card (the auto-play option, on by default)
            view = any_page.request.get(url).json()
            continue
        move = {"bid": 2} if mine["phase"] == "bidding" else {"card": mine["legal"][0]}
        token = next((c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"), "")
        answer = page.request.post(f"{url}actions/", data={"seq": mine["seq"], **move},
                                   headers={"X-CSRFToken": token})
        view = answer.json() if answer.ok else any_page.request.get(url).json()
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


# Texts that something else covers: for each visible element that holds text of its own, the elements at its
# centre point (document.elementsFromPoint, everything made hit-testable for the check) are read from the top
# down to the element itself, one of its descendants or one of its ancestors; the first one on the way that
# paints at that point (a background, a border, an image or control, or its own text there) covers it. Cards
# fanned in a hand are meant to hide each other's middles: only their index corners (.corner.tl) must show.
# A page taller than the screen is checked at each half screen of scrolling; an element is judged where its
# centre is on screen and not under something fixed (a sticky bar covers a text only while scrolled under it).
# Returns [{text, el, by, byText}], one per covered element.
COVERED_TEXT_JS = """() => {
  const style = document.createElement('style');
  style.textContent = '*, *::before, *::after { pointer-events: auto !important; }'
    + ' html { scroll-behavior: auto !important; }';
  document.head.appendChild(style);
  const desc = (el) => el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
    + (el.dataset && el.dataset.testid ? '[' + el.dataset.testid + ']' : '') : 'nothing';
  const skip = 'script, style, noscript, template, option, select, title, textarea';
  const solid = new Set(['IMG', 'SVG', 'CANVAS', 'VIDEO', 'INPUT', 'SELECT', 'TEXTAREA', 'IFRAME']);
  const ownText = (e) => [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
  const paints = (e, x, y) => {
    const cs = getComputedStyle(e);
    if (parseFloat(cs.opacity) === 0) return false;
    const bg = cs.backgroundColor.match(/[\\d.]+/g);
    if (cs.backgroundImage !== 'none' || (bg && (bg.length < 4 || parseFloat(bg[3]) > 0.1))) return true;
    if (solid.has(e.tagName.toUpperCase())) return true;
    if (['Top', 'Right', 'Bottom', 'Left'].some((s) => parseFloat(cs['border' + s + 'Width']) > 0
        && !/rgba\\(.*, 0\\)$/.test(cs['border' + s + 'Color']))) {
      const r = e.getBoundingClientRect();
      const edge = Math.max(...['Top', 'Right', 'Bottom', 'Left'].map((s) => parseFloat(cs['border' + s + 'Width'])));
      if (x - r.left <= edge || r.right - x <= edge || y - r.top <= edge || r.bottom - y <= edge) return true;
    }
    return ownText(e).some((n) => { const g = document.createRange(); g.selectNodeContents(n);
      return [...g.getClientRects()].some((q) => x >= q.left && x <= q.right && y >= q.top && y <= q.bottom); });
  };
  const fanned = (el, by) => { const c = el.closest('.card'), d = by.closest('.card');
    return c && d && c !== d && c.parentElement === d.parentElement && !el.closest('.corner.tl'); };
  const els = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest(skip)) continue;
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;  // visually hidden (for screen readers)
    els.add(el);
  }
  const fixed = (el) => { for (let e = el; e; e = e.parentElement) {
    const p = getComputedStyle(e).position; if (p === 'fixed' || p === 'sticky') return true; } return false; };
  const judged = new Map();
  const x0 = scrollX, y0 = scrollY;
  const tall = document.documentElement.scrollHeight - innerHeight;
  for (let y = 0; ; y += Math.max(100, innerHeight / 2)) {
    window.scrollTo(0, Math.min(y, Math.max(0, tall)));
    for (const el of els) {
      if (judged.has(el)) continue;
      // an inline element broken over lines: the centre of its longest line box (its bounding box's centre
      // may be on the neighbour that the line break left beside it)
      const r = [...el.getClientRects()].reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      if (cx < 0 || cy < 0 || cx >= innerWidth || cy >= innerHeight) continue;
      let by = null;
      for (const e of document.elementsFromPoint(cx, cy)) {
        if (e === el || el.contains(e) || e.contains(el)) break;
        if (paints(e, cx, cy)) { by = e; break; }
      }
      if (!by || fanned(el, by)) { judged.set(el, null); continue; }
      if (fixed(by) && !fixed(el)) continue;
      judged.set(el, {text: el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 50), el: desc(el), by: desc(by),
                      byText: by.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30)});
    }
    if (y >= tall) break;
  }
  window.scrollTo(x0, y0);
  style.remove();
  return [...judged.values()].filter(Boolean);
}"""


# The tap targets (links, buttons, inputs, selects, role=button) smaller than ``min`` CSS px either way. A
# checkbox or radio passes when one of its labels is a large enough target (the label is what a finger taps);
# labels of other controls are not counted (the control itself is the target). Disabled controls and elements
# off the page (a skip link until focused) are not targets. Returns [{what, text, w, h}].
SMALL_TARGETS_JS = """(min) => {
  const desc = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
    + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '');
  const big = (el) => { const r = el.getBoundingClientRect(); return r.width >= min - 0.5 && r.height >= min - 0.5; };
  const out = [];
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, [role=button], summary';
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) continue;
    if (big(el) || (el.labels && [...el.labels].some((l) => l.checkVisibility() && big(l)))) continue;
    const label = el.labels && el.labels[0];
    out.push({what: desc(el), text: ((label && label.textContent) || el.textContent || el.value || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 30), w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10});
  }
  return out;
}"""


# Pairs of the elements ``sels`` finds (visible ones) whose boxes overlap by more than 1 px both ways.
OVERLAPS_JS = """(sels) => {
  const els = sels.flatMap((s) => [...document.querySelectorAll(s)].map((el) => [s, el]))
    .filter(([, el]) => el.checkVisibility({opacityProperty: true, visibilityProperty: true}));
  const out = [];
  for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i][1].getBoundingClientRect(), b = els[j][1].getBoundingClientRect();
    if (a.width < 1 || b.width < 1 || els[i][1].contains(els[j][1]) || els[j][1].contains(els[i][1])) continue;
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) out.push([els[i][0], els[j][0], Math.round(w), Math.round(h)]);
  }
  return out;
}"""


# Visible texts set smaller than ``min`` CSS px (a phone's smallest readable size): [[text, px], ...]. Text set at
# 0 px is not shown (a chip that shows a sign keeps its words for screen readers). A chart's SVG text is measured
# as drawn: its font size times the drawing's scale on screen (an SVG scaled down to a phone shrinks its labels).
SMALL_TEXT_JS = """(min) => {
  const out = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || out.has(el) || el.closest('script, style, option, title, desc')) continue;
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    let px = parseFloat(getComputedStyle(el).fontSize) * (parseFloat(getComputedStyle(el).zoom) || 1);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      if (m) px *= Math.min(Math.hypot(m.a, m.b), Math.hypot(m.c, m.d));
    }
    if (px > 0 && px < min - 0.05) out.set(el, [n.textContent.trim().slice(0, 30), Math.round(px * 10) / 10]);
  }
  return [...out.values()];
}"""


# Whether every finite animation and transition of the page has ended (a spinner's endless one aside).
# Settled: no animation runs but endless ones and the turn's glow (it breathes for a few seconds, moving nothing).
SETTLED_JS = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || a.effect.getComputedTiming().iterations === Infinity || a.animationName === 'pulse')"""


def covered_texts(page: Any) -> list[dict[str, str]]:
    """The visible texts another element covers (see COVERED_TEXT_JS)."""
    return list(page.evaluate(COVERED_TEXT_JS))


def small_targets(page: Any, minimum: float = 44) -> list[dict[str, Any]]:
    """The tap targets under ``minimum`` CSS px either way (see SMALL_TARGETS_JS)."""
    return list(page.evaluate(SMALL_TARGETS_JS, minimum))


def small_texts(page: Any, minimum: float = 12) -> list[list[Any]]:
    """The visible texts set under ``minimum`` CSS px (see SMALL_TEXT_JS)."""
    return list(page.evaluate(SMALL_TEXT_JS, minimum))


def overlaps(page: Any, selectors: list[str]) -> list[list[Any]]:
    """Pairs of elements among ``selectors`` whose boxes overlap."""
    return list(page.evaluate(OVERLAPS_JS, selectors))


def outside_viewport(page: Any, selectors: list[str]) -> list[Any]:
    """The selectors whose element is missing or not wholly on screen (with no scrolling)."""
    return [r for r in page.evaluate(IN_VIEW_JS, selectors) if not r[1]]


def settle(page: Any, timeout: float = 10_000) -> None:
    """Wait until the page's animations have ended (cards dealt, a trick gathered), bounded."""
    page.wait_for_function(f"({SETTLED_JS})()", timeout=timeout)
