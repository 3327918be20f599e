import { api, createMatch } from "./api.js";
import { bound } from "./bound.js";
import { _, fmt } from "./i18n.js";

const form = document.getElementById("new-match-form");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const btn = form.querySelector("button[type=submit]");
    const err = form.querySelector(".form-error");
    if (btn.disabled) return;
    btn.disabled = true;
    err.hidden = true;
    try {
      const bot = (form.querySelector("[name=bot]") || {}).value || "";
      const view = await createMatch(bot);
      if (bot) sessionStorage.setItem("cb-bot-level", bot);
      else sessionStorage.removeItem("cb-bot-level");
      window.location.href = `/play/${encodeURIComponent(view.id)}/`;
    } catch (e) {
      err.textContent = e.message || _("Could not start a match.");
      err.hidden = false;
      btn.disabled = false;
    }
  });
  bound(form);
}

// Logged out: "Play now" makes a guest account (this browser's session) and opens a table against bots in the
// same tap; "Play online" makes one and opens an unrated quick-match seek (the reloaded home goes on waiting).
const guestBox = document.getElementById("guest-play");
if (guestBox) {
  const buttons = [...guestBox.querySelectorAll("[data-guest-play]")];
  const err = guestBox.querySelector(".form-error");
  for (const btn of buttons) {
    btn.addEventListener("click", async () => {
      if (btn.disabled) return;
      for (const b of buttons) b.disabled = true;
      err.hidden = true;
      try {
        await api("/api/auth/guest/", { method: "POST" });
        if (btn.dataset.guestPlay === "online") {
          const seek = await api("/api/quick-match/", { method: "POST", body: { pace: "live", rated: false } });
          if (seek.status === "matched" && seek.match_id) {
            window.location.href = `/play/${encodeURIComponent(seek.match_id)}/`;
          } else {
            sessionStorage.setItem("cb-seek", String(seek.id));
            window.location.reload();
          }
        } else {
          const view = await createMatch("");
          window.location.href = `/play/${encodeURIComponent(view.id)}/`;
        }
      } catch (e) {
        err.textContent = e.message || _("Could not start a match.");
        err.hidden = false;
        for (const b of buttons) b.disabled = false;
      }
    });
  }
  bound(guestBox);
}

// A running match? Offer to continue it (the one awaiting my move first).
const cont = document.getElementById("continue-match");
if (cont) {
  api("/api/matches/").then((list) => {
    const m = (list || []).find((x) => x.status !== "finished");
    if (!m) return;
    const a = cont.querySelector("a");
    a.href = `/play/${encodeURIComponent(m.id)}/`;
    a.textContent = m.your_turn
      ? fmt(_("Continue match #%(id)s: your move"), { id: m.id })
      : fmt(_("Continue match #%(id)s"), { id: m.id });
    cont.hidden = false;
  }).catch(() => {});
}

// Play offline: the service worker keeps the engine (Pyodide and engine.zip, about 14 MB) for play with no
// network; asked here, once a version, unless the browser asks to save data.
const offlineBox = document.getElementById("offline-play");
if (offlineBox && "serviceWorker" in navigator && "caches" in window) {
  const status = offlineBox.querySelector(".offline-status");
  navigator.serviceWorker.addEventListener("message", (ev) => {
    const msg = ev.data || {};
    if (msg.type !== "engine-cached") return;
    offlineBox.dataset.ready = msg.ok ? "1" : "0";
    offlineBox.dataset.bytes = String(msg.bytes || 0); // the engine's download (bench/offline_budgets.py)
    status.textContent = msg.ok ? _("Ready to play with no connection.") : "";
    if (msg.ok) warmEngine();
  });
  const saveData = navigator.connection && navigator.connection.saveData;
  if (!saveData) {
    navigator.serviceWorker.ready.then((reg) => {
      if (reg.active) reg.active.postMessage({ type: "cache-engine" });
    });
  }
}

// Once the engine is kept, the home page starts it once in the background (a worker: the page stays free)
// when it has no memory snapshot yet: the worker makes one (js/offline/worker.js), so even the first offline
// start after a single visit is a fast one. Never while the browser asks to save data (nothing was kept).
async function warmEngine() {
  try {
    if ((await (await caches.open("callbreak-snapshot")).keys()).length) return;
  } catch {
    return;
  }
  const worker = new Worker(new URL("./offline/worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (ev) => {
    offlineBox.dataset.warm = ev.data && ev.data.ready ? ev.data.snapshot : "failed";
    worker.terminate();
  };
  worker.onerror = () => worker.terminate();
  worker.postMessage({ id: 0, warm: true });
}
