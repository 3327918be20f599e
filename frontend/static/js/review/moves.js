// The list of every decision of the seat, deal by deal: one tab stop, ← → (↑ ↓, Home, End) move between
// them and the replay follows (`jump`).
import { _, fmt } from "../i18n.js";
import { describe, h, labelClass, playedChip, signOf } from "./words.js";

/** createMoves(box, { decisionOf(el), jump(d) }) -> { render(decisions), clear(), follow(d, latest) } */
export function createMoves(box, { decisionOf, jump }) {
  function render(decisions) {
    box.replaceChildren();
    const byDeal = new Map();
    for (const d of decisions) {
      if (!byDeal.has(d.deal)) byDeal.set(d.deal, []);
      byDeal.get(d.deal).push(d);
    }
    for (const [deal, list] of byDeal) {
      const sec = h("section", "rm-deal");
      sec.append(h("h3", "", fmt(_("Deal %(n)s"), { n: deal })));
      const ol = h("ol", "rm-list");
      for (const d of list) {
        const li = h("li");
        const b = h("button", `move ${labelClass(d)}`);
        b.type = "button";
        b.dataset.i = String(d.index);
        b.tabIndex = -1;
        b.setAttribute("aria-label", describe(d));
        b.setAttribute("aria-describedby", "review-keys");
        b.append(playedChip(d));
        const mk = signOf(d);
        if (mk) b.append(h("span", "mk", mk));
        li.append(b);
        ol.append(li);
      }
      sec.append(ol);
      box.append(sec);
    }
    const first = box.querySelector(".move");
    if (first) first.tabIndex = 0;
  }

  /** `d`: the decision of the replay's step (if any); `latest`: the last one at or before it (its tab stop). */
  function follow(d, latest) {
    const focusInList = box.contains(document.activeElement);
    for (const b of box.querySelectorAll(".move")) {
      const here = d && b.dataset.i === String(d.index);
      if (here) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
      if (!focusInList) b.tabIndex = (latest ? b.dataset.i === String(latest.index) : b === box.querySelector(".move")) ? 0 : -1;
    }
  }

  box.addEventListener("keydown", (ev) => {
    const all = [...box.querySelectorAll(".move")];
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: all.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    const b = all[Math.max(0, Math.min(all.length - 1, to))];
    all.forEach((x) => { x.tabIndex = x === b ? 0 : -1; });
    b.focus();
    jump(decisionOf(b));
  });

  return { render, clear: () => box.replaceChildren(), follow };
}
