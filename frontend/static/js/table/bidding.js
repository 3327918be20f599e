// The bid picker, shown only when it is my turn to bid: the thirteen numbers (those the rules allow
// enabled, the one picked pressed), the others' bids so far with their total, and the Confirm button.
// What a tap on it does lives in input.js.
import { _, fmt } from "../i18n.js";
import { biddingOrder } from "./timeline.js";

export function createBidPicker(app, ui, { nameOf }) {
  const $ = (sel) => app.querySelector(sel);

  /** Draw the picker for frame `f`; `opened` says it has just appeared (input.js then moves the focus). */
  function render(f) {
    const picker = $(".bid-picker");
    const myBid = f.interactive && f.phase === "bidding" && f.turn === f.seat;
    const wasHidden = picker.hidden;
    picker.hidden = !myBid;
    app.classList.toggle("bidding-me", myBid);
    if (!myBid) {
      ui.pendingBid = null;
      return { opened: false };
    }
    const grid = $(".bid-grid");
    const legal = new Set(f.legal || []);
    if (grid.childElementCount !== 13) {
      grid.replaceChildren();
      for (let n = 1; n <= 13; n++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "bid-btn";
        b.dataset.bid = String(n);
        b.textContent = String(n);
        grid.appendChild(b);
      }
    }
    for (const b of grid.children) {
      const n = Number(b.dataset.bid);
      b.disabled = !legal.has(n) || ui.sending;
      b.setAttribute("aria-pressed", ui.pendingBid === n ? "true" : "false");
      b.setAttribute("aria-label", fmt(_("Bid %(n)s"), { n }));
    }
    const so = $(".bids-so-far");
    const bids = f.bids || [];
    const total = bids.reduce((a, b) => a + (b || 0), 0);
    so.replaceChildren();
    for (const s of biddingOrder(f)) {
      if (s === f.seat) continue;
      const span = document.createElement("span");
      span.className = "bid-chip" + (bids[s] == null ? " pending" : "");
      span.textContent = `${nameOf(f, s)}: ${bids[s] == null ? "…" : bids[s]}`;
      so.appendChild(span);
    }
    const tot = document.createElement("span");
    tot.className = "bid-total";
    tot.textContent = fmt(_("Total so far: %(t)s / 13"), { t: total });
    so.appendChild(tot);
    const confirm = $("#bid-confirm");
    confirm.disabled = ui.pendingBid == null || ui.sending;
    confirm.textContent = ui.pendingBid == null
      ? _("Pick a number")
      : fmt(_("Bid %(n)s tricks"), { n: ui.pendingBid });
    return { opened: wasHidden };
  }

  return { render };
}
