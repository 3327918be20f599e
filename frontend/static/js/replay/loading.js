// Loading the replay: the callbreak-replay/1 document (or the reason it is not available, on the page),
// the viewer's own seat in it (shown at the bottom) and the document offered for download.
import { api, matchUrl } from "../api.js";
import { _ } from "../i18n.js";

/** The match's replay document, or null once the page says why there is none. */
export async function loadReplay(app, matchId) {
  try {
    return await api(`${matchUrl(matchId)}replay/`);
  } catch (e) {
    const err = app.querySelector(".replay-error");
    err.hidden = false;
    err.textContent = e.message || _("This replay is not available.");
    return null;
  }
}

/** The seat of the signed-in person, when they played this match (-1 otherwise). */
export function viewerSeat(doc) {
  return (doc.players || []).findIndex((p) => p.kind === "human" && p.name === document.querySelector(".username")?.textContent);
}

export function offerDownload(app, doc, matchId) {
  const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
  const a = app.querySelector("#download");
  a.href = URL.createObjectURL(blob);
  a.download = `callbreak-match-${doc.match_id || matchId}.json`;
}
