// Shared by the lobby, the table room and the notice toasts: translated strings from the page,
// a tiny formatter and the per-user socket (/ws/me/) that reconnects after drops.
export function strings() {
  const el = document.getElementById("lobby-strings") || document.getElementById("social-strings");
  try {
    return el ? JSON.parse(el.textContent) : {};
  } catch {
    return {};
  }
}
export const fill = (s, obj) => String(s || "").replace(/%\((\w+)\)s/g, (m, k) => (k in obj ? obj[k] : m));

export function perMove(t, seconds) {
  return seconds < 86400 ? fill(t.live, { s: seconds }) : fill(t.days, { d: seconds / 86400 });
}

const listeners = new Set();
let socket = null;
let delay = 1000;

function open() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/me/`);
  socket.onopen = () => { delay = 1000; };
  socket.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    listeners.forEach((fn) => fn(msg));
  };
  socket.onclose = (ev) => {
    if (ev.code === 4401) return; // signed out: stop
    setTimeout(open, delay);
    delay = Math.min(delay * 2, 30000);
  };
}

export function onUserMessage(fn) {
  listeners.add(fn);
  if (!socket) open();
}
