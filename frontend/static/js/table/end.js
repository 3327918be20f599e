// The end of a match: winners, final scores, the rating change of a rated match, the review of my
// decisions, and what next — a rematch with the same people at a new table, or another match against bots.
import { api, ApiError, createMatch, matchUrl } from "../api.js";
import { _, fmt } from "../i18n.js";
import { tenths } from "../cards.js";
import { shownRating } from "../rating.js";
import { modal } from "./dialogs.js";

export function createEnd(app, { nameOf, winnersText, focusTable }) {
  const $ = (sel) => app.querySelector(sel);
  const dialog = $(".end-dialog");
  const dlg = modal(dialog, { fallback: () => $("#show-end").focus() });
  const rematchBtn = $("#rematch");
  const againBtn = $("#play-again");
  const error = $(".end-error");
  let dismissed = false;
  let view = null;

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
    $("#replay-link").href = `/replay/${encodeURIComponent(v.id)}/`;
    // the strong bot's review of my decisions: the replay viewer with its Review panel open
    const review = $("#review-link");
    review.href = `/replay/${encodeURIComponent(v.id)}/#review`;
    review.hidden = typeof v.seat !== "number";
    // the rating change of a rated match (null until the rating has been computed)
    const rating = $(".rating-change");
    if (v.rating && typeof v.rating.change === "number") {
      const before = shownRating(v.rating.before);
      const after = shownRating(v.rating.after);
      const ch = after - before;
      rating.textContent = fmt(_("Rating: %(before)s → %(after)s (%(change)s)"), {
        before, after, change: (ch > 0 ? "+" : ch < 0 ? "−" : "±") + Math.abs(ch),
      });
      rating.className = "rating-change " + (ch > 0 ? "up" : ch < 0 ? "down" : "");
      rating.hidden = false;
      $(".rating-note").hidden = false;
    } else if (v.rated) {
      $(".rating-note").hidden = true;
      rating.textContent = _("Rated match: your new rating is being computed…");
      rating.className = "rating-change";
      rating.hidden = false;
    } else {
      $(".rating-note").hidden = true;
      rating.hidden = true;
    }
    // among people: a rematch at a new table; against bots: another match
    const amongPeople = v.table_id != null;
    rematchBtn.hidden = !amongPeople;
    rematchBtn.textContent = v.rematch_table_id ? _("Join the rematch") : _("Rematch");
    againBtn.hidden = amongPeople;
  }

  async function playAgain() {
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

  async function rematch() {
    if (!view) return;
    rematchBtn.disabled = true;
    fail("");
    try {
      const table = await api(`${matchUrl(view.id)}rematch/`, { method: "POST" });
      window.location.href = `/tables/${encodeURIComponent(table.id)}/`;
    } catch (e) {
      rematchBtn.disabled = false;
      if (e instanceof ApiError && e.code === "no_table") {
        // not a table among people after all: another match against bots
        rematchBtn.hidden = true;
        againBtn.hidden = false;
        againBtn.focus();
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
  rematchBtn.addEventListener("click", rematch);
  $("#end-close").addEventListener("click", () => {
    dismissed = true;
    dlg.close();
  });
  dialog.addEventListener("close", () => { dismissed = true; });
  $("#show-end").addEventListener("click", () => {
    dismissed = false;
    dlg.open();
    place();
  });

  return {
    /** A settled frame: open the dialog when the match is over (unless the player closed it). */
    update(f) {
      if (f.phase !== "finished") {
        if (dlg.isOpen) dlg.close();
        return;
      }
      fill(f);
      if (!dismissed && !dlg.isOpen) dlg.open(rematchBtn.hidden ? againBtn : rematchBtn);
      place();
    },
    focusTable,
  };
}
