// Replay viewer for callbreak-replay/1: all hands face up, step through every bid and card, and verify
// the seed. The strong bot's review (review.js and review/) follows the step shown: `render` calls its
// `update(step)`, and it moves the replay through `go(step)`; `actionSteps[version]` is the step of the
// match log's action number `version` (a decision's place in the replay).
import { api, matchUrl } from "./api.js";
import { _, fmt } from "./i18n.js";
import { cardName, cardText, makeCard, sortHand } from "./cards.js";
import { levelName, playerName } from "./players.js";
import { dealHands, firstDealer, hasWebCrypto, hex, sha256 } from "./sha256.js";
import { createReview } from "./review.js";

const app = document.getElementById("replay-app");
const matchId = app.dataset.matchId;
const $ = (s) => app.querySelector(s);

let doc = null;
let steps = [];   // {d, kind: "start"|"bid"|"play"|"end", seat, bid, card, t, i}
let actionSteps = []; // the step of each action of the match log: actionSteps[version]
let review = null;    // the review panel: { update(step) }
let pos = 0;
let timer = null;
const BOTTOM = 0; // seat shown at the bottom: the viewer's own seat when known

let bottomSeat = BOTTOM;
const posOf = (seat) => (seat - bottomSeat + 4) % 4;
const name = (s) => (doc.players[s] && playerName(doc.players[s])) || fmt(_("Seat %(n)s"), { n: s + 1 });
const fmt1 = (x) => (x < 0 ? "−" : "") + Math.abs(x).toFixed(1);

function buildSteps() {
  steps = [];
  doc.deals.forEach((deal, d) => {
    steps.push({ d, kind: "start" });
    for (const b of deal.bids) steps.push({ d, kind: "bid", seat: b.seat, bid: b.bid });
    deal.tricks.forEach((tr, t) => {
      tr.plays.forEach((p, i) => steps.push({ d, kind: "play", seat: p.seat, card: p.card, t, i }));
    });
    steps.push({ d, kind: "end" });
  });
  actionSteps = steps.flatMap((s, k) => (s.kind === "bid" || s.kind === "play" ? [k] : []));
}

// The table after step k.
function stateAt(k) {
  const st = steps[k];
  const deal = doc.deals[st.d];
  const hands = deal.hands.map((h) => [...h]);
  const bids = [null, null, null, null];
  const won = [0, 0, 0, 0];
  let trick = null;
  let lastDone = null;
  let j0 = k;
  while (j0 > 0 && steps[j0 - 1].d === st.d) j0--;
  for (let j = j0; j <= k; j++) {
    const s = steps[j];
    if (s.kind === "bid") bids[s.seat] = s.bid;
    if (s.kind === "play") {
      const h = hands[s.seat];
      h.splice(h.indexOf(s.card), 1);
      const tr = deal.tricks[s.t];
      trick = { leader: tr.leader, plays: tr.plays.slice(0, s.i + 1), winner: s.i === 3 ? tr.winner : null, t: s.t };
      if (s.i === 3) {
        won[tr.winner] += 1;
        lastDone = s.t;
      }
    }
  }
  const prevTotals = st.d > 0 ? doc.deals[st.d - 1].totals : [0, 0, 0, 0];
  return { st, deal, hands, bids, won, trick, lastDone, totals: st.kind === "end" ? deal.totals : prevTotals };
}

function turnAfter(k) {
  const next = steps[k + 1];
  return next && (next.kind === "bid" || next.kind === "play") && next.d === steps[k].d ? next.seat : null;
}

