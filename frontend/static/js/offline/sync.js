// Offline matches go to the server once the network is back: POST /api/offline-matches/ with each finished
// match's replay. Stored (201) or already there (409 duplicate): uploaded. Refused (the server's verifier or
// a check said no, a 4xx other than 401/403/429): kept with the reason, never sent again. Anything else (no
// network, the server busy): tried again at the next page, or when the browser says it is online.
import { api, ApiError } from "../api.js";
import { pending, put } from "./store.js";

let running = null;

export function uploadPending() {
  if (running) return running;
  running = (async () => {
    const done = [];
    if (!navigator.onLine || document.body.dataset.signedIn !== "1") return done;
    for (const m of await pending()) {
      try {
        const row = await api("/api/offline-matches/", { method: "POST", body: { replay: m.replay } });
        await put({ ...m, status: "uploaded", server_id: row.id });
        done.push({ id: m.id, server_id: row.id });
      } catch (e) {
        if (!(e instanceof ApiError)) break; // no network: later
        if (e.code === "duplicate") {
          await put({ ...m, status: "uploaded" });
        } else if (e.status === 403) {
          continue; // played by another account of this browser: uploaded when it signs in
        } else if (e.status >= 400 && e.status < 500 && ![401, 429].includes(e.status)) {
          await put({ ...m, status: "refused", reason: `${e.code || e.status}: ${e.message}` });
        } else {
          break; // signed out, limited, or the server's fault: later
        }
      }
    }
    window.dispatchEvent(new CustomEvent("cb:offline-uploaded", { detail: done }));
    return done;
  })().finally(() => { running = null; });
  return running;
}

export function startUploads() {
  if (!("indexedDB" in window)) return;
  uploadPending().catch(() => { /* the next page tries again */ });
  window.addEventListener("online", () => uploadPending().catch(() => {}));
}
