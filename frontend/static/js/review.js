// The strong bot's review of a finished match (callbreak-analysis/1) inside the replay viewer:
// GET /api/matches/<id>/analysis/?seat=N answers 202 with the progress while it is computed (pushed on
// /ws/me/ as {"type": "analysis"}, polled every few seconds too) and 200 with the document. Shown as
// marks on the replay's timeline (?! inaccuracy, ? mistake, ?? blunder), a list of every decision of the
// seat (best and good get a quiet check), the better choice on hover, focus or tap, a chart and the summary.
//
// The chart (drawn here as SVG, sized to its box): along the match, one slot per decision of the seat and
// one at the end of each deal. Deals 1–4, left scale: the expected total at the end of the deal in play,
// i.e. the seat's total before the deal plus the review's value of the choice made (its expected score of
// the deal); the end of a deal is the actual total after it. Deal 5, right scale: the review values a
// choice there by the chance of winning the match (win_chance), so the chart shows that chance; the end is
// the result (1, 1/k when k seats share the win, else 0). A marked decision also shows the value of the
// better choice, joined by a dashed line: its length is the loss. Forced decisions have no values.
import { api, ApiError, matchUrl } from "./api.js";
import { _, fmt } from "./i18n.js";
import { cardName, cardText, makeCard, RED, suitOf } from "./cards.js";
import { onUserMessage } from "./user_socket.js";

export const FORMAT = "callbreak-analysis/1";
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const LABELS = () => ({
  best: _("Best"), good: _("Good"), inaccuracy: _("Inaccuracy"), mistake: _("Mistake"), blunder: _("Blunder"),
});
const POLL_MS = 3000;
const SVG = "http://www.w3.org/2000/svg";

const p1 = (x) => (x < 0 ? "−" : "") + Math.abs(x).toFixed(1);
const signed = (x) => (x > 0 ? "+" : "") + p1(x);
const pct = (x) => `${Math.round(x * 100)}%`;

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

function h(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text != null) el.textContent = text;
  return el;
}

// Round numbers for an axis: [lo, hi] widened to multiples of a 1-2-5 step.
function niceScale(lo, hi, n) {
  const span = Math.max(hi - lo, 1);
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const a = Math.floor(lo / step) * step;
  const b = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let t = a; t <= b + step / 2; t += step) ticks.push(Math.round(t * 10) / 10);
  return { lo: a, hi: b, ticks };
}

