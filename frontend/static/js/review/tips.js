// Pointing at a decision (a mark on the timeline, one in the list, one on the chart): hover or focus shows
// a tip with what was played and the better choice; a click or tap moves the replay there (`jump`), and the
// box under the step label says the same.
import { detail } from "./words.js";

const TARGETS = ".move, .tl-mark, .c-mark";

/** createTips(app, { tip, moves, decisionOf(el), name(seat), jump(d) }) */
export function createTips(app, { tip, moves, decisionOf, name, jump }) {
  let tipFor = null;

  function showTip(el, d) {
    if (!d) return;
    tipFor = el;
    detail(d, tip, name);
    tip.hidden = false;
    const r = el.getBoundingClientRect();
    const tw = tip.offsetWidth;
    const th = tip.offsetHeight;
    let x = r.left + r.width / 2 - tw / 2;
    x = Math.max(6, Math.min(x, window.innerWidth - tw - 6));
    let y = r.top - th - 8;
    if (y < 6) y = r.bottom + 8;
    tip.style.left = `${Math.round(x)}px`;
    tip.style.top = `${Math.round(y)}px`;
  }

  function hideTip(el) {
    if (el && el !== tipFor) return;
    tipFor = null;
    tip.hidden = true;
  }

  app.addEventListener("pointerover", (ev) => {
    if (ev.pointerType === "touch") return;
    const el = ev.target.closest(TARGETS);
    if (el && el !== tipFor) showTip(el, decisionOf(el));
  });
  app.addEventListener("pointerout", (ev) => {
    const el = ev.target.closest(TARGETS);
    if (el && !(ev.relatedTarget && el.contains(ev.relatedTarget))) hideTip(el);
  });
  moves.addEventListener("focusin", (ev) => {
    const el = ev.target.closest(".move");
    if (el) showTip(el, decisionOf(el));
  });
  moves.addEventListener("focusout", (ev) => hideTip(ev.target.closest(".move")));
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !tip.hidden) hideTip(); });
  // the tip follows its element when the page scrolls (a focused decision scrolls into view)
  window.addEventListener("scroll", () => {
    if (tipFor && tipFor.isConnected) showTip(tipFor, decisionOf(tipFor));
    else hideTip();
  }, { passive: true });

  // a click (or tap) on a mark, a decision or a chart mark: the replay goes there and the box says why
  app.addEventListener("click", (ev) => {
    const el = ev.target.closest(TARGETS);
    if (!el) return;
    jump(decisionOf(el));
    if (ev.pointerType === "touch" || !el.matches(".move")) hideTip();
  });
}
