// The per-user socket (/ws/me/), shared by every script of a page: notices, lobby updates and match
// summaries. One socket per tab; it reconnects with backoff and tells listeners when it is (re)opened,
// so they can refetch whatever they may have missed.
const listeners = new Set();
const reopeners = new Set();
let opens = 0;
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
    opens += 1;
    if (opens > 1) reopeners.forEach((fn) => fn());
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

// Called when the socket is back after a drop (not on the first connection): refetch what was missed.
export function onUserSocketReopen(fn) {
  reopeners.add(fn);
}

window.addEventListener("pagehide", () => { stopped = true; });
