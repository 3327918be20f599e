// /watch/{id}/: a watcher's socket (/ws/watch/{id}/) and the table it draws. It reconnects with backoff; a
// private table's match (close 4403) or no such match (4404) stops it.
import { _ } from "./i18n.js";
import { renderWatch, statusLine } from "./watch_render.js";

const root = document.getElementById("watch");
const status = document.getElementById("watch-status");
const seatsEl = document.getElementById("watch-seats");
const trickEl = document.getElementById("watch-trick");
let view = null;
let watchers = 0;
let delay = 1000;

function draw() {
  if (!view) return;
  renderWatch(view, seatsEl, trickEl);
  status.textContent = statusLine(view, watchers);
  root.dataset.seq = String(view.seq);
}

function open() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/watch/${root.dataset.matchId}/`);
  socket.onopen = () => { delay = 1000; };
  socket.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "watch") view = msg.match;
    else if (msg.type === "watchers") watchers = msg.count;
    draw();
  };
  socket.onclose = (ev) => {
    if (ev.code === 4403 || ev.code === 4404 || ev.code === 4401) {
      status.textContent = ev.code === 4403 ? _("A private table's match has no watchers.") : _("No such match.");
      return;
    }
    if (view && view.status !== "active") return; // over: nothing more will come
    setTimeout(open, delay);
    delay = Math.min(delay * 2, 30000);
  };
}

open();
