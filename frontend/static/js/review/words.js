// The review's words and small pieces of DOM: what a decision was, its verdict, the better choice.
import { _, fmt } from "../i18n.js";
import { cardName, cardText, makeCard, RED, suitOf } from "../cards.js";

export const FORMAT = "callbreak-analysis/1";
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
export const LABELS = () => ({
  best: _("Best"), good: _("Good"), inaccuracy: _("Inaccuracy"), mistake: _("Mistake"), blunder: _("Blunder"),
});

export const p1 = (x) => (x < 0 ? "−" : "") + Math.abs(x).toFixed(1);
export const signed = (x) => (x > 0 ? "+" : "") + p1(x);
export const pct = (x) => `${Math.round(x * 100)}%`;

export function h(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text != null) el.textContent = text;
  return el;
}

export const markOf = (d) => MARKS[d.label] || "";
// the sign a decision shows: its mark, or a quiet check for the best and good ones
export const signOf = (d) => markOf(d) || (d.label === "best" || d.label === "good" ? "✓" : "");
export const labelClass = (d) => `lab-${d.forced ? "forced" : d.label}`;

const choiceText = (kind, c) => (kind === "bid" ? fmt(_("bid %(n)s"), { n: c }) : cardText(String(c)));
const choiceName = (kind, c) => (kind === "bid" ? fmt(_("bid %(n)s"), { n: c }) : cardName(String(c)));
const where = (d) => (d.kind === "bid"
  ? fmt(_("Deal %(d)s, bidding"), { d: d.deal })
  : fmt(_("Deal %(d)s, trick %(t)s"), { d: d.deal, t: d.trick }));
const hasBetter = (d) => !d.forced && d.loss > 0 && String(d.best) !== String(d.played);

function verdict(d) {
  if (d.forced) return _("Forced: no real choice");
  const label = LABELS()[d.label] || "";
  return d.loss > 0 ? fmt(_("%(label)s, %(loss)s points lost"), { label, loss: p1(d.loss) }) : label;
}

/** One sentence for a screen reader: where, what was played, the verdict and the better choice. */
export function describe(d) {
  let s = `${where(d)}: ${fmt(_("played %(choice)s"), { choice: choiceName(d.kind, d.played) })}. ${verdict(d)}.`;
  if (hasBetter(d)) s += " " + fmt(_("Better: %(choice)s (+%(loss)s)"), { choice: choiceName(d.kind, d.best), loss: p1(d.loss) });
  return s;
}

// "Better: [card] (+1.3)", the card drawn like the replay's cards.
function better(d) {
  const line = h("span", "better");
  const [before, after] = fmt(_("Better: %(choice)s (+%(loss)s)"), { choice: "\u0001", loss: p1(d.loss) }).split("\u0001");
  line.append(before);
  if (d.kind === "bid") {
    line.append(h("b", "better-bid", choiceText("bid", d.best)));
  } else {
    const mini = h("span", "mini-card");
    mini.appendChild(makeCard(String(d.best)));
    line.append(mini);
    const same = (d.equivalent && d.equivalent[d.best]) || [];
    if (same.length) line.append(h("span", "muted", " " + fmt(_("(or %(cards)s)"), { cards: same.map(cardText).join(" ") })));
  }
  line.append(after || "");
  return line;
}

export function playedChip(d) {
  const txt = choiceText(d.kind, d.played);
  return h("span", "played" + (d.kind === "card" && RED.has(suitOf(String(d.played))) ? " red" : ""), txt);
}

/** The box under the step label (a tap on a mark lands there) and the hover tip share this content. */
export function detail(d, into, name) {
  into.replaceChildren();
  const head = h("div", "rv-head");
  head.append(h("span", "rv-where", where(d) + " · "));
  head.append(fmt(_("%(name)s played"), { name: name(d.seat) }) + " ", playedChip(d));
  into.append(head);
  const v = h("div", `rv-verdict ${labelClass(d)}`);
  const mk = signOf(d);
  if (mk) v.append(h("span", "mk", mk), " ");
  v.append(verdict(d));
  into.append(v);
  if (hasBetter(d)) into.append(better(d));
  return into;
}
