// The rating people see (games/platform/rating_scale.py `shown`): 1500 + 20 × (μ − 25), marked "1500?" while it is
// provisional. The match's end view carries my change at a rated match as people see it (`rating`: before,
// after, change and the texts with their marks), the same number the leaderboard and profile show.
import { _, fmt } from "./i18n.js";

export const signedChange = (ch) => (ch > 0 ? "+" : ch < 0 ? "−" : "±") + Math.abs(ch);

/** My rating change `c` (the view's `rating`) into `el`, and its `note` shown beside it. */
export function showRatingChange(c, el, note) {
  el.textContent = fmt(_("Rating: %(before)s → %(after)s (%(change)s)"), {
    before: c.text_before, after: c.text, change: signedChange(c.change),
  });
  el.className = "rating-change " + (c.change > 0 ? "up" : c.change < 0 ? "down" : "");
  el.hidden = false;
  note.hidden = false;
}