export function createReview(app, { matchId, replay, actionSteps, name, viewerSeat, go, stepCount }) {
  const root = app.querySelector("#review");
  const $ = (s) => root.querySelector(s);
  const people = (replay.players || []).map((p, s) => (p && p.kind === "human" ? s : -1)).filter((s) => s >= 0);
  const none = { update() {} };
  if (!root || !people.length) return none;
  root.hidden = false;

  const body = $("#review-body");
  const toggle = $(".review-toggle");
  const statusEl = $(".review-status");
  const seatSel = $("#review-seat");
  const moves = $(".review-moves");
  const chartBox = $(".chart-box");
  const note = app.querySelector(".review-note");
  const marksEl = app.querySelector(".review-marks");
  const tip = app.querySelector("#review-tip");

  let seat = viewerSeat != null && people.includes(viewerSeat) ? viewerSeat : null;
  let analysis = null;        // the document shown
  let decisions = [];         // its decisions, each with _step (the replay step of the move)
  let byStep = new Map();     // replay step -> decision
  let marked = [];            // decisions labelled inaccuracy, mistake or blunder
  let pos = 0;
  let token = 0;
  let pollTimer = null;
  let cursor = null;
  let chartWidth = 0;
  const cache = new Map();

  // ---- words ------------------------------------------------------------------------------------
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
  function describe(d) {
    let s = `${where(d)}: ${fmt(_("played %(choice)s"), { choice: choiceName(d.kind, d.played) })}. ${verdict(d)}.`;
    if (hasBetter(d)) s += " " + fmt(_("Better: %(choice)s (+%(loss)s)"), { choice: choiceName(d.kind, d.best), loss: p1(d.loss) });
    return s;
  }
  const markOf = (d) => MARKS[d.label] || "";

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

  function playedChip(d) {
    const txt = choiceText(d.kind, d.played);
    const span = h("span", "played" + (d.kind === "card" && RED.has(suitOf(String(d.played))) ? " red" : ""), txt);
    return span;
  }

  // The box under the step label (a tap on a mark lands here) and the hover tip share this content.
  function detail(d, into) {
    into.replaceChildren();
    const head = h("div", "rv-head");
    head.append(h("span", "rv-where", where(d) + " · "));
    head.append(fmt(_("%(name)s played"), { name: name(d.seat) }) + " ", playedChip(d));
    into.append(head);
    const v = h("div", `rv-verdict lab-${d.forced ? "forced" : d.label}`);
    const mk = markOf(d) || (d.label === "best" || d.label === "good" ? "✓" : "");
    if (mk) v.append(h("span", "mk", mk), " ");
    v.append(verdict(d));
    into.append(v);
    if (hasBetter(d)) into.append(better(d));
    return into;
  }

  // ---- loading ----------------------------------------------------------------------------------
  function setStatus(text, state) {
    statusEl.textContent = text;
    root.dataset.state = state;
  }

  function progress(p) {
    let text;
    if (p.status === "failed") text = _("The review could not be finished.");
    else if (p.total > 0 && (p.status === "running" || p.done > 0)) text = fmt(_("Reviewing… %(done)s/%(total)s"), { done: p.done, total: p.total });
    else text = _("The review is waiting for its turn…");
    setStatus(text, p.status === "failed" ? "failed" : "pending");
    if (p.total > 0) root.style.setProperty("--review-done", String(Math.min(1, p.done / p.total)));
  }

  function schedule(ms) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(() => load(seat), ms);
  }

  async function load(s) {
    const my = ++token;
    clearTimeout(pollTimer);
    if (s != null && cache.has(s)) {
      show(cache.get(s));
      return;
    }
    let data;
    try {
      data = await api(`${matchUrl(matchId)}analysis/${s != null ? `?seat=${encodeURIComponent(s)}` : ""}`);
    } catch (e) {
      if (my !== token) return;
      if (!(e instanceof ApiError) || e.status === 429 || e.status >= 500) {
        setStatus(_("The review is not reachable just now; trying again…"), "pending");
        schedule(POLL_MS * 2);
      } else if (e.status === 409) {
        setStatus(_("The review is made once the match is over."), "error");
      } else {
        setStatus(_("There is no review of this match for you."), "error");
      }
      return;
    }
    if (my !== token) return;
    if (data && data.format === FORMAT) {
      cache.set(data.seat, data);
      show(data);
      return;
    }
    if (data && typeof data.seat === "number") seat = data.seat;
    if (seat != null) root.dataset.seat = String(seat);
    if (seatSel && seat != null) seatSel.value = String(seat);
    clearShown();
    progress(data || {});
    if (!data || data.status !== "failed") schedule(POLL_MS);
  }

  function clearShown() {
    analysis = null;
    decisions = [];
    byStep = new Map();
    marked = [];
    $(".review-summary").replaceChildren();
    moves.replaceChildren();
    chartBox.replaceChildren();
    marksEl.replaceChildren();
    marksEl.hidden = true;
    cursor = null;
    chartWidth = 0;
    update(pos);
  }

  // The server pushes the progress; polling carries on more slowly meanwhile, in case a message is lost.
  if (document.body.dataset.signedIn === "1") {
    onUserMessage((msg) => {
      if (!msg || msg.type !== "analysis" || String(msg.match_id) !== String(matchId)) return;
      if (msg.seat !== seat || cache.has(seat)) return;
      if (msg.status === "done") load(seat);
      else {
        progress(msg);
        if (msg.status !== "failed") schedule(POLL_MS * 2);
      }
    });
  }

  // ---- the document -----------------------------------------------------------------------------
  function show(doc) {
    analysis = doc;
    seat = doc.seat;
    root.dataset.seat = String(seat);
    if (seatSel) seatSel.value = String(seat);
    decisions = (doc.decisions || []).map((d) => ({ ...d, seat: doc.seat, _step: actionSteps[d.version] }))
      .filter((d) => d._step != null);
    byStep = new Map(decisions.map((d) => [d._step, d]));
    marked = decisions.filter((d) => markOf(d));
    const s = doc.summary || {};
    const acc = typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}%` : "–";
    setStatus(fmt(_("%(name)s: accuracy %(acc)s, %(loss)s points lost, %(marks)s marked"), {
      name: name(seat), acc, loss: p1((s.loss && s.loss.total) || 0), marks: marked.length,
    }), "done");
    root.dataset.marks = String(marked.length);
    renderSummary(s);
    renderMoves();
    renderMarks();
    chartWidth = 0;
    drawChart();
    update(pos);
  }

  function renderSummary(s) {
    const box = $(".review-summary");
    box.replaceChildren();
    const top = h("div", "rs-top");
    const acc = h("div", "rs-acc");
    acc.append(h("span", "rs-big", typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}%` : "–"), h("span", "", _("Accuracy")));
    acc.title = _("The share of the decisions with a real choice that were the best or good (losing under 0.5 points).");
    top.append(acc);
    const loss = s.loss || {};
    const dl = h("dl", "rs-loss");
    for (const [label, v] of [[_("Points lost"), loss.total], [_("by bids"), loss.bids], [_("by cards"), loss.cards]]) {
      const row = h("div");
      row.append(h("dt", "", label), h("dd", "", p1(v || 0)));
      dl.append(row);
    }
    top.append(dl);
    box.append(top);

    const labels = s.labels || {};
    const ul = h("ul", "rs-labels");
    const L = LABELS();
    for (const k of ["best", "good", "inaccuracy", "mistake", "blunder"]) {
      const li = h("li", `lab-${k}`);
      li.append(h("span", "mk", MARKS[k] || "✓"), " ", L[k], " ", h("b", "", String(labels[k] || 0)));
      ul.append(li);
    }
    const forced = h("li", "lab-forced");
    forced.append(_("Forced"), " ", h("b", "", String(s.forced || 0)));
    ul.append(forced);
    box.append(ul);

    const deals = s.deals || [];
    if (!deals.length) return;
    const wrap = h("div", "rs-deals-wrap");
    const table = h("table", "rs-deals");
    table.append(h("caption", "sr-only", _("The review deal by deal")));
    const head = h("tr");
    for (const t of [_("Deal"), _("Score"), _("Accuracy"), _("Lost by bids"), _("Lost by cards"), "?!", "?", "??"]) {
      const th = h("th", "", t);
      th.scope = "col";
      head.append(th);
    }
    const thead = h("thead");
    thead.append(head);
    const tbody = h("tbody");
    for (const d of deals) {
      const tr = h("tr");
      const th = h("th", "", String(d.deal));
      th.scope = "row";
      const lab = d.labels || {};
      tr.append(th, h("td", d.score < 0 ? "neg" : "pos", signed(d.score || 0)),
        h("td", "", typeof d.accuracy === "number" ? `${Math.round(d.accuracy)}%` : "–"),
        h("td", "", p1((d.loss && d.loss.bids) || 0)), h("td", "", p1((d.loss && d.loss.cards) || 0)),
        h("td", lab.inaccuracy ? "lab-inaccuracy" : "n", String(lab.inaccuracy || 0)),
        h("td", lab.mistake ? "lab-mistake" : "n", String(lab.mistake || 0)),
        h("td", lab.blunder ? "lab-blunder" : "n", String(lab.blunder || 0)));
      tbody.append(tr);
    }
    table.append(thead, tbody);
    wrap.append(table);
    box.append(wrap);
  }

  // Every decision of the seat, deal by deal: one tab stop, ← → move and the replay follows.
  function renderMoves() {
    moves.replaceChildren();
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
        const b = h("button", `move lab-${d.forced ? "forced" : d.label}`);
        b.type = "button";
        b.dataset.i = String(d.index);
        b.tabIndex = -1;
        b.setAttribute("aria-label", describe(d));
        b.setAttribute("aria-describedby", "review-keys");
        b.append(playedChip(d));
        const mk = markOf(d) || (d.label === "best" || d.label === "good" ? "✓" : "");
        if (mk) b.append(h("span", "mk", mk));
        li.append(b);
        ol.append(li);
      }
      sec.append(ol);
      moves.append(sec);
    }
    const first = moves.querySelector(".move");
    if (first) first.tabIndex = 0;
  }

  const decisionOf = (el) => {
    const i = el && el.closest("[data-i]");
    return i ? decisions.find((d) => String(d.index) === i.dataset.i) : null;
  };

  // Marks on the replay's timeline, over the range input (its thumb is about 16 px wide); marks too close
  // to each other go to a second (third…) row so that each can be pointed at.
  const MARK_GAP = 24;
  function renderMarks() {
    marksEl.replaceChildren();
    for (const d of marked) {
      const m = h("span", `tl-mark lab-${d.label}`, markOf(d));
      m.dataset.i = String(d.index);
      marksEl.append(m);
    }
    marksEl.hidden = !marked.length;
    marksEl.setAttribute("aria-hidden", "true"); // the list of decisions is the keyboard's way to them
    layoutMarks();
  }
  function layoutMarks() {
    const w = marksEl.clientWidth;
    if (!w) return;
    const last = Math.max(1, stepCount() - 1);
    const rowEnds = [];
    for (const m of marksEl.querySelectorAll(".tl-mark")) {
      const d = decisionOf(m);
      const x = 8 + (w - 16) * (d._step / last);
      let row = rowEnds.findIndex((end) => x - end >= MARK_GAP);
      if (row < 0) row = rowEnds.push(-Infinity) - 1;
      rowEnds[row] = x;
      m.style.left = `${x.toFixed(1)}px`;
      m.style.top = `${row * 22}px`;
    }
    marksEl.style.height = `${Math.max(1, rowEnds.length) * 22}px`;
  }

  // ---- the chart ---------------------------------------------------------------------------------
  function drawChart() {
    if (!analysis || body.hidden) return;
    const W = Math.round(chartBox.clientWidth);
    if (!W || W === chartWidth) return;
    chartWidth = W;
    const narrow = W < 520;
    const H = narrow ? 210 : 250;
    const M = { l: narrow ? 34 : 42, r: narrow ? 36 : 44, t: 16, b: 24 };
    const dealOf = (n) => replay.deals.find((d) => d.number === n) || replay.deals[n - 1];

    // slots: each decision, then the end of its deal
    const groups = [];
    for (const d of decisions) {
      if (!groups.length || groups[groups.length - 1].deal !== d.deal) groups.push({ deal: d.deal, list: [] });
      groups[groups.length - 1].list.push(d);
    }
    const nSlots = groups.reduce((n, g) => n + g.list.length + 1, 0) || 1;
    const slotW = (W - M.l - M.r) / nSlots;
    const X = (slot) => M.l + (slot + 0.5) * slotW;
    const lastDeal = Math.max(...replay.deals.map((d) => d.number));
    const winShare = (replay.winners || []).includes(seat) ? 1 / replay.winners.length : 0;

    let slot = 0;
    const pts = [];   // {x, v, d, best, win, end}
    const bounds = [];
    for (const g of groups) {
      const win = g.deal === lastDeal;
      const rd = dealOf(g.deal);
      const prev = dealOf(g.deal - 1);
      const base = prev ? prev.totals[seat] : 0;
      bounds.push({ deal: g.deal, x0: M.l + slot * slotW, win });
      for (const d of g.list) {
        const x = X(slot++);
        d._x = x;
        if (d.forced) continue;
        const val = (c) => {
          if (win) return d.win_chance && d.win_chance[String(c)] != null ? d.win_chance[String(c)] : null;
          return d.values && d.values[String(c)] != null ? base + d.values[String(c)] : null;
        };
        const v = val(d.played);
        if (v == null) continue;
        pts.push({ x, v, d, best: markOf(d) ? val(d.best) : null, win });
      }
      const endV = win ? winShare : rd ? rd.totals[seat] : null;
      const x = X(slot++);
      if (endV != null) pts.push({ x, v: endV, end: true, win, deal: g.deal });
    }
    const left = pts.filter((p) => !p.win);
    const ys = [0, ...left.map((p) => p.v), ...left.filter((p) => p.best != null).map((p) => p.best)];
    const lo = Math.min(...ys);
    const hi = Math.max(...ys);
    const pad = Math.max(0.5, (hi - lo) * 0.08); // room for a mark's sign under the lowest point
    const sc = niceScale(lo - pad, hi + pad / 2, narrow ? 4 : 5);
    const top = M.t;
    const bottom = H - M.b;
    const Y = (v) => bottom - ((v - sc.lo) / (sc.hi - sc.lo || 1)) * (bottom - top);
    const Y5 = (p) => bottom - p * (bottom - top);
    const yOf = (p, v) => (p.win ? Y5(v) : Y(v));

    const chart = svg("svg", {
      width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
      "aria-label": fmt(_("Chart of the expected total through the match, with %(n)s marked decisions"), { n: marked.length }),
    });
    const d5 = bounds.find((b) => b.win);
    if (d5) svg("rect", { x: d5.x0, y: top, width: W - M.r - d5.x0, height: bottom - top, class: "c-d5" }, chart);
    for (const t of sc.ticks) {
      const x1 = M.l;
      const x2 = d5 ? d5.x0 : W - M.r;
      svg("line", { x1, x2, y1: Y(t), y2: Y(t), class: t === 0 ? "c-zero" : "c-grid" }, chart);
      svg("text", { x: M.l - 5, y: Y(t) + 4, class: "c-ylab", "text-anchor": "end" }, chart).textContent = p1(t).replace(/\.0$/, "");
    }
    if (d5) {
      for (const p of [0, 0.5, 1]) {
        svg("line", { x1: d5.x0, x2: W - M.r, y1: Y5(p), y2: Y5(p), class: "c-grid c-grid5" }, chart);
        svg("text", { x: W - M.r + 5, y: Y5(p) + 4, class: "c-ylab c-ylab5", "text-anchor": "start" }, chart).textContent = pct(p);
      }
    }
    for (const b of bounds) {
      if (b.x0 > M.l + 1) svg("line", { x1: b.x0, x2: b.x0, y1: top, y2: bottom, class: "c-sep" }, chart);
      const next = bounds.find((o) => o.x0 > b.x0);
      const mid = (b.x0 + (next ? next.x0 : W - M.r)) / 2;
      svg("text", { x: mid, y: H - 7, class: "c-xlab", "text-anchor": "middle" }, chart).textContent =
        narrow ? String(b.deal) : fmt(_("Deal %(n)s"), { n: b.deal });
    }
    svg("line", { x1: M.l, x2: W - M.r, y1: bottom, y2: bottom, class: "c-axis" }, chart);
    for (const part of [left, pts.filter((p) => p.win)]) {
      if (part.length < 2) continue;
      const dpath = part.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${yOf(p, p.v).toFixed(1)}`).join(" ");
      svg("path", { d: dpath, class: part === left ? "c-line" : "c-line c-line5" }, chart);
    }
    for (const p of pts) {
      if (p.end) {
        svg("rect", { x: p.x - 4, y: yOf(p, p.v) - 4, width: 8, height: 8, class: "c-end" }, chart);
      } else if (!markOf(p.d)) {
        svg("circle", { cx: p.x, cy: yOf(p, p.v), r: 2.5, class: "c-pt" }, chart);
      }
    }
    for (const p of pts.filter((q) => q.d && markOf(q.d))) {
      const g = svg("g", { class: `c-mark lab-${p.d.label}`, "data-i": p.d.index }, chart);
      const y = yOf(p, p.v);
      if (p.best != null) {
        const yb = yOf(p, p.best);
        svg("line", { x1: p.x, x2: p.x, y1: y, y2: yb, class: "c-loss" }, g);
        svg("circle", { cx: p.x, cy: yb, r: 3.5, class: "c-best" }, g);
      }
      svg("circle", { cx: p.x, cy: y, r: 5.5, class: "c-dot" }, g);
      svg("text", { x: p.x, y: y + 17, class: "c-sym", "text-anchor": "middle" }, g).textContent = markOf(p.d);
      svg("rect", { x: p.x - 8, y: Math.min(y, p.best != null ? yOf(p, p.best) : y) - 8, width: 16,
        height: Math.abs((p.best != null ? yOf(p, p.best) : y) - y) + 28, class: "c-hit" }, g);
    }
    cursor = svg("line", { x1: 0, x2: 0, y1: top, y2: bottom, class: "c-cursor", visibility: "hidden" }, chart);
    chartBox.replaceChildren(chart);
    placeCursor();
  }

  function placeCursor() {
    if (!cursor) return;
    let cur = null;
    for (const d of decisions) if (d._step <= pos && d._x != null) cur = d;
    if (!cur) {
      cursor.setAttribute("visibility", "hidden");
      return;
    }
    cursor.setAttribute("x1", cur._x);
    cursor.setAttribute("x2", cur._x);
    cursor.setAttribute("visibility", "visible");
  }

  if (typeof ResizeObserver === "function") {
    new ResizeObserver(() => drawChart()).observe(chartBox);
    new ResizeObserver(() => layoutMarks()).observe(marksEl);
  }

  // ---- following the replay -----------------------------------------------------------------------
  function update(p) {
    pos = p;
    const d = byStep.get(pos);
    if (d) {
      detail(d, note);
      note.className = `review-note lab-${d.forced ? "forced" : d.label}`;
      note.hidden = false;
    } else {
      note.hidden = true;
      note.replaceChildren();
    }
    let latest = null;
    for (const x of decisions) if (x._step <= pos) latest = x;
    const focusInList = moves.contains(document.activeElement);
    for (const b of moves.querySelectorAll(".move")) {
      const here = d && b.dataset.i === String(d.index);
      if (here) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
      if (!focusInList) b.tabIndex = (latest ? b.dataset.i === String(latest.index) : b === moves.querySelector(".move")) ? 0 : -1;
    }
    for (const m of marksEl.querySelectorAll(".tl-mark")) m.classList.toggle("current", !!d && m.dataset.i === String(d.index));
    const prevBtn = $('[data-mark="prev"]');
    const nextBtn = $('[data-mark="next"]');
    prevBtn.disabled = !marked.some((x) => x._step < pos);
    nextBtn.disabled = !marked.some((x) => x._step > pos);
    placeCursor();
  }

  function jumpTo(d) {
    if (d) go(d._step);
  }

  // ---- tips on hover and focus ---------------------------------------------------------------------
  let tipFor = null;
  function showTip(el, d) {
    if (!d) return;
    tipFor = el;
    detail(d, tip);
    tip.hidden = false;
    const r = el.getBoundingClientRect();
    const tw = tip.offsetWidth;
    const th = tip.offsetHeight;
    let x = r.left + r.width / 2 - tw / 2;
    x = Math.max(6, Math.min(x, window.innerWidth - tw - 6));
    let y = r.top - th - 8;
    if (y < 6) y = r.bottom + 8;
    tip.style.left = `${Math.round(x)}px`;
    tip.style.top = `${Math.round(y)}px`;
  }
  function hideTip(el) {
    if (el && el !== tipFor) return;
    tipFor = null;
    tip.hidden = true;
  }
  const tipTargets = ".move, .tl-mark, .c-mark";
  app.addEventListener("pointerover", (ev) => {
    if (ev.pointerType === "touch") return;
    const el = ev.target.closest(tipTargets);
    if (el && el !== tipFor) showTip(el, decisionOf(el));
  });
  app.addEventListener("pointerout", (ev) => {
    const el = ev.target.closest(tipTargets);
    if (el && !(ev.relatedTarget && el.contains(ev.relatedTarget))) hideTip(el);
  });
  moves.addEventListener("focusin", (ev) => {
    const el = ev.target.closest(".move");
    if (el) showTip(el, decisionOf(el));
  });
  moves.addEventListener("focusout", (ev) => hideTip(ev.target.closest(".move")));
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !tip.hidden) hideTip(); });
  // the tip follows its element when the page scrolls (a focused decision scrolls into view)
  window.addEventListener("scroll", () => {
    if (tipFor && tipFor.isConnected) showTip(tipFor, decisionOf(tipFor));
    else hideTip();
  }, { passive: true });

  // a click (or tap) on a mark, a decision or a chart mark: the replay goes there and the box says why
  app.addEventListener("click", (ev) => {
    const el = ev.target.closest(tipTargets);
    if (!el) return;
    jumpTo(decisionOf(el));
    if (ev.pointerType === "touch" || !el.matches(".move")) hideTip();
  });

  moves.addEventListener("keydown", (ev) => {
    const all = [...moves.querySelectorAll(".move")];
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: all.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    const b = all[Math.max(0, Math.min(all.length - 1, to))];
    all.forEach((x) => { x.tabIndex = x === b ? 0 : -1; });
    b.focus();
    jumpTo(decisionOf(b));
  });

  $(".review-nav").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-mark]");
    if (!b) return;
    const d = b.dataset.mark === "next" ? marked.find((x) => x._step > pos) : [...marked].reverse().find((x) => x._step < pos);
    jumpTo(d);
  });

  // ---- the panel: open or closed (remembered), #review opens it ------------------------------------
  function setOpen(open, remember = true) {
    body.hidden = !open;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    toggle.textContent = open ? _("Hide") : _("Show");
    if (remember) {
      try { localStorage.setItem("cb-review-open", open ? "1" : "0"); } catch { /* private mode */ }
    }
    if (open) {
      chartWidth = 0;
      drawChart();
    }
  }
  toggle.addEventListener("click", () => setOpen(body.hidden));
  function fromHash() {
    if (location.hash !== "#review") return;
    setOpen(true, false);
    root.scrollIntoView({ block: "start" });
    $("#review-title").focus({ preventScroll: true });
  }
  let remembered = null;
  try { remembered = localStorage.getItem("cb-review-open"); } catch { /* private mode */ }
  setOpen(remembered === "1", false);
  window.addEventListener("hashchange", fromHash);
  fromHash();

  // several people at the match: any of them may be reviewed
  if (people.length > 1 && seatSel) {
    seatSel.replaceChildren(...people.map((s) => {
      const o = h("option", "", name(s));
      o.value = String(s);
      return o;
    }));
    if (seat != null) seatSel.value = String(seat);
    seatSel.closest(".review-seat").hidden = false;
    seatSel.addEventListener("change", () => {
      seat = Number(seatSel.value);
      clearShown();
      setStatus(_("Loading the review…"), "pending");
      load(seat);
    });
  }

  setStatus(_("Loading the review…"), "pending");
  load(seat);
  return { update };
}
