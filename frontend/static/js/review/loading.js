// The review's data: GET /api/matches/<id>/analysis/?seat=N answers 202 with the progress while it is
// computed and 200 with the callbreak-analysis/1 document, kept per seat. The progress is also pushed on
// /ws/me/ as {"type": "analysis"}; polling carries on (every 3 s, 6 s after a message) in case one is lost.
import { api, ApiError, matchUrl } from "../api.js";
import { _ } from "../i18n.js";
import { onUserMessage } from "../user_socket.js";
import { FORMAT } from "./words.js";

const POLL_MS = 3000;

/**
 * createLoader(matchId, seat, { show(doc), pending(progress), progress(progress), status(text, state) })
 * -> { load(seat), seat }. `show` gets a document; `pending` a 202's progress (what was shown is cleared);
 * `progress` a pushed progress; `status` says why there is nothing to show.
 */
export function createLoader(matchId, initialSeat, { show, pending, progress, status }) {
  let seat = initialSeat;  // the seat reviewed (the server's choice when null)
  let token = 0;           // the newest request: older answers are dropped
  let pollTimer = null;
  const cache = new Map();

  function schedule(ms) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(() => load(seat), ms);
  }

  async function load(s) {
    const my = ++token;
    clearTimeout(pollTimer);
    if (s != null && cache.has(s)) {
      seat = s;
      show(cache.get(s));
      return;
    }
    let data;
    try {
      data = await api(`${matchUrl(matchId)}analysis/${s != null ? `?seat=${encodeURIComponent(s)}` : ""}`);
    } catch (e) {
      if (my !== token) return;
      if (!(e instanceof ApiError) || e.status === 429 || e.status >= 500) {
        status(_("The review is not reachable just now; trying again…"), "pending");
        schedule(POLL_MS * 2);
      } else if (e.status === 409) {
        status(_("The review is made once the match is over."), "error");
      } else {
        status(_("There is no review of this match for you."), "error");
      }
      return;
    }
    if (my !== token) return;
    if (data && data.format === FORMAT) {
      cache.set(data.seat, data);
      seat = data.seat;
      show(data);
      return;
    }
    if (data && typeof data.seat === "number") seat = data.seat;
    pending(data || {});
    if (!data || data.status !== "failed") schedule(POLL_MS);
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

  return {
    load(s) {
      seat = s;
      return load(s);
    },
    get seat() { return seat; },
  };
}
