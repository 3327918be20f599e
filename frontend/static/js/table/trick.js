// The trick in the middle: the cards played so far (or the last trick, when asked for), each new card
// flying in from its player's plate or from my hand, the winning card's glow, and the sweep of a finished
// trick to its winner's seat.
import { _, fmt } from "../i18n.js";
import { cardName, makeCard } from "../cards.js";
import { pace, reduceMotion } from "./pacer.js";

export function createTrick(app, ui, { posOf, seatEl, nameOf }) {
  const $ = (sel) => app.querySelector(sel);

  function trickToShow(f) {
    if (ui.showLast && f.last_trick) return { trick: f.last_trick, done: true, review: true };
    if (f.hold) return { trick: f.hold, done: true };
    if (f.phase === "finished" && f.last_trick) return { trick: f.last_trick, done: true };
    return { trick: f.trick, done: false };
  }

  // Where a card flies in from: the player's plate, or my card's place in the hand.
  function flyIn(el, f, seat, from) {
    if (reduceMotion()) return;
    const to = el.getBoundingClientRect();
    let src = from;
    if (!src) {
      const plate = seatEl(posOf(f, seat)).querySelector(".plate");
      src = plate.getBoundingClientRect();
    }
    const dx = src.left + src.width / 2 - (to.left + to.width / 2);
    const dy = src.top + src.height / 2 - (to.top + to.height / 2);
    el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${from ? 1 : 0.55})`, opacity: from ? 1 : 0.2 },
        { transform: "none", opacity: 1 }],
      { duration: 300 * pace(), easing: "cubic-bezier(.2,.8,.3,1)" },
    );
  }

  function render(f, info) {
    const { trick, done, review } = trickToShow(f);
    const plays = (trick && trick.plays) || [];
    const slots = app.querySelectorAll(".trick .slot");
    const wanted = new Map(plays.map((p) => [posOf(f, p.seat), p]));
    slots.forEach((slot, pos) => {
      const p = wanted.get(pos);
      const cur = slot.firstElementChild;
      if (!p) {
        slot.replaceChildren();
        return;
      }
      if (!cur || cur.dataset.card !== p.card) {
        const el = makeCard(p.card);
        el.setAttribute("aria-label", `${nameOf(f, p.seat)}: ${cardName(p.card)}`);
        slot.replaceChildren(el);
        const fresh = info && info.event && info.event.t === "play" && info.event.card === p.card;
        if (fresh) flyIn(el, f, p.seat, ui.flyFrom.get(p.card));
      }
      const el = slot.firstElementChild;
      el.classList.toggle("win", !!(done && trick.winner === p.seat));
      el.classList.toggle("led", trick.leader === p.seat);
    });
    ui.flyFrom.clear();
    const note = $(".trick-note");
    // who wins a trick is said once, on the status line (the winning card glows); the note is for the last trick
    note.textContent = review ? fmt(_("Last trick: won by %(name)s"), { name: nameOf(f, trick.winner) }) : "";
    $(".trick").classList.toggle("reviewing", !!review);
    app.dataset.trickCards = String(plays.length);
  }

  /** Sweep the finished trick to its winner's seat; returns how long that takes (ms). */
  function collect(f) {
    if (!f.hold || reduceMotion() || ui.showLast) return 0;
    const plate = seatEl(posOf(f, f.hold.winner)).querySelector(".plate").getBoundingClientRect();
    for (const el of app.querySelectorAll(".trick .slot .card")) {
      const r = el.getBoundingClientRect();
      const dx = plate.left + plate.width / 2 - (r.left + r.width / 2);
      const dy = plate.top + plate.height / 2 - (r.top + r.height / 2);
      el.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }],
        { duration: 260 * pace(), easing: "ease-in", fill: "forwards" });
    }
    return 260 * pace();
  }

  return { render, collect };
}
