"""The replay on phones, in 中文 (long bot names): at every step of a finished match where a card completes a trick,
nothing on the board is covered (who took the trick, wrapped under the trick, covered the hands beside and below
it), and the step's line says who took it, at 360×740 and 740×360."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from e2e_helpers import covered_texts, finish_by_api, new_context, sign_up

pytestmark = pytest.mark.e2e

# Press → (a real keydown, as the keyboard sends it) until a step shows who took a trick, and say who; null at the
# match's end (the progress bar at its end). In the page, so the walk of some 300 steps costs one round trip per
# trick.
NEXT_NOTE = """async () => {
  const note = () => (document.querySelector('.replay-table .trick-note').textContent || '').trim();
  const progress = document.getElementById('progress');
  for (let i = 0; i < 12; i++) {
    const at = Number(progress.value);
    if (at >= Number(progress.max)) return null;
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    for (let wait = 0; Number(progress.value) === at && wait < 100; wait++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (note()) return note();
  }
  return null;
}"""


@pytest.mark.parametrize("size", [(360, 740), (740, 360)], ids=["360x740", "740x360"])
def test_the_trick_note_covers_no_card_at_any_step(browser: Any, site_url: str, size: tuple[int, int]) -> None:
    ctx = new_context(browser, viewport={"width": size[0], "height": size[1]}, locale="zh-CN",
                      is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    try:
        sign_up(page, site_url, "rn_" + secrets.token_hex(3), email=False)
        token = next(c["value"] for c in ctx.cookies() if c["name"] == "csrftoken")
        made = page.request.post(f"{site_url}/api/matches/", data={"bot": "easy"}, headers={"X-CSRFToken": token})
        view = made.json()
        finish_by_api(site_url, {view["seat"]: page}, view["id"])
        page.goto(f"{site_url}/replay/{view['id']}/")
        page.wait_for_selector(".rseat.pos-bottom .rhand .card")  # the replay loaded: keys move it
        bad: list[Any] = []
        notes = 0
        for _ in range(80):  # every step of the match, one key press each; checked where a trick was won
            note = page.evaluate(NEXT_NOTE)
            if note is None:
                break
            notes += 1
            label = page.locator(".replay-step-label").inner_text()
            assert note in label, (note, label)
            bad += [(label, c) for c in covered_texts(page)]
        assert notes >= 60, notes
        assert not bad, bad[:6]
    finally:
        ctx.close()
