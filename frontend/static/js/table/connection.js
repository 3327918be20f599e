// The match's connection: GET /api/matches/{id}/, the live socket /ws/matches/{id}/ with reconnect
// backoff and jitter, and POST .../actions/ with the seq the page knows. Every view goes to
// onView(view, { since, actions }) with the actions that lead to it when they are known (the pacer
// orders the views by seq and animates the actions); onStatus(message | null) reports trouble and its end.
//
// A socket message after actions carries them. A REST answer carries only the view: after my action it
// is my action alone when its seq is the next one; when bots have answered too, the socket's messages
// bring the same seqs with their actions, so while the socket is live the answer waits for them a little
// (ANSWER_WAIT) and is shown only if they do not come (the pacer then compares views).
import { api, ApiError, matchUrl } from "../api.js";
import { _ } from "../i18n.js";

const ANSWER_WAIT = 3000;

export function createConnection(matchId, { onView, onStatus, onLive }) {
  let ws = null;
  let socketSeq = -1;   // the newest seq the socket brought
  let waiting = null;   // a REST answer waiting for the socket: { seq, timer }
  let retry = 0;
  let retryTimer = null;
  let closing = false;
  let finished = false;
  let refetching = null;
  let problem = null; // the message shown, if any

  const status = (msg) => {
    problem = msg;
    onStatus(msg);
  };

  function accept(msg, known = {}) {
    if (!msg || typeof msg !== "object" || msg.type === "error") return;
    const v = msg.match && typeof msg.match === "object" ? msg.match : msg;
    if (!("phase" in v)) {
      // a bare notification (ids and seq): fetch the view
      refetch();
      return;
    }
    finished = v.phase === "finished";
    if (problem) status(null); // caught up: whatever went wrong is over
    const carried = Array.isArray(msg.actions) ? { since: msg.since, actions: msg.actions } : known;
    onView(v, carried);
  }

  function fromSocket(msg) {
    const seq = msg && msg.match && msg.match.seq;
    if (typeof seq === "number") {
      socketSeq = Math.max(socketSeq, seq);
      if (waiting && seq >= waiting.seq) {
        clearTimeout(waiting.timer);
        waiting = null;
      }
    }
    accept(msg);
  }

  // The answer to my action at `seq` (`body`: its bid or card).
  function answered(v, seq, body) {
    if (!v || typeof v.seq !== "number") return accept(v);
    if (v.seq === seq + 1) return accept(v, { since: seq, actions: [{ seat: v.seat, ...body }] });
    if (v.seq <= socketSeq || !ws || ws.readyState !== 1) return accept(v);
    if (waiting) clearTimeout(waiting.timer);
    const w = { seq: v.seq, timer: setTimeout(() => { if (waiting === w) waiting = null; accept(v); }, ANSWER_WAIT) };
    waiting = w;
  }

  function refetch() {
    if (refetching) return refetching;
    refetching = (async () => {
      try {
        accept(await api(matchUrl(matchId)));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) {
          closing = true;
          status(_("This match was not found."));
        } else if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
          closing = true;
          status(_("Your session has ended: log in again."));
        } else {
          status(_("Connection problem, retrying…"));
          scheduleReconnect();
        }
      } finally {
        refetching = null;
      }
    })();
    return refetching;
  }

  function connect() {
    if (closing || (ws && ws.readyState <= 1)) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let sock;
    try {
      sock = new WebSocket(`${proto}://${location.host}/ws/matches/${encodeURIComponent(matchId)}/`);
    } catch {
      scheduleReconnect();
      return;
    }
    ws = sock;
    sock.onopen = () => {
      retry = 0;
      onLive(true);
    };
    sock.onmessage = (ev) => {
      try {
        fromSocket(JSON.parse(ev.data));
      } catch { /* a malformed frame */ }
    };
    sock.onclose = (ev) => {
      if (ws === sock) ws = null;
      onLive(false);
      if (ev.code === 4404 || ev.code === 4401 || ev.code === 4403) {
        refetch(); // not this user's match, or signed out: retrying cannot help
        return;
      }
      scheduleReconnect();
    };
    sock.onerror = () => { try { sock.close(); } catch { /* closed */ } };
  }

  function scheduleReconnect() {
    if (closing || finished || retryTimer) return;
    const base = Math.min(15000, 500 * 2 ** retry);
    const delay = base / 2 + Math.random() * base / 2;
    retry += 1;
    if (retry > 2) status(_("Reconnecting…"));
    retryTimer = setTimeout(() => {
      retryTimer = null;
      refetch(); // resync by seq even before the socket is back
      connect();
    }, delay);
  }

  /** POST an action; resolves with the new view (also passed to onView, see `answered`), rejects with ApiError. */
  async function send(seq, body) {
    try {
      const v = await api(`${matchUrl(matchId)}actions/`, { method: "POST", body: { seq, ...body } });
      answered(v, seq, body);
      return v;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) {
        status(_("Could not reach the server. Trying again…"));
        scheduleReconnect();
      }
      throw e;
    }
  }

  window.addEventListener("pagehide", () => { closing = true; });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refetch();
  });

  return {
    start: () => refetch().then(connect),
    refetch,
    send,
    isLive: () => !!ws && ws.readyState === 1,
    dropSocket: () => { if (ws) ws.close(); },
  };
}
