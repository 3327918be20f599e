// The per-user socket (/ws/me/), shared by every script of a page: notices, lobby updates and match
// summaries. One socket per tab; it reconnects with backoff and tells listeners each time it opens, the first
// time included (what changed between the page's own fetch and the socket joining its groups was never sent),
// so they can refetch whatever they may have missed.
const listeners = new Set();
const openers = new Set();
let socket = null;
let delay = 1000;
let stopped = false;

function open() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/me/`);
  let wasOpen = false;
  socket.onopen = () => {
    wasOpen = true;
    delay = 1000;
    openers.forEach((fn) => fn());
  };
  socket.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    listeners.forEach((fn) => fn(msg));
  };
  socket.onclose = (ev) => {
    socket = null;
    if (ev.code === 4401 || stopped) return; // signed out: stop
    setTimeout(open, wasOpen ? delay / 2 + Math.random() * delay / 2 : delay);
    delay = Math.min(delay * 2, 30000);
  };
}

export function onUserMessage(fn) {
  listeners.add(fn);
  if (!socket && !stopped) open();
}

// Called each time the socket opens (the first time too, and after a drop): refetch what was missed meanwhile.
// Registered after the first open: called from the next one.
export function onUserSocketOpen(fn) {
  openers.add(fn);
}

window.addEventListener("pagehide", () => { stopped = true; });
