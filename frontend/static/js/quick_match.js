// "Play online" (home and lobby): POST /api/quick-match/, then wait (elapsed time, a Cancel button) until
// /ws/me/ says {"type": "matched", "match_id"}; then go to the table. GET polls every few seconds too, in
// case the socket missed it. The seek's id is kept in sessionStorage so a reload goes on waiting.
import { api, ApiError } from "./api.js";
import { bound } from "./bound.js";
import { _, fmt } from "./i18n.js";
import { onUserMessage, onUserSocketOpen } from "./user_socket.js";

const KEY = "cb-seek";
const POLL_MS = 4000;

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function mountQuickMatch(box) {
  const form = box.querySelector("[data-qm-form]");
  const waiting = box.querySelector("[data-qm-waiting]");
  const status = box.querySelector("[data-qm-status]");
  const hint = box.querySelector("[data-qm-hint]");
  const cancel = box.querySelector("[data-qm-cancel]");
  const error = box.querySelector("[data-qm-error]");
  const playBtn = form.querySelector("button[type=submit]");
  let seek = null;
  let started = 0;
  let ticker = null;
  let poller = null;
  let leaving = false;

  const go = (matchId) => {
    if (leaving) return;
    leaving = true;
    sessionStorage.removeItem(KEY);
    status.textContent = _("Players found: to the table…");
    window.location.href = `/play/${encodeURIComponent(matchId)}/`;
  };

  const tick = () => {
    const waited = (Date.now() - started) / 1000;
    status.textContent = fmt(_("Looking for players… %(t)s"), { t: clock(waited) });
    const botsAfter = seek ? Number(seek.bots_after) : Number(box.dataset.botsAfter || 20);
    hint.textContent = waited < botsAfter
      ? fmt(_("Bots take the empty seats after %(s)s s."), { s: Math.round(botsAfter) })
      : _("Seating you with bots…");
  };

  const stopWaiting = () => {
    clearInterval(ticker);
    clearInterval(poller);
    ticker = poller = null;
    seek = null;
    sessionStorage.removeItem(KEY);
    waiting.hidden = true;
    form.hidden = false;
    playBtn.disabled = false;
  };

  const follow = (s) => {
    seek = s;
    if (s.status === "matched" && s.match_id) return go(s.match_id);
    if (s.status !== "waiting") return stopWaiting();
    sessionStorage.setItem(KEY, String(s.id));
    const since = Date.parse(s.waiting_since);
    // the server's clock may differ from this one: never show a wait before the press or in the future
    started = Number.isNaN(since) ? Date.now() : Math.min(Date.now(), Math.max(since, Date.now() - 3600e3));
    form.hidden = true;
    waiting.hidden = false;
    tick();
    clearInterval(ticker);
    ticker = setInterval(tick, 1000);
    clearInterval(poller);
    poller = setInterval(refresh, POLL_MS);
  };

  async function refresh() {
    if (!seek) return;
    try {
      follow(await api(`/api/quick-match/${encodeURIComponent(seek.id)}/`));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) stopWaiting();
    }
  }

  // who is here: counted now, then kept up to date by /ws/me/ ({"type": "here"} when the counts change)
  const here = box.querySelector("[data-here]");
  const showHere = (h) => {
    if (!here || !h || typeof h.playing !== "number") return;
    here.textContent = fmt(_("Now: %(playing)s playing, %(waiting)s waiting"), h);
    here.dataset.playing = String(h.playing);
    here.dataset.waiting = String(h.waiting);
    here.hidden = false;
  };
  const countHere = () => api("/api/quick-match/here/").then(showHere).catch(() => {});
  countHere();

  onUserMessage((msg) => {
    if (msg && msg.type === "matched" && seek && msg.match_id) go(msg.match_id);
    else if (msg && msg.type === "here") showHere(msg);
  });
  onUserSocketOpen(() => {
    refresh();
    countHere();
  });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (playBtn.disabled) return;
    playBtn.disabled = true;
    error.hidden = true;
    const body = { pace: form.elements.pace.value, rated: form.elements.rated.checked };
    try {
      follow(await api("/api/quick-match/", { method: "POST", body }));
    } catch (e) {
      if (e instanceof ApiError && e.code === "already_seeking" && e.body.id) {
        seek = { id: e.body.id };
        await refresh();
        return;
      }
      error.textContent = e.message || _("Could not start looking for players.");
      error.hidden = false;
      playBtn.disabled = false;
    }
  });
  bound(form);

  cancel.addEventListener("click", async () => {
    if (!seek) return;
    cancel.disabled = true;
    try {
      const s = await api(`/api/quick-match/${encodeURIComponent(seek.id)}/`, { method: "DELETE" });
      if (s.status === "matched" && s.match_id) go(s.match_id); // seated just before the cancel
      else stopWaiting();
    } catch (e) {
      error.textContent = e.message || _("Could not cancel.");
      error.hidden = false;
    } finally {
      cancel.disabled = false;
    }
  });

  const kept = sessionStorage.getItem(KEY);
  if (kept) {
    seek = { id: kept };
    api(`/api/quick-match/${encodeURIComponent(kept)}/`)
      .then((s) => (s.status === "waiting" ? follow(s) : stopWaiting()))
      .catch(() => stopWaiting());
  }
}

document.querySelectorAll("[data-quick-match]").forEach(mountQuickMatch);
