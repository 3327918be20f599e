// Drawing one step of the replay: the four seats (plate, every hand face up, whose turn it is), the trick
// in the middle (the card just played comes in from its seat), the deal and trick numbers, and the step's
// words ("Trick 3: Hari plays the queen of spades").
import { _, fmt } from "../i18n.js";
import { cardName, cardText, makeCard, sortHand } from "../cards.js";
import { levelName } from "../players.js";
import { fmt1 } from "./scores.js";
import { stateAt, turnAfter } from "./steps.js";

/** createBoard(app, state, { name(seat), posOf(seat) }) -> { render() }: draws step `state.pos`. */
export function createBoard(app, state, { name, posOf }) {
  const $ = (s) => app.querySelector(s);

  function renderSeats(S, turn) {
    const { doc } = state;
    for (let s = 0; s < 4; s++) {
      const el = app.querySelector(`.rseat[data-pos="${posOf(s)}"]`);
      el.classList.toggle("turn", turn === s);
      const p = doc.players[s] || {};
      const plate = el.querySelector(".plate");
      const dealer = S.deal.dealer === s;
      plate.innerHTML = `<div class="plate-top">${dealer ? `<span class="dealer-chip" title="${_("Dealer")}">${_("D")}</span>` : ""}` +
        `<span class="pname"></span>${p.kind === "bot" ? `<span class="badge bot">${_("Bot")}${p.bot ? " · " + levelName(p.bot) : ""}</span>` : ""}</div>` +
        `<div class="plate-stats"><span class="tricks ${S.bids[s] != null && S.won[s] >= S.bids[s] ? "made" : ""}"><b>${S.won[s]}</b>/<b>${S.bids[s] ?? "–"}</b></span>` +
        `<span class="total">Σ ${fmt1(S.totals[s])}</span></div>`;
      plate.querySelector(".pname").textContent = name(s);
      el.setAttribute("aria-label", `${name(s)}: ${S.hands[s].map(cardName).join(", ")}`);
      const hand = el.querySelector(".rhand");
      hand.innerHTML = "";
      for (const c of sortHand(S.hands[s])) hand.appendChild(makeCard(c));
    }
  }

  function renderTrick(S) {
    const { st } = S;
    const justPlayed = st.kind === "play" ? st.card : null;
    const slots = app.querySelectorAll(".trick .slot");
    slots.forEach((sl) => { sl.innerHTML = ""; });
    const tr = S.trick;
    if (tr && st.kind === "play") {
      for (const p of tr.plays) {
        const c = makeCard(p.card);
        if (p.card === justPlayed) c.classList.add("enter", `from-${posOf(p.seat)}`);
        if (tr.winner === p.seat) c.classList.add("win");
        slots[posOf(p.seat)].appendChild(c);
      }
    }
    $(".trick-note").textContent = wonBy({ st, tr });
  }

  // Who took the trick this card completed ("" otherwise): on the board beside the trick, and in the step's line
  // (on a phone the board has no room under the trick for it, so only the line says it).
  function wonBy({ st, tr }) {
    return tr && tr.winner != null && st.kind === "play" ? fmt(_("%(name)s wins the trick"), { name: name(tr.winner) }) : "";
  }

  function stepLabel({ st, deal }) {
    if (st.kind === "start") return fmt(_("Deal %(n)s: cards dealt, %(name)s deals"), { n: deal.number, name: name(deal.dealer) });
    if (st.kind === "bid") return fmt(_("%(name)s bids %(bid)s"), { name: name(st.seat), bid: st.bid });
    if (st.kind === "play") return fmt(_("Trick %(t)s: %(name)s plays %(card)s"), { t: st.t + 1, name: name(st.seat), card: cardText(st.card) });
    return fmt(_("Deal %(n)s scored: %(scores)s"), { n: deal.number, scores: deal.scores.map((x, s) => `${name(s)} ${fmt1(x)}`).join(", ") });
  }

  function render() {
    const { doc, steps, pos } = state;
    const S = stateAt(doc, steps, pos);
    const { st, deal } = S;
    renderSeats(S, turnAfter(steps, pos));
    renderTrick(S);
    $(".deal-no").textContent = fmt(_("Deal %(n)s of 5"), { n: deal.number });
    $(".trick-no").textContent = st.kind === "play" ? fmt(_("Trick %(n)s of 13"), { n: st.t + 1 }) : "";
    const won = wonBy({ st, tr: S.trick });
    $(".replay-step-label").textContent = `${pos + 1}/${steps.length} · ${stepLabel(S)}${won ? ` · ${won}` : ""}`;
  }

  return { render };
}
