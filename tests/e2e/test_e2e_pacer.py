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


def test_a_view_shown_during_a_sweep_leaves_the_table_playable(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}/rules/")
    page.evaluate("localStorage.setItem('cb-pace', '0.1')")
    page.reload()
    out = page.evaluate(SWEEP_DURING_A_JUMP_JS)
    assert out["paths"]["jump"] == 1 and out["paths"]["diff"] == 1, out
    assert out["seq"] == 9 and not out["busy"], out
    assert out["interactive"], f"the table waits for nothing: {out}"
