// The step controls: « ◀ Play/Pause ▶▶ », the speed, the timeline slider, jumping to a deal or a trick,
// and the keys (← → step, Home / End, Space plays or pauses). Each control shows where the replay stands
// (`show`); playing steps forward on a timer until the end or until anything else moves the replay.
import { _ } from "../i18n.js";

/** createControls(app, state, { go(step) }) -> { show(), stop(), loaded() }. */
export function createControls(app, state, { go }) {
  const $ = (s) => app.querySelector(s);
  let timer = null;
  let tricksFor = -1; // the deal whose tricks the Trick list offers

  const last = () => state.steps.length - 1;

  function stop() {
    clearInterval(timer);
    timer = null;
    const b = app.querySelector('[data-act="play"]');
    b.textContent = "▶ " + _("Play");
    b.setAttribute("aria-label", _("Play"));
  }

  function play() {
    if (timer) return stop();
    if (state.pos >= last()) go(0);
    const b = app.querySelector('[data-act="play"]');
    b.textContent = "⏸ " + _("Pause");
    b.setAttribute("aria-label", _("Pause"));
    const tick = () => {
      if (state.pos >= last()) return stop();
      go(state.pos + 1);
    };
    timer = setInterval(tick, Number($("#speed").value));
  }

  function fillTricks(d) {
    if (tricksFor === d) return;
    tricksFor = d;
    const sel = $("#jump-trick");
    sel.innerHTML = `<option value="">${_("bidding")}</option>` +
      Array.from({ length: 13 }, (_x, t) => `<option value="${t + 1}">${t + 1}</option>`).join("");
  }

  /** The document is in: the slider's length and the list of deals. */
  function loaded() {
    $("#progress").max = String(last());
    $("#jump-deal").innerHTML = state.doc.deals.map((d, i) => `<option value="${i + 1}">${d.number}</option>`).join("");
  }

  /** Every control shows step `state.pos`. */
  function show() {
    const { pos } = state;
    const st = state.steps[pos];
    $("#progress").value = pos;
    $("#jump-deal").value = String(st.d + 1);
    fillTricks(st.d);
    $("#jump-trick").value = st.kind === "play" ? String(st.t + 1) : "";
    app.querySelector('[data-act="back"]').disabled = pos === 0;
    app.querySelector('[data-act="start"]').disabled = pos === 0;
    app.querySelector('[data-act="fwd"]').disabled = pos >= last();
    app.querySelector('[data-act="end"]').disabled = pos >= last();
  }

  app.querySelector(".replay-controls").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-act]");
    if (!b || !state.doc) return;
    const act = b.dataset.act;
    if (act !== "play") stop();
    if (act === "start") go(0);
    else if (act === "back") go(state.pos - 1);
    else if (act === "fwd") go(state.pos + 1);
    else if (act === "end") go(last());
    else if (act === "play") play();
  });
  $("#speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
  $("#progress").addEventListener("input", (ev) => { stop(); go(Number(ev.target.value)); });
  $("#jump-deal").addEventListener("change", (ev) => {
    stop();
    go(state.steps.findIndex((s) => s.d === Number(ev.target.value) - 1));
  });
  $("#jump-trick").addEventListener("change", (ev) => {
    stop();
    const { steps } = state;
    const d = steps[state.pos].d;
    const v = ev.target.value;
    const k = v === "" ? steps.findIndex((s) => s.d === d) : steps.findIndex((s) => s.d === d && s.kind === "play" && s.t === Number(v) - 1);
    if (k >= 0) go(k);
  });
  document.addEventListener("keydown", (ev) => {
    if (!state.doc || ev.target.closest("select, input, .review-moves")) return;
    if (ev.key === "ArrowRight") { stop(); go(state.pos + 1); }
    else if (ev.key === "ArrowLeft") { stop(); go(state.pos - 1); }
    else if (ev.key === "Home") { stop(); go(0); }
    else if (ev.key === "End") { stop(); go(last()); }
    else if (ev.key === " " && !ev.target.closest("button, a")) { ev.preventDefault(); play(); }
  });

  return { show, stop, loaded };
}
