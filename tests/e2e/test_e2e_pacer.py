"""The table's pacer, run in Chromium as the page runs it: a newer view that arrives while a finished trick
is being swept away (a view that cannot be animated, so it is shown at once) must leave the table playable.
The sweep's end, due a moment later, belongs to the older frame; drawn after the newest view it left the
table waiting for nothing (a frame not playable, with no step to come)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e

SWEEP_DURING_A_JUMP_JS = """async () => {
  const { createPacer } = await import('/static/js/table/pacer.js');
  const hand = ['2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS', 'KS', 'AS'];
  const base = {
    id: 1, seat: 0, dealer: 0, deal_number: 1, phase: 'playing', status: 'active', your_turn: false,
    bids: [2, 2, 2, 2], tricks_won: [0, 0, 0, 0], tricks: [], deals: [], totals: [0, 0, 0, 0],
    hand_counts: [13, 12, 12, 12], hand, legal: [], locked: {}, trick_number: 1, first_trick: true,
  };
  const first = [{ seat: 1, card: '2H' }, { seat: 2, card: '3H' }, { seat: 3, card: '4H' }];
  const v7 = { ...base, seq: 7, turn: 0, your_turn: true, legal: ['AS'],
               trick: { leader: 1, plays: first } };
  const won = { leader: 1, plays: [...first, { seat: 0, card: 'AS' }], winner: 0 };
  const v8 = { ...base, seq: 8, turn: 0, your_turn: true, hand: hand.slice(0, 12), hand_counts: [12, 12, 12, 12],
               tricks: [won], tricks_won: [1, 0, 0, 0], trick: { leader: 0, plays: [] }, legal: hand.slice(0, 12),
               trick_number: 2, first_trick: false, last_trick: won };
  // a view that does not follow from the one on screen (another trick history): shown at once
  const other = { ...won, plays: [...first, { seat: 0, card: 'KS' }] };
  const v9 = { ...v8, seq: 9, tricks: [other], last_trick: other };
  let pacer = null;
  const swept = new Promise((resolve) => {
    pacer = createPacer({
      render: () => {},
      collect: () => { queueMicrotask(() => { pacer.push(v9); resolve(); }); return 150; },
    });
  });
  pacer.push(v7);
  pacer.push(v8);
  await swept;
  await new Promise((r) => setTimeout(r, 400));  // the sweep's end was due 150 ms after it began
  return { seq: pacer.frame.seq, interactive: pacer.frame.interactive, busy: pacer.busy, paths: pacer.paths };
}"""


def _run_in_a_page(page: Any, site_url: str, script: str, pace: str | None = None) -> Any:
    """``script``'s result in a page of the site whose table pace is ``pace`` (the player's setting; None: the
    default), loaded afresh so the pacer reads it."""
    page.goto(f"{site_url}/rules/")
    setting = "localStorage.removeItem('cb-pace')" if pace is None else f"localStorage.setItem('cb-pace', '{pace}')"
    page.evaluate(setting)
    page.reload()
    return page.evaluate(script)


def test_a_view_shown_during_a_sweep_leaves_the_table_playable(page: Any, site_url: str) -> None:
    out = _run_in_a_page(page, site_url, SWEEP_DURING_A_JUMP_JS, pace="0.1")
    assert out["paths"]["jump"] == 1 and out["paths"]["diff"] == 1, out
    assert out["seq"] == 9 and not out["busy"], out
    assert out["interactive"], f"the table waits for nothing: {out}"


# Twelve cards (three tricks) arrive in one message: a backlog of 19 steps. The page's clock and timers are replaced
# by a fake one, so the test reads the waits the pacer asks for, whatever the machine's speed.
BACKLOG_JS = """async () => {
  const { createPacer, GAP } = await import('/static/js/table/pacer.js');
  let now = 0;
  const timers = new Map();
  let next = 1;
  const waits = [];
  performance.now = () => now;
  window.setTimeout = (fn, ms = 0) => { waits.push(ms); timers.set(next, [now + ms, fn]); return next++; };
  window.clearTimeout = (id) => { timers.delete(id); };
  const seats = [0, 1, 2, 3];
  const suits = ['S', 'H', 'D'];
  const tricks = suits.map((s) => ({ leader: 0, winner: 0,
    plays: seats.map((seat) => ({ seat, card: (seat === 0 ? 'A' : String(seat + 2)) + s })) }));
  const base = {
    id: 1, seat: 0, dealer: 3, deal_number: 1, phase: 'playing', status: 'active', your_turn: true, turn: 0,
    bids: [2, 2, 2, 2], deals: [], totals: [0, 0, 0, 0], hand_counts: [13, 13, 13, 13], locked: {},
    first_trick: false, legal: [],
  };
  const v0 = { ...base, seq: 0, tricks: [], tricks_won: [0, 0, 0, 0], trick: { leader: 0, plays: [] },
               hand: ['AS', 'AH', 'AD'], trick_number: 1 };
  const v12 = { ...base, seq: 12, tricks, tricks_won: [3, 0, 0, 0], trick: { leader: 0, plays: [] }, hand: [],
                hand_counts: [10, 10, 10, 10], trick_number: 4, last_trick: tricks[2] };
  const pacer = createPacer({ render: () => {}, collect: () => 0 });
  pacer.push(v0);
  pacer.push(v12, { since: 0, actions: tricks.flatMap((t) => t.plays) });
  const queued = pacer.debug().steps;
  for (let i = 0; i < 500 && timers.size; i++) {  // run the timers in their order, moving the clock
    const [id, [at, fn]] = [...timers.entries()].sort((a, b) => a[1][0] - b[1][0])[0];
    timers.delete(id);
    now = Math.max(now, at);
    fn();
  }
  return { queued, waits, gap: GAP, seq: pacer.frame.seq, busy: pacer.busy, paths: pacer.paths };
}"""


def test_a_backlog_plays_faster_the_longer_it_is(page: Any, site_url: str) -> None:
    out = _run_in_a_page(page, site_url, BACKLOG_JS)
    assert out["paths"] == {"actions": 1, "diff": 0, "jump": 0}, out
    assert out["seq"] == 12 and not out["busy"], out
    gap = out["gap"]
    assert out["queued"] > 12, out
    # the first card of a long backlog lands at twice the pace; the last ones, the backlog short, at the usual one
    assert out["waits"][0] == gap / 2, out
    assert gap in out["waits"][-8:], out
