// The table's second transport: a match against three bots played with no server, by the engine itself
// (engine/solo.py) in a Web Worker under Pyodide (js/offline/worker.js). Same interface as connection.js
// (start, refetch, send, isLive, sendSocial, dropSocket, sentBy), same messages: each answer is the human
// seat's view with the actions that led to it ({since, actions}), so the pacer animates the bots' cards as
// it does a socket's. The seed comes from crypto.getRandomValues and only its commitment is shown until the
// end, as on the server; every move is kept in IndexedDB (js/offline/store.js), and the finished match's
// replay is uploaded when the network is back (js/offline/sync.js).
import { ApiError } from "../api.js";
import { _ } from "../i18n.js";
import { playing, put } from "../offline/store.js";
import { uploadPending } from "../offline/sync.js";

const LEVELS = ["easy", "normal"];

const hex = (n) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");

let worker = null;
let nextId = 1;
const waiting = new Map();

function engine() {
  if (!worker) {
    worker = new Worker(new URL("../offline/worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (ev) => {
      const { id } = ev.data;
      const w = waiting.get(id);
      if (!w) return;
      waiting.delete(id);
      if (ev.data.failed) w.reject(new Error(ev.data.failed));
      else w.resolve(ev.data);
    };
    worker.onerror = (ev) => {
      for (const w of waiting.values()) w.reject(new Error(ev.message || "the offline engine failed"));
      waiting.clear();
    };
  }
  return worker;
}

/** One request to the worker: resolves with its parsed answer (or `{ready, ms}` for no request). */
export function ask(request) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    engine().postMessage({ id, request: request === undefined ? undefined : JSON.stringify(request) });
  }).then((msg) => (msg.answer !== undefined ? { ...JSON.parse(msg.answer), ms: msg.ms } : msg));
}

export function createConnection(matchId, { onView, onStatus, onLive }) {
  const app = document.getElementById("table-app");
  let record = null; // what IndexedDB keeps of this match
  const sentBy = { socket: 0, rest: 0, worker: 0 };
  // the worker's own milliseconds, for bench/offline_budgets.py: its start (Pyodide, the engine), each answer,
  // and each bot decision in it
  const timings = { boot: null, pyodide: null, engine: null, snapshot: null, answers: [], bots: [] };

  async function keep(answer) {
    const finished = Boolean(answer.replay);
    record = { ...record, save: answer.save, status: finished ? "finished" : "playing" };
    if (finished) record.replay = answer.replay;
    await put(record);
    if (finished) uploadPending().catch(() => { /* later */ });
  }

  function show(answer) {
    onView({ ...answer.match, offline_id: record.id }, { since: answer.since, actions: answer.actions });
  }

  async function start() {
    onLive(true);
    onStatus(_("Starting the offline engine…"));
    try {
      const boot = await ask();
      Object.assign(timings, { boot: boot.ms, pyodide: boot.pyodide_ms, engine: boot.engine_ms, snapshot: boot.snapshot });
      record = await playing();
      let answer;
      if (record) {
        answer = await ask({ op: "resume", save: record.save });
      } else {
        const level = sessionStorage.getItem("cb-bot-level");
        record = { id: `offline-${hex(8)}`, status: "playing", started: Date.now() };
        answer = await ask({
          op: "start", seed: hex(16), bot_seed: hex(16), match_id: record.id,
          level: LEVELS.includes(level) ? level : "normal",
          name: app.dataset.username || _("You"),
        });
      }
      if (answer.error) throw new Error(answer.error.detail);
      timings.bots.push(...(answer.bot_ms || []));
      await keep(answer);
      onStatus(null);
      show(answer);
      performance.mark("cb-offline-playable");
    } catch (e) {
      onStatus(`${_("The offline engine could not start.")} ${e.message || ""}`);
    }
  }

  async function send(seq, body) {
    sentBy.worker += 1;
    const answer = await ask({ op: "act", seq, ...body });
    if (answer.error) throw new ApiError(answer.error.code === "stale_seq" ? 409 : 400, answer.error);
    timings.answers.push(answer.ms);
    timings.bots.push(...(answer.bot_ms || []));
    await keep(answer);
    show(answer);
    return answer.match;
  }

  async function refetch() {
    if (!record) return;
    const answer = await ask({ op: "view" });
    if (!answer.error) show(answer);
  }

  return {
    start,
    refetch,
    send,
    sentBy,
    timings,
    isLive: () => true, // nothing to reconnect: the engine is here
    sendSocial: () => false,
    dropSocket: () => {},
  };
}
