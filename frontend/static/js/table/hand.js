// My hand: the cards in order, which ones may be played (and why the others are locked, for the bubble and
// screen readers), one tab stop among them, the deal-in animation, and one row or two on a narrow screen.
import { _ } from "../i18n.js";
import { cardFace, cardName, reasonText, sortHand } from "../cards.js";

export function createHand(app, ui) {
  const $ = (sel) => app.querySelector(sel);

  // A narrow screen (a phone held upright) may have no room for all the cards in one row with a finger's
  // width (MIN_STRIP) of each: then the hand goes in two overlapping rows (a grid; each card overflows its
  // column, the next one covers the rest), the first row's top half and each card's column showing. One row
  // whenever the cards fit: that depends on how many are left and on the width.
  const twoRows = window.matchMedia("(max-width: 640px)");
  const MIN_STRIP = 40;
  twoRows.addEventListener("change", () => ui.rerender());
  let lastWidth = 0;
  new ResizeObserver(() => {
    const w = $(".hand").clientWidth;
    if (w !== lastWidth && lastWidth) ui.rerender();
    lastWidth = w;
  }).observe($(".hand"));
  function fitsOneRow(hand, buttons) {
    const n = buttons.length;
    if (n <= 1) return true;
    const cs = getComputedStyle(hand);
    const width = hand.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return (width - buttons[0].offsetWidth) / (n - 1) >= MIN_STRIP;
  }
  function layoutRows(hand, buttons) {
    const on = twoRows.matches && !fitsOneRow(hand, buttons);
    hand.classList.toggle("two-rows", on);
    const perRow = Math.ceil(buttons.length / 2);
    const cols = on ? perRow : 0;
    hand.style.gridTemplateColumns = on
      ? `repeat(${Math.max(cols - 1, 1)}, minmax(0, var(--hw))) var(--hw)` : "";
    buttons.forEach((b, i) => {
      const row = on ? (i < perRow ? 1 : 2) : 0;
      // the second row sits half a column to the right so that each card of the first shows a corner
      b.style.gridRow = on ? String(row) : "";
      b.style.gridColumn = on ? String(row === 1 ? i + 1 : i - perRow + 1) : "";
    });
  }

  function render(f, info) {
    const hand = $(".hand");
    const cards = sortHand(f.hand || []);
    const myTurn = f.interactive && f.turn === f.seat && f.phase === "playing";
    const legal = new Set(myTurn ? f.legal || [] : []);
    const locked = myTurn ? f.locked || {} : {};
    const existing = new Map([...hand.children].map((b) => [b.dataset.card, b]));
    const buttons = [];
    const dealt = info && info.event && info.event.t === "newdeal";
    for (const c of cards) {
      let b = existing.get(c);
      if (!b) {
        b = document.createElement("button");
        b.type = "button";
        cardFace(b, c);
        if (dealt || !hand.childElementCount) b.classList.add("deal-in");
      }
      existing.delete(c);
      const isLegal = legal.has(c);
      const reason = !isLegal && myTurn ? locked[c] || "locked" : null;
      b.classList.toggle("legal", isLegal && !ui.sending);
      b.classList.toggle("locked", myTurn && !isLegal);
      b.classList.toggle("waiting", !myTurn);
      b.dataset.reason = reason && reason !== "locked" ? reason : "";
      let label = cardName(c);
      if (isLegal) label += ", " + _("playable");
      else if (reason) label += ", " + _("locked") + ": " + reasonText(reason);
      b.setAttribute("aria-label", label);
      buttons.push(b);
    }
    for (const b of existing.values()) b.remove();
    buttons.forEach((b, i) => {
      if (hand.children[i] !== b) hand.insertBefore(b, hand.children[i] || null);
      b.style.setProperty("--i", String(i));
      const k = i - (buttons.length - 1) / 2;
      b.style.setProperty("--k", String(k));
      b.style.setProperty("--k2", String(k * k));
    });
    hand.style.setProperty("--n", String(Math.max(buttons.length, 1)));
    layoutRows(hand, buttons);
    app.dataset.handCards = String(buttons.length);
    // one tab stop in the hand (roving tabindex)
    if (!ui.focusCard || !cards.includes(ui.focusCard)) {
      ui.focusCard = cards.find((c) => legal.has(c)) || cards[0] || null;
    }
    for (const b of buttons) b.tabIndex = b.dataset.card === ui.focusCard ? 0 : -1;
    if (dealt || buttons.some((b) => b.classList.contains("deal-in"))) {
      setTimeout(() => buttons.forEach((b) => b.classList.remove("deal-in")), 900);
    }
  }

  return { render };
}
