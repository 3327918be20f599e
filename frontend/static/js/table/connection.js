// The match's connection: GET /api/matches/{id}/, the live socket /ws/matches/{id}/ with reconnect
// backoff and jitter, and my actions with the seq the page knows: on the socket while it is open
// ({seq, bid|card, ref} answered by {type: "accepted", seq, ref} and the view, or {type: "error", code,
// ref}), else, or when the socket's answer does not come within SOCKET_ANSWER_WAIT, by POST .../actions/
// (sending the same seq twice is harmless: the second is refused as stale and the page refetches). Every view goes to
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
const SOCKET_ANSWER_WAIT = 8000;
// The HTTP status the REST endpoint answers each socket error code with, so callers handle both alike.
// Messages about the people at the table rather than the match.
const SOCIAL = new Set(["emote", "mutes", "chat", "chat_history", "reported", "watchers"]);
const STATUS_OF = { stale_seq: 409, not_found: 404, throttled: 429, unavailable: 503, server_error: 500 };

export function createConnection(matchId, { onView, onStatus, onLive, onSocial = () => {} }) {
  let ws = null;
  let socketSeq = -1;   // the newest seq the socket brought
  let waiting = null;   // a REST answer waiting for the socket: { seq, timer }
  let retry = 0;
  let retryTimer = null;
  let closing = false;
  let finished = false;
  let refetching = null;
  let problem = null; // the message shown, if any
  const acting = new Map(); // my actions sent on the socket, by ref: { resolve, reject, fallback, timer }
  let nextRef = 1;
  const sentBy = { socket: 0, rest: 0 };

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
    if (msg && (SOCIAL.has(msg.type) || (msg.type === "error" && msg.about))) {
      onSocial(msg); // emotes, mutes and chat (table/emotes.js, table/chat.js), not views
      return;
    }
    if (msg && msg.ref !== undefined && acting.has(msg.ref) && (msg.type === "accepted" || msg.type === "error")) {
      const act = acting.get(msg.ref);
      acting.delete(msg.ref);
      clearTimeout(act.timer);
      if (msg.type === "accepted") act.resolve(msg);
      else act.reject(new ApiError(STATUS_OF[msg.code] || 400, msg));
      return;
    }
    if (msg && msg.type === "accepted") return;
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
      for (const act of acting.values()) act.fallback(); // no answer will come on this socket

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
  async function post(seq, body) {
    sentBy.rest += 1;
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

  /** Send an action on the socket when it is open (its view then comes as a socket message), else POST it;
   * resolves once it is accepted, rejects with ApiError (the REST status of the socket's error code). */
  function send(seq, body) {
    if (!ws || ws.readyState !== 1) return post(seq, body);
    const ref = nextRef++;
    return new Promise((resolve, reject) => {
      const act = { resolve, reject };
      act.fallback = () => {
        if (!acting.has(ref)) return;
        acting.delete(ref);
        clearTimeout(act.timer);
        post(seq, body).then(resolve, reject);
      };
      act.timer = setTimeout(act.fallback, SOCKET_ANSWER_WAIT);
      acting.set(ref, act);
      sentBy.socket += 1;
      try {
        ws.send(JSON.stringify({ seq, ...body, ref }));
      } catch {
        act.fallback();
      }
    });
  }

  window.addEventListener("pagehide", () => { closing = true; });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refetch();
  });

  return {
    start: () => refetch().then(connect),
    refetch,
    send,
    sentBy,
    isLive: () => !!ws && ws.readyState === 1,
    // a message that is no action (an emote, a mute): false when the socket is not open
    sendSocial: (msg) => {
      if (!ws || ws.readyState !== 1) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    dropSocket: () => { if (ws) ws.close(); },
  };
}
