// Chat at a private table's match (the server says so by sending its history, {type: "chat_history"}, on
// connect and resync; no history, no chat). Free text on the match socket: {type: "chat", text} out,
// {type: "chat", message: {id, seat, name, text, at}} in, for every reader (my own lines too). Each line of
// another person has Mute (the same mute as emotes, kept by the server) and Report (an optional reason; one
// report per person and message). On a wide screen the panel sits under the score sheet; elsewhere the "Chat"
// chip, with the number of unread lines, opens it over the top of the table, never over the hand, and while it
// is closed a new line shows for a few seconds in a bubble beside its writer's seat.
import { bound } from "../bound.js";
import { _, fmt } from "../i18n.js";

const MAX = 200;
const KEEP = 200; // lines kept on the page
const BUBBLE_MS = 5000;

export function createChat(app, { send, frame }) {
  const btn = app.querySelector("#chat-btn");
  const badge = btn.querySelector(".chat-unread");
  const panel = app.querySelector("#chat-panel");
  const log = panel.querySelector(".chat-log");
  const mutedBox = panel.querySelector(".chat-muted");
  const note = panel.querySelector(".chat-note");
  const form = panel.querySelector(".chat-form");
  const input = form.querySelector("input");
  const docked = window.matchMedia("(min-width: 1001px) and (min-height: 501px)");
  const lines = new Map(); // id -> message, in order
  let enabled = false;
  let open = false;
  // the newest id read, kept per match on this device: lines written before the page connected (or while it
  // was closed) count as unread too, as in any messenger; a reload after reading them counts none
  const SEEN_KEY = `chat-seen:${location.pathname}`;
  let lastSeen = Number(readSeen()) || 0;
  let muted = new Set(); // seats muted here
  const reported = new Set();

  const isOpen = () => enabled && (docked.matches || open);

  function readSeen() {
    try { return localStorage.getItem(SEEN_KEY); } catch { return null; }
  }

  // counted from the lines themselves, so a muted seat's lines or my own (known once the first frame is in)
  // never count, whatever order the history, the mutes and the first frame arrive in
  function unreadCount() {
    let n = 0;
    for (const m of lines.values()) if (m.id > lastSeen && !mine(m) && !muted.has(m.seat)) n += 1;
    return n;
  }

  function place() {
    app.classList.toggle("has-chat", enabled && docked.matches);
    btn.hidden = !enabled || docked.matches;
    panel.hidden = !isOpen();
    btn.setAttribute("aria-expanded", open ? "true" : "false");
    if (isOpen()) markRead();
    const unread = unreadCount();
    badge.hidden = unread === 0;
    badge.textContent = unread > 9 ? "9+" : String(unread);
    btn.setAttribute("aria-label", unread ? fmt(_("Chat: %(n)s unread"), { n: unread }) : _("Chat"));
  }

  function markRead() {
    const before = lastSeen;
    for (const id of lines.keys()) lastSeen = Math.max(lastSeen, id);
    if (lastSeen === before) return;
    try { localStorage.setItem(SEEN_KEY, String(lastSeen)); } catch { /* private mode: this page only */ }
  }

  function toggle(want) {
    open = want;
    place();
    if (isOpen() && !docked.matches) input.focus();
    if (!want) btn.focus();
  }
  btn.addEventListener("click", () => toggle(!open));
  panel.querySelector(".chat-close").addEventListener("click", () => toggle(false));
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !docked.matches) toggle(false);
  });
  docked.addEventListener("change", place);

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text: text.slice(0, MAX) })) {
      input.value = "";
      note.textContent = "";
    } else {
      note.textContent = _("Not connected: try again in a moment.");
    }
  });
  bound(form);

  const mine = (m) => { const f = frame(); return f && m.seat === f.seat; };

  function line(m) {
    const li = document.createElement("li");
    li.className = "chat-line" + (mine(m) ? " mine" : "");
    li.dataset.id = String(m.id);
    li.dataset.seat = String(m.seat);
    li.dataset.testid = "chat-line";
    const who = document.createElement("span");
    who.className = "chat-who";
    who.textContent = mine(m) ? _("You") : m.name;
    const at = new Date(m.at);
    if (!Number.isNaN(at.getTime())) who.title = at.toLocaleString(document.documentElement.lang || undefined);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = m.text;
    li.append(who, " ", text);
    if (!mine(m)) li.append(actions(m));
    return li;
  }

  function small(label, aria, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "linklike chat-act";
    b.textContent = label;
    b.setAttribute("aria-label", aria);
    b.addEventListener("click", onClick);
    return b;
  }

  function actions(m) {
    const box = document.createElement("span");
    box.className = "chat-acts";
    if (reported.has(m.id)) {
      const done = document.createElement("span");
      done.className = "chat-reported";
      done.textContent = _("Reported");
      box.append(done);
    } else {
      box.append(small(_("Report"), fmt(_("Report this message from %(name)s"), { name: m.name }),
        () => reportForm(m, box)));
    }
    box.append(small(_("Mute"), fmt(_("Mute %(name)s"), { name: m.name }), () => {
      if (!send({ type: "mute", seat: m.seat, muted: true })) note.textContent = _("Not connected: try again in a moment.");
    }));
    return box;
  }

  function reportForm(m, box) {
    const f = document.createElement("form");
    f.className = "chat-report";
    const reason = document.createElement("input");
    reason.type = "text";
    reason.maxLength = MAX;
    reason.placeholder = _("Reason (optional)");
    reason.setAttribute("aria-label", _("Reason (optional)"));
    reason.dataset.testid = "report-reason";
    const go = document.createElement("button");
    go.type = "submit";
    go.className = "btn btn-small";
    go.textContent = _("Send report");
    go.dataset.testid = "report-send";
    const cancel = small(_("Cancel"), _("Cancel"), () => { f.remove(); box.hidden = false; });
    f.append(reason, go, cancel);
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (send({ type: "report", message: m.id, reason: reason.value.trim().slice(0, MAX) })) {
        f.remove();
        box.hidden = false;
      } else {
        note.textContent = _("Not connected: try again in a moment.");
      }
    });
    box.hidden = true;
    box.after(f);
    reason.focus();
  }

  function draw() {
    const shown = [...lines.values()].filter((m) => !muted.has(m.seat));
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
    const have = new Map([...log.children].map((li) => [li.dataset.id, li]));
    const keep = new Set(shown.map((m) => String(m.id)));
    for (const [id, li] of have) if (!keep.has(id)) li.remove();
    let prev = null;
    for (const m of shown) {
      let li = have.get(String(m.id));
      if (!li || !li.isConnected) li = line(m);
      if (prev ? prev.nextSibling !== li : log.firstChild !== li) {
        if (prev) prev.after(li); else log.prepend(li);
      }
      prev = li;
    }
    panel.classList.toggle("empty", shown.length === 0);
    drawMuted();
    if (atBottom || shown.length <= 1) log.scrollTop = log.scrollHeight;
  }

  // "You muted amy. Unmute" for each person muted here who is at this table
  function drawMuted() {
    const f = frame();
    const people = (f && f.seats || []).filter((s) => s.kind === "human" && s.seat !== f.seat && muted.has(s.seat));
    mutedBox.replaceChildren(...people.map((s) => {
      const p = document.createElement("p");
      p.append(fmt(_("You muted %(name)s."), { name: s.name }), " ",
        small(_("Unmute"), fmt(_("Unmute %(name)s"), { name: s.name }), () => send({ type: "mute", seat: s.seat, muted: false })));
      return p;
    }));
  }

  function bubble(m) {
    const seat = app.querySelector(`.seat[data-seat="${Number(m.seat)}"]`);
    if (!seat) return;
    seat.querySelectorAll(".chat-bubble").forEach((b) => b.remove());
    const b = document.createElement("span");
    b.className = "chat-bubble";
    b.dataset.testid = "chat-bubble";
    b.setAttribute("role", "status");
    b.setAttribute("aria-label", fmt(_("%(name)s says: %(text)s"), { name: m.name, text: m.text }));
    b.textContent = m.text;
    seat.appendChild(b);
    app.dataset.chatBubbles = String((Number(app.dataset.chatBubbles) || 0) + 1); // for the browser tests
    setTimeout(() => b.remove(), BUBBLE_MS);
  }

  function add(m, live) {
    if (!m || typeof m.id !== "number" || lines.has(m.id)) return;
    lines.set(m.id, m);
    if (live && !mine(m) && !muted.has(m.seat) && m.id > lastSeen && !isOpen()) bubble(m);
    while (lines.size > KEEP) lines.delete(lines.keys().next().value);
  }

  return {
    update() {
      if (enabled) { drawMuted(); place(); }
    },
    receive(msg) {
      if (msg.type === "chat_history") {
        const first = !enabled;
        enabled = true;
        for (const m of msg.messages || []) add(m, !first);
        draw();
        place();
      } else if (msg.type === "chat") {
        add(msg.message, true);
        draw();
        place();
      } else if (msg.type === "mutes") {
        muted = new Set(msg.seats || []);
        if (enabled) { draw(); place(); }
      } else if (msg.type === "reported") {
        reported.add(msg.message);
        const li = log.querySelector(`.chat-line[data-id="${Number(msg.message)}"]`);
        if (li && lines.has(msg.message)) li.replaceWith(line(lines.get(msg.message)));
        note.textContent = _("Thanks: the moderators will look at it.");
      } else if (msg.type === "error") {
        note.textContent = msg.code === "throttled"
          ? fmt(_("Too many messages: wait %(s)s s."), { s: msg.retry_after || 1 })
          : msg.code === "chat_closed" ? _("You can no longer write in this chat.")
            : msg.code === "text_too_long" ? fmt(_("A message is at most %(n)s characters."), { n: MAX })
              : msg.detail || "";
        if (!docked.matches && enabled) { open = true; place(); }
      }
    },
  };
}
