// Cards: notation "QH" (rank 23456789TJQKA, suit SHDC), display, sorting and accessible names.
import { _, fmt } from "./i18n.js";

export const RANKS = "23456789TJQKA";
export const SUIT_ORDER = "SHCD"; // ♠ first, then alternate colours: ♥ ♣ ♦
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

export const rankOf = (c) => c[0];
export const suitOf = (c) => c[1];
export const rankLabel = (c) => (c[0] === "T" ? "10" : c[0]);
export const cardText = (c) => rankLabel(c) + SUIT_SYMBOL[suitOf(c)];

export function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const ds = SUIT_ORDER.indexOf(suitOf(a)) - SUIT_ORDER.indexOf(suitOf(b));
    return ds !== 0 ? ds : RANKS.indexOf(rankOf(b)) - RANKS.indexOf(rankOf(a));
  });
}

export function suitName(s) {
  return { S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs") }[s];
}

export function rankName(r) {
  return (
    { A: _("Ace"), K: _("King"), Q: _("Queen"), J: _("Jack"), T: "10" }[r] || r
  );
}

// The queen has her own "of" (context "queen"): Hindi and Nepali inflect it for a feminine card (ईंट की बेगम).
export function cardName(c) {
  const r = rankOf(c);
  const of = r === "Q" && typeof window.pgettext === "function"
    ? window.pgettext("queen", "%(rank)s of %(suit)s") : _("%(rank)s of %(suit)s");
  return fmt(of, { rank: rankName(r), suit: suitName(suitOf(c)) });
}

// Build the face of a card inside `el` (a button or div).
export function cardFace(el, c) {
  el.classList.add("card", "face", RED.has(suitOf(c)) ? "red" : "black");
  el.dataset.card = c;
  const sym = SUIT_SYMBOL[suitOf(c)];
  const r = rankLabel(c);
  el.innerHTML =
    `<span class="corner tl" aria-hidden="true"><b>${r}</b><i>${sym}</i></span>` +
    `<span class="pip" aria-hidden="true">${["J", "Q", "K"].includes(c[0]) ? `<em>${r}</em>` : sym}</span>` +
    `<span class="corner br" aria-hidden="true"><b>${r}</b><i>${sym}</i></span>`;
  return el;
}

export function makeCard(c, tag = "div") {
  const el = document.createElement(tag);
  cardFace(el, c);
  if (tag === "div") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(c));
  }
  return el;
}

export function makeBack() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// Scores are integer tenths: 42 -> "4.2", -40 -> "-4.0".
export function tenths(t, signed = false) {
  if (t === null || t === undefined) return "";
  const neg = t < 0;
  const a = Math.abs(t);
  const s = `${Math.floor(a / 10)}.${a % 10}`;
  return neg ? `−${s}` : signed && t > 0 ? `+${s}` : s;
}

export function reasonText(code) {
  const texts = {
    must_follow_suit: _("Must follow suit: you hold the suit that was led."),
    must_beat: _("Must beat: you hold a higher card of the suit led, so you must play one of those."),
    must_trump: _("Must trump: you are void in the suit led and hold a spade, which would win."),
    must_overtrump: _("Must over-trump: a spade is on the table and you hold a higher one."),
    no_spade_lead_first_trick: _("No spade lead on the first trick: lead a non-spade unless you hold only spades."),
    not_your_turn: _("Wait for your turn."),
    wrong_phase: _("Bidding first: cards are played after everyone has bid."),
  };
  return texts[code] || _("This card cannot be played now.");
}
