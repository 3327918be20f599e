// The end of a match: winners, final scores, the rating change of a rated match, the review of my
// decisions, and what next — a one-tap rematch (the same seats, bots included; it starts once every person at
// the table said yes, at once when there is no other person), or another match against bots.
import { api, ApiError, createMatch, csrfToken, matchUrl } from "../api.js";
import { _, fmt } from "../i18n.js";
import { onUserMessage, onUserSocketOpen } from "../user_socket.js";
import { tenths } from "../cards.js";
import { showRatingChange } from "../rating.js";
import { modal } from "./dialogs.js";

export function createEnd(app, { nameOf, winnersText, focusTable }) {
  const $ = (sel) => app.querySelector(sel);
  const dialog = $(".end-dialog");
  const dlg = modal(dialog, { fallback: () => $("#show-end").focus() });
  const rematchBtn = $("#rematch");
  const noBtn = $("#rematch-no");
  const rematchStatus = $(".rematch-status");
  const againBtn = $("#play-again");
  const error = $(".end-error");
  let dismissed = false;
  let view = null;
  let asked = null; // the rematch as last heard: GET /api/matches/{id}/rematch/ or a "rematch" message on /ws/me/
  let fetchedFor = null;
  let expiryTimer = null;

  const fail = (msg) => {
    error.textContent = msg;
    error.hidden = !msg;
  };

  function fill(v) {
    view = v;
    const winners = v.winners || [];
    $(".winners").textContent = winnersText(v);
    dialog.classList.toggle("you-won", winners.includes(v.seat));
    const order = [0, 1, 2, 3].sort((a, b) => v.totals[b] - v.totals[a]);
    const ol = document.createElement("ol");
    for (const s of order) {
      const li = document.createElement("li");
      li.className = winners.includes(s) ? "win" : "";
      li.innerHTML = `<span class="n"></span><span class="t"></span>`;
      li.querySelector(".n").textContent = nameOf(v, s) + (winners.includes(s) ? " ★" : "");
      li.querySelector(".t").textContent = tenths(v.totals[s]);
      ol.appendChild(li);
    }
    $(".final-scores").replaceChildren(ol);
    // an offline match has its replay and review once uploaded (js/offline/sync.js): the server's id then
    const id = v.offline ? uploadedAs.get(v.offline_id) : v.id;
    const replay = $("#replay-link");
    replay.href = id != null ? `/replay/${encodeURIComponent(id)}/` : "#";
    replay.hidden = id == null;
    // the strong bot's review of my decisions: the replay viewer with its Review panel open
    const review = $("#review-link");
    review.href = id != null ? `/replay/${encodeURIComponent(id)}/#review` : "#";
    review.hidden = typeof v.seat !== "number" || id == null;
    const note = $(".offline-note");
    if (note) {
      note.hidden = !v.offline;
      note.textContent = id != null ? _("Uploaded and verified: it is in My matches.")
        : _("Played offline: it is uploaded and verified when the network is back.");
    }
    // the rating change of a rated match (null until the rating has been computed), as people see it
    const rating = $(".rating-change");
    if (v.rating && typeof v.rating.change === "number") {
      showRatingChange(v.rating, rating, $(".rating-note"));
    } else if (v.rated) {
      $(".rating-note").hidden = true;
      rating.textContent = _("Rated match: your new rating is being computed…");
      rating.className = "rating-change";
      rating.hidden = false;
    } else {
      $(".rating-note").hidden = true;
      rating.hidden = true;
    }
    // at a table (quick matches included): the one-tap rematch; against bots: another match
    const amongPeople = v.table_id != null;
    rematchBtn.hidden = !amongPeople;
    againBtn.hidden = amongPeople;
    if (amongPeople && fetchedFor !== v.id) {
      fetchedFor = v.id;
      refetch();
    }
    showRematch();
  }

  async function refetch() {
    if (!view || view.table_id == null) return;
    try {
      showRematch(await api(`${matchUrl(view.id)}rematch/`));
    } catch { /* the socket or the next tap tells */ }
  }

  const names = (list) => list.map((w) => w.name).join(", ");

  // The rematch as it stands: whose yes it waits for, mine to give, or off; started: this page goes to it.
  function showRematch(r) {
    if (r) asked = r;
    if (!view || view.table_id == null) return;
    const st = asked ? asked.status : "none";
    clearTimeout(expiryTimer);
    if (st === "started" && asked.new_match_id) {
      rematchStatus.textContent = _("Starting the rematch…");
      rematchStatus.hidden = false;
      rematchBtn.disabled = noBtn.disabled = true;
      app.classList.add("clearing");
      window.location.href = `/play/${encodeURIComponent(asked.new_match_id)}/`;
      return;
    }
    const mine = st === "pending" && asked.waiting.some((w) => w.seat === view.seat);
    let words = "";
    if (st === "pending" && mine) {
      words = fmt(_("%(name)s wants a rematch"), { name: asked.asked_by });
    } else if (st === "pending") {
      words = fmt(_("Waiting for %(names)s…"), { names: names(asked.waiting) });
    } else if (st === "cancelled" && asked.reason === "declined" && asked.by) {
      words = fmt(_("%(name)s said no: no rematch this time."), { name: asked.by });
    } else if (st === "cancelled" && asked.reason === "left" && asked.by) {
      words = fmt(_("%(name)s left: no rematch this time."), { name: asked.by });
    } else if (st === "cancelled") {
      words = _("No rematch this time: not everyone answered.");
    }
    rematchStatus.textContent = words;
    rematchStatus.hidden = !words;
    rematchBtn.textContent = mine ? _("Yes, rematch") : _("Rematch");
    rematchBtn.hidden = st === "pending" && !mine;
    rematchBtn.disabled = false;
    noBtn.hidden = !mine;
    noBtn.disabled = false;
    if (st === "pending" && asked.expires_at) {
      // called off at its time (the sweep tells a little later): ask the server again then
      const left = Date.parse(asked.expires_at) - Date.now();
      expiryTimer = setTimeout(refetch, Math.max(0, Math.min(left + 1000, 2 ** 31 - 1)));
    }
  }

  onUserMessage((msg) => {
    if (msg.type === "rematch" && view && msg.match_id === view.id) showRematch(msg);
  });
  onUserSocketOpen(refetch);

  // Leaving the end screen (closed, reloaded, gone elsewhere) while a rematch is pending: the server calls a
  // live match's rematch off, so nobody is seated with an empty chair (a correspondence one waits on).
  window.addEventListener("pagehide", () => {
    if (view && asked && asked.status === "pending" && !view.offline) {
      // a beacon: made for a page that goes (a fetch from pagehide was at times never sent); a form's token
      const body = new URLSearchParams({ csrfmiddlewaretoken: csrfToken() });
      navigator.sendBeacon(`${matchUrl(view.id)}rematch/leave/`, body);
    }
  });

  // offline matches uploaded while this page is open: the end dialog offers their replay and review
  const uploadedAs = new Map();
  window.addEventListener("cb:offline-uploaded", (ev) => {
    for (const { id, server_id: serverId } of ev.detail || []) uploadedAs.set(id, serverId);
    if (view && view.offline) fill(view);
  });

  async function playAgain() {
    if (view && view.offline) {
      window.location.href = "/play-offline/"; // the finished match is kept; a new one is dealt
      return;
    }
    againBtn.disabled = true;
    fail("");
    app.classList.add("clearing");
    try {
      const v = await createMatch(sessionStorage.getItem("cb-bot-level") || "");
      window.location.href = `/play/${encodeURIComponent(v.id)}/`;
    } catch (e) {
      app.classList.remove("clearing");
      againBtn.disabled = false;
      fail(e.message);
    }
  }

  // One tap: ask (a yes of mine), or say yes to the rematch someone asked; "No" calls it off.
  async function rematch(answer) {
    if (!view) return;
    rematchBtn.disabled = noBtn.disabled = true;
    fail("");
    const toAnswer = answer === "no" || (asked && asked.status === "pending"
      && asked.waiting.some((w) => w.seat === view.seat));
    try {
      showRematch(toAnswer
        ? await api(`${matchUrl(view.id)}rematch/answer/`, { method: "POST", body: { answer: answer || "yes" } })
        : await api(`${matchUrl(view.id)}rematch/`, { method: "POST" }));
    } catch (e) {
      rematchBtn.disabled = noBtn.disabled = false;
      if (e instanceof ApiError && e.code === "no_table") {
        // not a table among people after all: another match against bots
        rematchBtn.hidden = true;
        againBtn.hidden = false;
        againBtn.focus();
      } else if (e instanceof ApiError && ["already_answered", "rematch_cancelled"].includes(e.code)) {
        refetch();
      } else {
        fail(e.message);
      }
    }
  }

  // The dialog leaves the last trick in view: it takes the largest space beside the trick (below it on a
  // phone held upright, beside it on a short screen), its actions first when room is short.
  function place() {
    if (!dialog.open) return;
    const trick = app.querySelector(".trick").getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const m = 6;
    const spaces = [
      { left: m, top: trick.bottom + m, width: vw - 2 * m, height: vh - trick.bottom - 2 * m },
      { left: m, top: m, width: vw - 2 * m, height: trick.top - 2 * m },
      { left: trick.right + m, top: m, width: vw - trick.right - 2 * m, height: vh - 2 * m },
      { left: m, top: m, width: trick.left - 2 * m, height: vh - 2 * m },
    ].filter((r) => r.width >= 240 && r.height >= 160);
    const big = vw >= 1000 && vh >= 700;
    const best = spaces.sort((a, b) => Math.min(b.width, 520) * b.height - Math.min(a.width, 520) * a.height)[0];
    const st = dialog.style;
    if (big || !best) {
      for (const k of ["left", "top", "width", "maxHeight", "margin", "position"]) st[k] = "";
      dialog.classList.remove("beside");
      return;
    }
    const width = Math.min(best.width, 520);
    st.position = "fixed";
    st.margin = "0";
    st.width = `${width}px`;
    st.maxHeight = `${best.height}px`;
    st.left = `${Math.round(best.left + (best.width - width) / 2)}px`;
    st.top = `${Math.round(best.top)}px`;
    dialog.classList.add("beside");
  }
  window.addEventListener("resize", place);
  // the header coming back (the match is over) moves the trick: place the dialog again
  if (window.ResizeObserver) new ResizeObserver(() => place()).observe(app.querySelector(".table"));

  againBtn.addEventListener("click", playAgain);
  rematchBtn.addEventListener("click", () => rematch());
  noBtn.addEventListener("click", () => rematch("no"));
  $("#end-close").addEventListener("click", () => {
    dismissed = true;
    dlg.close();
  });
  dialog.addEventListener("close", () => { dismissed = true; });
  $("#show-end").addEventListener("click", () => {
    dismissed = false;
    dlg.open();
    place();
    dlg.reveal();
  });

  return {
    /** A settled frame: open the dialog when the match is over (unless the player closed it). */
    update(f) {
      if (f.phase !== "finished") {
        if (dlg.isOpen) dlg.close();
        return;
      }
      fill(f);
      const opening = !dismissed && !dlg.isOpen;
      if (opening) dlg.open(rematchBtn.hidden ? againBtn : rematchBtn);
      place();
      if (opening) dlg.reveal();  // placed beside the trick, its size changed: from the top again
    },
    focusTable,
  };
}
