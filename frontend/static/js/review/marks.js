// Marks on the replay's timeline (?! inaccuracy, ? mistake, ?? blunder), over the range input (its thumb is
// about 16 px wide); marks too close to each other go to a second (third…) row so that each can be pointed
// at. Hidden from screen readers: the list of decisions is the keyboard's way to them.
import { h, markOf } from "./words.js";

const MARK_GAP = 24;
const ROW = 22;

/** createMarks(box, { decisionOf(el), stepCount() }) -> { render(marked), clear(), follow(d) } */
export function createMarks(box, { decisionOf, stepCount }) {
  function layout() {
    const w = box.clientWidth;
    if (!w) return;
    const last = Math.max(1, stepCount() - 1);
    const rowEnds = [];
    const marks = box.querySelectorAll(".tl-mark");
    // a row as tall as a mark is drawn (a phone's larger text makes it taller), so rows never overlap
    const rowHeight = Math.max(ROW, ...[...marks].map((m) => m.offsetHeight + 2));
    for (const m of marks) {
      const d = decisionOf(m);
      const x = 8 + (w - 16) * (d._step / last);
      let row = rowEnds.findIndex((end) => x - end >= MARK_GAP);
      if (row < 0) row = rowEnds.push(-Infinity) - 1;
      rowEnds[row] = x;
      m.style.left = `${x.toFixed(1)}px`;
      m.style.top = `${row * rowHeight}px`;
    }
    box.style.height = `${Math.max(1, rowEnds.length) * rowHeight}px`;
  }

  function render(marked) {
    box.replaceChildren();
    for (const d of marked) {
      const m = h("span", `tl-mark lab-${d.label}`, markOf(d));
      m.dataset.i = String(d.index);
      box.append(m);
    }
    box.hidden = !marked.length;
    box.setAttribute("aria-hidden", "true");
    layout();
  }

  if (typeof ResizeObserver === "function") new ResizeObserver(() => layout()).observe(box);

  return {
    render,
    clear() {
      box.replaceChildren();
      box.hidden = true;
    },
    follow(d) {
      for (const m of box.querySelectorAll(".tl-mark")) m.classList.toggle("current", !!d && m.dataset.i === String(d.index));
    },
  };
}
