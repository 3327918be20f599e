// What taps, clicks and keys do at the table: play a card, pick and confirm a bid, explain a locked
// card, and where the keyboard focus goes as the turns come and go.
import { _ } from "../i18n.js";
import { reasonText } from "../cards.js";

export function createInput(app, { ui, frame, play, bid }) {
  const $ = (sel) => app.querySelector(sel);
  const hand = $(".hand");
  const grid = $(".bid-grid");
  const bubble = $(".reason-bubble");
  let bubbleTimer = null;

  // ---- the locked-card bubble: inside the screen, above the card ---------------------------------
  function explain(btn, text, { shake = true } = {}) {
    bubble.textContent = text;
    bubble.hidden = false;
    const margin = 8;
    const vw = document.documentElement.clientWidth;
    bubble.style.maxWidth = `${Math.min(440, vw - 2 * margin)}px`;
    const b = bubble.getBoundingClientRect();
    let left = (vw - b.width) / 2;
    let top = window.innerHeight / 2;
    if (btn) {
      const r = btn.getBoundingClientRect();
      const visibleRight = Math.min(r.right, r.left + 40); // the card's visible strip in a fanned hand
      left = (r.left + visibleRight) / 2 - b.width / 2;
      top = r.top - b.height - 10;
      if (shake && !window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
        btn.animate([{ translate: "0 0" }, { translate: "-5px 0" }, { translate: "5px 0" }, { translate: "0 0" }],
          { duration: 300 });
      }
    }
    bubble.style.left = `${Math.round(Math.min(Math.max(left, margin), vw - b.width - margin))}px`;
    bubble.style.top = `${Math.round(Math.max(top, margin))}px`;
    clearTimeout(bubbleTimer);
    bubbleTimer = setTimeout(() => { bubble.hidden = true; }, 3500);
  }
  const hideBubble = () => { bubble.hidden = true; };

  function tryPlay(btn) {
    const f = frame();
    if (!f || !btn) return;
    const c = btn.dataset.card;
    ui.focusCard = c;
    if (!f.interactive) return; // the table is still showing what happened: a moment
    if (f.phase === "finished") return;
    if (f.phase !== "playing" || f.turn !== f.seat) {
      explain(btn, f.phase === "bidding" ? reasonText("wrong_phase") : reasonText("not_your_turn"));
      return;
    }
    if (!(f.legal || []).includes(c)) {
      explain(btn, reasonText((f.locked || {})[c]) + " " + _("(Locked by the rules, not a fault.)"));
      return;
    }
    if (ui.sending) return;
    hideBubble();
    // the keyboard focus moves on to a neighbour before this card leaves the hand
    const buttons = [...hand.children];
    const i = buttons.indexOf(btn);
    const next = buttons[i + 1] || buttons[i - 1] || null;
    const hadFocus = document.activeElement === btn;
    ui.focusCard = next ? next.dataset.card : null;
    ui.flyFrom.set(c, btn.getBoundingClientRect());
    play(c);
    if (hadFocus) focusHand();
  }

  // ---- focus ---------------------------------------------------------------------------------
  function focusHand() {
    const b = hand.querySelector('button[tabindex="0"]') || hand.querySelector("button");
    if (b) b.focus({ preventScroll: true });
    else $(".statusbar").focus?.();
  }

  // Is the keyboard focus "at the table" (so it may be moved along as the game goes)?
  function focusAtTable() {
    const a = document.activeElement;
    return !a || a === document.body || hand.contains(a) || $(".bid-picker").contains(a);
  }

  /** After each frame: the bid picker takes focus when it opens; my turn puts focus on a playable card. */
  function afterRender(f, { pickerOpened }) {
    if (!f || !f.interactive) return;
    if (pickerOpened && focusAtTable()) {
      const pick = grid.querySelector(`[data-bid="${ui.lastBid || 1}"]`) || grid.querySelector("button");
      if (pick) pick.focus({ preventScroll: true });
      return;
    }
    if (f.phase === "playing" && f.turn === f.seat && focusAtTable()) {
      const legal = new Set(f.legal || []);
      if (!legal.has(ui.focusCard)) {
        // the nearest playable card to where the focus was
        const buttons = [...hand.children];
        const at = Math.max(0, buttons.findIndex((b) => b.dataset.card === ui.focusCard));
        const order = buttons.map((b, i) => [Math.abs(i - at), b]).sort((x, y) => x[0] - y[0]);
        const best = order.find(([, b]) => legal.has(b.dataset.card));
        if (best) ui.focusCard = best[1].dataset.card;
      }
      for (const b of hand.children) b.tabIndex = b.dataset.card === ui.focusCard ? 0 : -1;
      if (document.activeElement === document.body || hand.contains(document.activeElement)) focusHand();
    }
  }

  // ---- events --------------------------------------------------------------------------------
  hand.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button.card");
    if (!btn) return;
    // "Tap twice to play" (options.js): a first tap raises a playable card, a second tap on it plays it; a
    // raise holds for this turn only (the frame's seq). Keys play at once (Enter and Space: the keydown below).
    const turn = String(frame()?.seq);
    if (app.dataset.tapTwice === "1" && btn.classList.contains("legal") && btn.dataset.raisedAt !== turn) {
      for (const b of hand.querySelectorAll("button.card.raised")) b.classList.remove("raised");
      btn.classList.add("raised");
      btn.dataset.raisedAt = turn;
      return;
    }
    tryPlay(btn);
  });
  // Hovering (mouse) or focusing (keyboard) a locked card explains it; a tap does too.
  hand.addEventListener("mouseover", (ev) => {
    const btn = ev.target.closest("button.card.locked");
    if (btn && btn.dataset.reason && window.matchMedia("(hover: hover)").matches) {
      explain(btn, reasonText(btn.dataset.reason), { shake: false });
    }
  });
  hand.addEventListener("focusin", (ev) => {
    const btn = ev.target.closest("button.card");
    if (btn) ui.focusCard = btn.dataset.card;
    if (btn && btn.classList.contains("locked") && btn.dataset.reason && ev.target.matches(":focus-visible")) {
      explain(btn, reasonText(btn.dataset.reason), { shake: false });
    }
  });
  hand.addEventListener("keydown", (ev) => {
    const buttons = [...hand.children];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = buttons.length - 1;
    if (j !== null) {
      ev.preventDefault();
      buttons[i].tabIndex = -1;
      buttons[j].tabIndex = 0;
      buttons[j].focus();
      ui.focusCard = buttons[j].dataset.card;
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      tryPlay(buttons[i]);
    } else if (ev.key === "Escape") {
      hideBubble();
    }
  });

  grid.addEventListener("click", (ev) => {
    const b = ev.target.closest(".bid-btn");
    if (!b || b.disabled) return;
    ui.pendingBid = Number(b.dataset.bid);
    ui.rerender();
    $("#bid-confirm").focus();
  });
  grid.addEventListener("keydown", (ev) => {
    const buttons = [...grid.children];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    const cols = getComputedStyle(grid).gridTemplateColumns.split(" ").length || 7;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols }[ev.key];
    if (step) {
      ev.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, i + step))].focus();
    }
  });
  $("#bid-confirm").addEventListener("click", () => {
    if (ui.pendingBid == null || ui.sending) return;
    const n = ui.pendingBid;
    ui.lastBid = n;
    const hadFocus = $(".bid-picker").contains(document.activeElement);
    bid(n);
    if (hadFocus) focusHand();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !bubble.hidden) hideBubble();
  });

  return { afterRender, focusHand, explain };
}
