// The strong bot's review of a finished match (callbreak-analysis/1) inside the replay viewer: marks on
// the replay's timeline, a list of every decision of the seat, a chart and the summary; pointing at a
// decision shows the better choice and moves the replay there. This module holds the panel (open or
// closed, the seat reviewed) and keeps the parts in step with the replay; the jobs live in review/:
//   loading.js  the document or its progress (202, /ws/me/, polling)   words.js    what a decision was
//   marks.js    marks on the replay's timeline                        moves.js    the list of decisions
//   chart.js    the chart of the expected total                       summary.js  accuracy and losses
//   tips.js     hover, focus and tap on a decision
import { _, fmt } from "./i18n.js";
import { createChart } from "./review/chart.js";
import { createLoader } from "./review/loading.js";
import { createMarks } from "./review/marks.js";
import { createMoves } from "./review/moves.js";
import { renderSummary } from "./review/summary.js";
import { createTips } from "./review/tips.js";
import { detail, labelClass, markOf, p1 } from "./review/words.js";

/**
 * createReview(app, { matchId, replay, actionSteps, name, viewerSeat, go, stepCount }) -> { update(pos) }.
 * A decision's `version` (actions before it) is its place in the replay: `actionSteps[version]` is the
 * replay step of the move; `go(step)` moves the replay, which calls `update(step)` back.
 */
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
  const summaryEl = $(".review-summary");
  const note = app.querySelector(".review-note");

  let decisions = [];         // the document's decisions, each with _step (the replay step of the move)
  let byStep = new Map();     // replay step -> decision
  let marked = [];            // decisions labelled inaccuracy, mistake or blunder
  let pos = 0;

  const decisionOf = (el) => {
    const i = el && el.closest("[data-i]");
    return i ? decisions.find((d) => String(d.index) === i.dataset.i) : null;
  };
  // The board and the box saying why stand together (on a phone: CSS for .reviewing): choosing a decision
  // brings the board to the top of the screen, the box under it or beside it, on a phone always and on a
  // larger screen whenever the board is not wholly in view (a decision chosen far down the list).
  const phone = window.matchMedia("(max-width: 640px), (max-height: 500px)");
  const board = app.querySelector(".replay-table");
  const jump = (d) => {
    if (!d) return;
    go(d._step);
    if (!board) return;
    const r = board.getBoundingClientRect();
    if (phone.matches || r.top < 0 || r.bottom > window.innerHeight) board.scrollIntoView({ block: "start" });
  };
  const setReviewing = () => app.classList.toggle("reviewing", !body.hidden && decisions.length > 0);

  const movesEl = $(".review-moves");
  const moves = createMoves(movesEl, { decisionOf, jump });
  const marks = createMarks(app.querySelector(".review-marks"), { decisionOf, stepCount });
  const chart = createChart($(".chart-box"), { replay, visible: () => !body.hidden });
  createTips(app, { tip: app.querySelector("#review-tip"), moves: movesEl, decisionOf, name, jump });

  // ---- the document or its progress ----------------------------------------------------------------
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

  function showSeat(seat) {
    if (seat == null) return;
    root.dataset.seat = String(seat);
    if (seatSel) seatSel.value = String(seat);
  }

  function show(doc) {
    showSeat(doc.seat);
    decisions = (doc.decisions || []).map((d) => ({ ...d, seat: doc.seat, _step: actionSteps[d.version] }))
      .filter((d) => d._step != null);
    byStep = new Map(decisions.map((d) => [d._step, d]));
    marked = decisions.filter((d) => markOf(d));
    const s = doc.summary || {};
    const acc = typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}%` : "–";
    setStatus(fmt(_("%(name)s: accuracy %(acc)s, %(loss)s points lost, %(marks)s marked"), {
      name: name(doc.seat), acc, loss: p1((s.loss && s.loss.total) || 0), marks: marked.length,
    }), "done");
    root.dataset.marks = String(marked.length);
    renderSummary(summaryEl, s);
    moves.render(decisions);
    marks.render(marked);
    chart.show({ decisions, marked, seat: doc.seat });
    setReviewing();
    update(pos);
  }

  function clearShown() {
    decisions = [];
    byStep = new Map();
    marked = [];
    summaryEl.replaceChildren();
    moves.clear();
    chart.clear();
    marks.clear();
    setReviewing();
    update(pos);
  }

  const seatAsked = viewerSeat != null && people.includes(viewerSeat) ? viewerSeat : null;
  const loader = createLoader(matchId, seatAsked, {
    show,
    pending(p) {
      showSeat(loader.seat);
      clearShown();
      progress(p);
    },
    progress,
    status: setStatus,
  });

  // ---- following the replay: the box under the step label, the list, the marks, the chart's cursor ----
  function update(p) {
    pos = p;
    const d = byStep.get(pos);
    if (d) {
      detail(d, note, name);
      note.className = `review-note ${labelClass(d)}`;
      note.hidden = false;
    } else {
      note.hidden = true;
      note.replaceChildren();
    }
    let latest = null;
    for (const x of decisions) if (x._step <= pos) latest = x;
    moves.follow(d, latest);
    marks.follow(d);
    $('[data-mark="prev"]').disabled = !marked.some((x) => x._step < pos);
    $('[data-mark="next"]').disabled = !marked.some((x) => x._step > pos);
    chart.follow(pos);
  }

  // the chart: one scale at a time
  const views = root.querySelectorAll(".chart-view [data-view]");
  for (const b of views) {
    b.addEventListener("click", () => {
      for (const o of views) o.setAttribute("aria-pressed", o === b ? "true" : "false");
      chart.setView(b.dataset.view);
    });
  }

  $(".review-nav").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-mark]");
    if (!b) return;
    const d = b.dataset.mark === "next" ? marked.find((x) => x._step > pos) : [...marked].reverse().find((x) => x._step < pos);
    jump(d);
  });

  // ---- the panel: open or closed (remembered), #review opens it ------------------------------------
  function setOpen(open, remember = true) {
    body.hidden = !open;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    toggle.textContent = open ? _("Hide") : _("Show");
    if (remember) {
      try { localStorage.setItem("cb-review-open", open ? "1" : "0"); } catch { /* private mode */ }
    }
    if (open) chart.redraw();
    setReviewing();
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
      const o = document.createElement("option");
      o.textContent = name(s);
      o.value = String(s);
      return o;
    }));
    if (seatAsked != null) seatSel.value = String(seatAsked);
    seatSel.closest(".review-seat").hidden = false;
    seatSel.addEventListener("change", () => {
      const seat = Number(seatSel.value);
      clearShown();
      setStatus(_("Loading the review…"), "pending");
      loader.load(seat);
    });
  }

  setStatus(_("Loading the review…"), "pending");
  loader.load(seatAsked);
  return { update };
}