function render() {
  const S = stateAt(pos);
  const { st, deal } = S;
  const justPlayed = st.kind === "play" ? st.card : null;
  const turn = turnAfter(pos);
  for (let s = 0; s < 4; s++) {
    const el = app.querySelector(`.rseat[data-pos="${posOf(s)}"]`);
    el.classList.toggle("turn", turn === s);
    const p = doc.players[s] || {};
    const plate = el.querySelector(".plate");
    const dealer = deal.dealer === s;
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
  // trick in the middle
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
  $(".trick-note").textContent = tr && tr.winner != null && st.kind === "play"
    ? fmt(_("%(name)s wins the trick"), { name: name(tr.winner) }) : "";
  $(".deal-no").textContent = fmt(_("Deal %(n)s of 5"), { n: deal.number });
  $(".trick-no").textContent = st.kind === "play" ? fmt(_("Trick %(n)s of 13"), { n: st.t + 1 }) : "";
  // label
  let label;
  if (st.kind === "start") label = fmt(_("Deal %(n)s: cards dealt, %(name)s deals"), { n: deal.number, name: name(deal.dealer) });
  else if (st.kind === "bid") label = fmt(_("%(name)s bids %(bid)s"), { name: name(st.seat), bid: st.bid });
  else if (st.kind === "play") label = fmt(_("Trick %(t)s: %(name)s plays %(card)s"), { t: st.t + 1, name: name(st.seat), card: cardText(st.card) });
  else label = fmt(_("Deal %(n)s scored: %(scores)s"), { n: deal.number, scores: deal.scores.map((x, s) => `${name(s)} ${fmt1(x)}`).join(", ") });
  $(".replay-step-label").textContent = `${pos + 1}/${steps.length} · ${label}`;
  $("#progress").value = pos;
  $("#jump-deal").value = String(st.d + 1);
  fillTricks(st.d);
  $("#jump-trick").value = st.kind === "play" ? String(st.t + 1) : "";
  app.querySelector('[data-act="back"]').disabled = pos === 0;
  app.querySelector('[data-act="start"]').disabled = pos === 0;
  app.querySelector('[data-act="fwd"]').disabled = pos >= steps.length - 1;
  app.querySelector('[data-act="end"]').disabled = pos >= steps.length - 1;
  app.dataset.pos = String(pos);
  if (review) review.update(pos);
}

let tricksFor = -1;
function fillTricks(d) {
  if (tricksFor === d) return;
  tricksFor = d;
  const sel = $("#jump-trick");
  sel.innerHTML = `<option value="">${_("bidding")}</option>` +
    Array.from({ length: 13 }, (_x, t) => `<option value="${t + 1}">${t + 1}</option>`).join("");
}

function go(k) {
  pos = Math.max(0, Math.min(steps.length - 1, k));
  render();
}

function stop() {
  clearInterval(timer);
  timer = null;
  const b = app.querySelector('[data-act="play"]');
  b.textContent = "▶ " + _("Play");
  b.setAttribute("aria-label", _("Play"));
}

function play() {
  if (timer) return stop();
  if (pos >= steps.length - 1) go(0);
  const b = app.querySelector('[data-act="play"]');
  b.textContent = "⏸ " + _("Pause");
  b.setAttribute("aria-label", _("Pause"));
  const tick = () => {
    if (pos >= steps.length - 1) return stop();
    go(pos + 1);
  };
  timer = setInterval(tick, Number($("#speed").value));
}

function renderScores() {
  const seats = [0, 1, 2, 3];
  let rows = "";
  for (const d of doc.deals) {
    rows += `<tr><th scope="row">${d.number}</th>` + seats.map((s) =>
      `<td class="${d.scores[s] < 0 ? "neg" : "pos"}"><span class="bw">${d.tricks_won[s]}/${d.bids.find((b) => b.seat === s)?.bid}</span>` +
      `<span class="sc">${d.scores[s] > 0 ? "+" : ""}${fmt1(d.scores[s])}</span></td>`).join("") + "</tr>";
  }
  const tot = seats.map((s) => `<td class="${doc.winners.includes(s) ? "win" : ""}">${fmt1(doc.final_totals[s])}${doc.winners.includes(s) ? " ★" : ""}</td>`).join("");
  $(".score-sheet").innerHTML = `<table><thead><tr><th>${_("Deal")}</th>${seats.map(() => "<th><span></span></th>").join("")}</tr></thead>` +
    `<tbody>${rows}</tbody><tfoot><tr><th>${_("Total")}</th>${tot}</tr></tfoot></table>`;
  $(".score-sheet").querySelectorAll("thead th span").forEach((sp, i) => { sp.textContent = name(i); });
}

async function verify() {
  const out = $(".verify-result");
  out.innerHTML = "";
  const line = (ok, text) => {
    const li = document.createElement("li");
    li.className = ok ? "verify-ok" : "verify-bad";
    li.textContent = (ok ? "✔ " : "✘ ") + text;
    out.appendChild(li);
    return ok;
  };
  if (!hasWebCrypto()) line(true, _("Web Crypto is not available here; using the built-in SHA-256."));
  const digest = hex(await sha256(doc.seed));
  const ok = line(digest === String(doc.seed_commitment).toLowerCase(),
    digest === String(doc.seed_commitment).toLowerCase()
      ? _("The seed matches the commitment.")
      : fmt(_("The seed does NOT match the commitment (SHA-256 is %(d)s)."), { d: digest }));
  out.dataset.ok = ok ? "1" : "0";
  let allDeals = true;
  const fd = await firstDealer(doc.seed);
  allDeals = line(fd === doc.first_dealer && fd === doc.deals[0].dealer,
    fd === doc.first_dealer ? _("The first dealer comes from the seed.") : _("The first dealer does not come from the seed.")) && allDeals;
  for (const deal of doc.deals) {
    const hands = await dealHands(doc.seed, deal.number, deal.dealer);
    const same = hands.every((h, s) => h.join(" ") === deal.hands[s].join(" "));
    allDeals = line(same, same
      ? fmt(_("Deal %(n)s: every hand comes from the seed."), { n: deal.number })
      : fmt(_("Deal %(n)s: the hands do NOT come from the seed."), { n: deal.number })) && allDeals;
  }
  out.dataset.deals = allDeals ? "1" : "0";
}

async function load() {
  try {
    doc = await api(`${matchUrl(matchId)}replay/`);
  } catch (e) {
    const err = $(".replay-error");
    err.hidden = false;
    err.textContent = e.message || _("This replay is not available.");
    return;
  }
  const me = (doc.players || []).findIndex((p) => p.kind === "human" && p.name === document.querySelector(".username")?.textContent);
  if (me >= 0) bottomSeat = me;
  buildSteps();
  $("#progress").max = String(steps.length - 1);
  $("#jump-deal").innerHTML = doc.deals.map((d, i) => `<option value="${i + 1}">${d.number}</option>`).join("");
  for (const el of app.querySelectorAll(".seed")) el.textContent = doc.seed;
  for (const el of app.querySelectorAll(".commitment")) el.textContent = doc.seed_commitment;
  const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
  const a = $("#download");
  a.href = URL.createObjectURL(blob);
  a.download = `callbreak-match-${doc.match_id || matchId}.json`;
  renderScores();
  go(0);
  app.dataset.ready = "1";
  review = createReview(app, {
    matchId, replay: doc, actionSteps, name, viewerSeat: me >= 0 ? me : null,
    go: (k) => { stop(); go(k); },
    stepCount: () => steps.length,
  });
  review.update(pos);
}

app.querySelector(".replay-controls").addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-act]");
  if (!b || !doc) return;
  const act = b.dataset.act;
  if (act !== "play") stop();
  if (act === "start") go(0);
  else if (act === "back") go(pos - 1);
  else if (act === "fwd") go(pos + 1);
  else if (act === "end") go(steps.length - 1);
  else if (act === "play") play();
});
$("#speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
$("#progress").addEventListener("input", (ev) => { stop(); go(Number(ev.target.value)); });
$("#jump-deal").addEventListener("change", (ev) => {
  stop();
  go(steps.findIndex((s) => s.d === Number(ev.target.value) - 1));
});
$("#jump-trick").addEventListener("change", (ev) => {
  stop();
  const d = steps[pos].d;
  const v = ev.target.value;
  const k = v === "" ? steps.findIndex((s) => s.d === d) : steps.findIndex((s) => s.d === d && s.kind === "play" && s.t === Number(v) - 1);
  if (k >= 0) go(k);
});
$("#verify-btn").addEventListener("click", () => { if (doc) verify(); });
document.addEventListener("keydown", (ev) => {
  if (!doc || ev.target.closest("select, input, .review-moves")) return;
  if (ev.key === "ArrowRight") { stop(); go(pos + 1); }
  else if (ev.key === "ArrowLeft") { stop(); go(pos - 1); }
  else if (ev.key === "Home") { stop(); go(0); }
  else if (ev.key === "End") { stop(); go(steps.length - 1); }
  else if (ev.key === " " && !ev.target.closest("button, a")) { ev.preventDefault(); play(); }
});

load();
