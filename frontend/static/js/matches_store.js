// The signed-in user's matches, kept current: GET /api/matches/ once, then each
// {"type": "match", "match": <summary>} from /ws/me/ replaces its row (refetched after a reconnect).
import { api } from "./api.js";
import { onUserMessage, onUserSocketOpen } from "./user_socket.js";

const rows = new Map(); // id -> summary
const subscribers = new Set();
let loaded = null;
let error = null;

function publish() {
  const list = [...rows.values()];
  subscribers.forEach((fn) => fn(list, error));
}

async function load() {
  try {
    const list = await api("/api/matches/");
    const fresh = new Map();
    for (const m of list || []) {
      const known = rows.get(m.id);
      fresh.set(m.id, known && known.seq > m.seq ? known : { ...m, received: Date.now() });
    }
    rows.clear();
    fresh.forEach((m, id) => rows.set(id, m));
    error = null;
  } catch (e) {
    error = e;
  }
  publish();
}

function merge(m) {
  if (!m || m.id == null) return;
  const known = rows.get(m.id);
  if (known && known.seq > m.seq) return; // an older summary
  rows.set(m.id, { ...known, ...m, received: Date.now() });
  publish();
}

function start() {
  if (loaded) return loaded;
  loaded = load();
  onUserMessage((msg) => {
    if (msg.type === "match" && msg.match) merge(msg.match);
  });
  onUserSocketOpen(load); // the socket (re)opened: what changed before it listened?
  // The table page knows its own match first (its socket): it tells the store.
  window.addEventListener("cb:match", (ev) => merge(ev.detail));
  return loaded;
}

// fn(list, error) now (once loaded) and after every change.
export function watchMatches(fn) {
  subscribers.add(fn);
  start().then(() => fn([...rows.values()], error));
  return () => subscribers.delete(fn);
}

// The seconds left of a summary now (it was received `received` ms ago).
export function secondsLeft(m) {
  if (m.seconds_left == null) return null;
  return Math.max(0, m.seconds_left - Math.round((Date.now() - (m.received || Date.now())) / 1000));
}

// Matches (running) where it is the user's turn.
export const myTurns = (list) => list.filter((m) => m.status === "active" && m.your_turn);
