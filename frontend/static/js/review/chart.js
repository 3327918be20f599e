// The review's chart (SVG built here, sized to its box), one y scale at a time (two scales side by side
// were misread on a phone): one slot per decision of the seat and one at the end of each deal.
// View "total", deals 1–4: the expected total at the end of the deal in play, i.e. the seat's total before
// the deal plus the review's value of the choice made (its expected score of the deal); the end of a deal
// is the actual total after it. View "win", deal 5: the review values a choice there by the chance of
// winning the match (win_chance), so the chart shows that chance; the end is the result (1, 1/k when k
// seats share the win, else 0). A marked decision also shows the value
// of the better choice, joined by a dashed line: its length is the loss. Forced decisions have no values.
// Drawing sets each decision's `_x`, where the cursor stands when the replay is at or after it.
import { _, fmt } from "../i18n.js";
import { markOf, p1, pct } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
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

/**
 * createChart(box, { replay, visible() }) -> { show(shown), redraw(), clear(), follow(pos), setView(v) }.
 * `setView("total" | "win")` chooses deals 1–4 in points or deal 5 as the chance of winning.
 * `shown`: { decisions, marked, seat } of the document on screen (null: none). It is drawn while
 * `visible()` (the panel is open), again when the box changes width.
 */
export function createChart(box, { replay, visible }) {
  let shown = null;
  let width = 0;       // the width drawn for (0: draw again)
  let cursor = null;
  let pos = 0;
  let view = "total";

  function draw() {
    if (!shown || !visible()) return;
    const W = Math.round(box.clientWidth);
    if (!W || W === width) return;
    width = W;
    const { decisions, marked, seat } = shown;
    const narrow = W < 520;
    const H = narrow ? 210 : 250;
    const M = { l: narrow ? 40 : 46, r: 10, t: 16, b: 24 };
    const dealOf = (n) => replay.deals.find((d) => d.number === n) || replay.deals[n - 1];

    // slots: each decision, then the end of its deal
    const lastDeal = Math.max(...replay.deals.map((d) => d.number));
    const groups = [];
    for (const d of decisions) d._x = null;
    for (const d of decisions) {
      if ((d.deal === lastDeal) !== (view === "win")) continue;
      if (!groups.length || groups[groups.length - 1].deal !== d.deal) groups.push({ deal: d.deal, list: [] });
      groups[groups.length - 1].list.push(d);
    }
    const nSlots = groups.reduce((n, g) => n + g.list.length + 1, 0) || 1;
    const slotW = (W - M.l - M.r) / nSlots;
    const X = (slot) => M.l + (slot + 0.5) * slotW;
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
    const ys = [0, ...pts.map((p) => p.v), ...pts.filter((p) => p.best != null).map((p) => p.best)];
    const lo = Math.min(...ys);
    const hi = Math.max(...ys);
    const pad = Math.max(0.5, (hi - lo) * 0.08); // room for a mark's sign under the lowest point
    const sc = view === "win" ? { lo: 0, hi: 1, ticks: [0, 0.25, 0.5, 0.75, 1] } : niceScale(lo - pad, hi + pad / 2, narrow ? 4 : 5);
    const top = M.t;
    const bottom = H - M.b - (view === "win" ? 12 : 0); // under 0%: room for a mark's sign
    const Y = (v) => bottom - ((v - sc.lo) / (sc.hi - sc.lo || 1)) * (bottom - top);
    const yOf = (p, v) => Y(v);
    const yLabel = (t) => (view === "win" ? pct(t) : p1(t).replace(/\.0$/, ""));

    const chart = svg("svg", {
      width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
      "aria-label": fmt(_("Chart of the expected total through the match, with %(n)s marked decisions"), { n: marked.length }),
    });
    chart.dataset.view = view;
    for (const t of sc.ticks) {
      svg("line", { x1: M.l, x2: W - M.r, y1: Y(t), y2: Y(t), class: t === 0 ? "c-zero" : "c-grid" }, chart);
      svg("text", { x: M.l - 5, y: Y(t) + 4, class: "c-ylab", "text-anchor": "end" }, chart).textContent = yLabel(t);
    }
    for (const b of bounds) {
      if (b.x0 > M.l + 1) svg("line", { x1: b.x0, x2: b.x0, y1: top, y2: bottom, class: "c-sep" }, chart);
      const next = bounds.find((o) => o.x0 > b.x0);
      const mid = (b.x0 + (next ? next.x0 : W - M.r)) / 2;
      svg("text", { x: mid, y: H - 7, class: "c-xlab", "text-anchor": "middle" }, chart).textContent =
        narrow ? String(b.deal) : fmt(_("Deal %(n)s"), { n: b.deal });
    }
    svg("line", { x1: M.l, x2: W - M.r, y1: bottom, y2: bottom, class: "c-axis" }, chart);
    if (pts.length >= 2) {
      const dpath = pts.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${yOf(p, p.v).toFixed(1)}`).join(" ");
      svg("path", { d: dpath, class: view === "win" ? "c-line c-line5" : "c-line" }, chart);
    }
    for (const p of pts) {
      if (p.end) {
        svg("rect", { x: p.x - 4, y: yOf(p, p.v) - 4, width: 8, height: 8, class: "c-end" }, chart);
      } else if (!markOf(p.d)) {
        svg("circle", { cx: p.x, cy: yOf(p, p.v), r: 2.5, class: "c-pt" }, chart);
      }
    }
    // Each mark's sign goes under its dot, else over it, else (decisions packed close on a narrow chart) is left
    // out: the dot keeps its colour and the list of decisions names it. Two signs never overlap.
    const signs = [];
    const signAt = (x, ys) => ys.find((y) => !signs.some((q) => Math.abs(q.x - x) < 16 && Math.abs(q.y - y) < 14));
    for (const p of pts.filter((q) => q.d && markOf(q.d))) {
      const g = svg("g", { class: `c-mark lab-${p.d.label}`, "data-i": p.d.index }, chart);
      const y = yOf(p, p.v);
      if (p.best != null) {
        const yb = yOf(p, p.best);
        svg("line", { x1: p.x, x2: p.x, y1: y, y2: yb, class: "c-loss" }, g);
        svg("circle", { cx: p.x, cy: yb, r: 3.5, class: "c-best" }, g);
      }
      svg("circle", { cx: p.x, cy: y, r: 5.5, class: "c-dot" }, g);
      const ys = signAt(p.x, [y + 17, y - 10]);
      if (ys != null) {
        signs.push({ x: p.x, y: ys });
        svg("text", { x: p.x, y: ys, class: "c-sym", "text-anchor": "middle" }, g).textContent = markOf(p.d);
      }
      svg("rect", { x: p.x - 8, y: Math.min(y, p.best != null ? yOf(p, p.best) : y) - 8, width: 16,
        height: Math.abs((p.best != null ? yOf(p, p.best) : y) - y) + 28, class: "c-hit" }, g);
    }
    cursor = svg("line", { x1: 0, x2: 0, y1: top, y2: bottom, class: "c-cursor", visibility: "hidden" }, chart);
    box.replaceChildren(chart);
    follow(pos);
  }

  // The cursor stands at the last decision at or before the replay's step `p`.
  function follow(p) {
    pos = p;
    if (!cursor || !shown) return;
    let cur = null;
    for (const d of shown.decisions) if (d._step <= pos && d._x != null) cur = d;
    if (!cur) {
      cursor.setAttribute("visibility", "hidden");
      return;
    }
    cursor.setAttribute("x1", cur._x);
    cursor.setAttribute("x2", cur._x);
    cursor.setAttribute("visibility", "visible");
  }

  if (typeof ResizeObserver === "function") new ResizeObserver(() => draw()).observe(box);

  return {
    show(s) {
      shown = s;
      width = 0;
      draw();
    },
    redraw() {
      width = 0;
      draw();
    },
    clear() {
      shown = null;
      box.replaceChildren();
      cursor = null;
      width = 0;
    },
    follow,
    setView(v) {
      view = v === "win" ? "win" : "total";
      width = 0;
      draw();
    },
  };
}
