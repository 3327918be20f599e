// A table before its match: seats, join / leave, the host fills bots and starts; live over /ws/me/.
import { api } from "./api.js";
import { _, fmt, perMove } from "./i18n.js";
import { botSeatLabel } from "./players.js";
import { onUserMessage, onUserSocketOpen } from "./user_socket.js";

const root = document.getElementById("table-room");
const tableId = root.dataset.tableId;
const code = root.dataset.code || "";
const url = `/api/tables/${tableId}/` + (code ? `?code=${encodeURIComponent(code)}` : "");

function button(label, testid, onClick, cls = "btn btn-small") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.dataset.testid = testid;
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await onClick();
    } catch (e) {
      showError(e.message);
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

function showError(message) {
  let p = root.querySelector(".form-error");
  if (!p) {
    p = document.createElement("p");
    p.className = "form-error";
    p.setAttribute("role", "alert");
    root.appendChild(p);
  }
  p.textContent = message;
}

// Each answer is the whole table; answers can come back out of order (a socket-driven refetch beside a tap), so
// only the answer to the latest request is drawn: an older one would bring back a button already gone.
let asked = 0;
let drawn = 0;
async function latest(request) {
  const n = ++asked;
  const table = await request;
  if (n > drawn) {
    drawn = n;
    render(table);
  }
}
const post = (path, body) => latest(api(`/api/tables/${tableId}/${path}`, { method: "POST", body: body || {} }));

// The host invites a bot account (a program playing through the Bot API) by name to an empty seat.
function inviteForm(seat) {
  const form = document.createElement("form");
  form.className = "invite-bot";
  const input = document.createElement("input");
  input.name = "username";
  input.required = true;
  input.autocomplete = "off";
  input.placeholder = _("Bot account name");
  input.setAttribute("aria-label", _("Bot account name"));
  input.dataset.testid = `invite-name-${seat}`;
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.className = "btn btn-small btn-ghost";
  submit.textContent = _("Invite a bot account");
  submit.dataset.testid = `invite-${seat}`;
  form.append(input, submit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    try {
      await post(`seats/${seat}/invite/`, { username: input.value.trim() });
    } catch (e) {
      showError(e.message);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

// A private table's room code, big and in two groups ("ABC DEF"), with Share: the system's share sheet
// (navigator.share) with a ready text for messaging apps, else that text copied, and "Copied" shown.
const grouped = (roomCode) => `${roomCode.slice(0, 3)} ${roomCode.slice(3)}`;

function shareText(table) {
  const site = (document.querySelector(".brand-name")?.textContent || "").trim() || "Call Break";
  const link = `${location.origin}/invite/${table.invite_code}/`;
  return fmt(_("Play %(site)s with me! Room code: %(code)s. Type it under “Join with a code”, or open %(link)s"),
    { site, code: grouped(table.room_code), link });
}

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea"); // plain http: the older way
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "sr-only";
  document.body.appendChild(area);
  area.select();
  const done = document.execCommand("copy");
  area.remove();
  if (!done) throw new Error(_("Could not copy; select the link below and copy it."));
}

// What Share last said ("Copied…"): the room is drawn again at every change (a seat taken, presence, the poll), and
// the word must outlive it; the answer of a copy that ends after a redraw goes to the status on screen, not to the
// one drawn before.
let shareNote = "";
function noteShare(text) {
  shareNote = text;
  const status = root.querySelector("[data-testid=share-status]");
  if (status) status.textContent = text;
}

function roomCodeBox(table) {
  const box = document.createElement("section");
  box.className = "room-code-box";
  box.dataset.testid = "room-code-box";
  box.setAttribute("aria-labelledby", "room-code-label");
  const label = document.createElement("p");
  label.id = "room-code-label";
  label.className = "room-code-label";
  label.textContent = _("Room code");
  const code = document.createElement("p");
  code.className = "room-code";
  code.dataset.testid = "room-code";
  code.dataset.code = table.room_code;
  code.setAttribute("translate", "no");
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = grouped(table.room_code);
  const spoken = document.createElement("span");
  spoken.className = "sr-only";
  spoken.textContent = table.room_code.split("").join(" "); // read out one character at a time
  code.append(shown, spoken);
  const row = document.createElement("div");
  row.className = "room-code-actions";
  const status = document.createElement("span");
  status.className = "room-code-status";
  status.setAttribute("role", "status");
  status.dataset.testid = "share-status";
  status.textContent = shareNote;
  const share = document.createElement("button");
  share.type = "button";
  share.className = "btn";
  share.dataset.testid = "share";
  share.textContent = _("Share");
  share.addEventListener("click", async () => {
    const text = shareText(table);
    noteShare("");
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ text });
        return;
      } catch (e) {
        if (e && e.name === "AbortError") return; // the person closed the share sheet
      }
    }
    try {
      await copyText(text);
      noteShare(_("Copied: paste it into a message."));
    } catch (e) {
      showError(e.message);
    }
  });
  row.append(share, status);
  const hint = document.createElement("p");
  hint.className = "muted small room-code-hint";
  hint.textContent = _("Friends type this code under “Join with a code” on the home page or in the lobby.");
  box.append(label, code, row, hint);
  return box;
}

let leaving = false; // one navigation only: the start answer and the socket message may both say "started"

// The room is drawn again at every change (someone sits, a bot is added, presence): a bot account's name being
// typed stays as it was, and where the cursor was.
function render(table) {
  const typed = new Map();
  let focused = null;
  for (const input of root.querySelectorAll("form.invite-bot input")) {
    typed.set(input.dataset.testid, input.value);
    if (document.activeElement === input) focused = [input.dataset.testid, input.selectionStart, input.selectionEnd];
  }
  draw(table);
  for (const input of root.querySelectorAll("form.invite-bot input")) {
    if (typed.get(input.dataset.testid)) input.value = typed.get(input.dataset.testid);
    if (focused && focused[0] === input.dataset.testid) {
      input.focus();
      input.setSelectionRange(focused[1], focused[2]);
    }
  }
}

function draw(table) {
  if (leaving) return;
  if (table.match_id) {
    leaving = true;
    location.href = `/play/${table.match_id}/`;
    return;
  }
  root.innerHTML = "";
  const head = document.createElement("p");
  head.className = "table-title";
  head.textContent = [table.visibility === "public" ? _("Public") : _("Private"), table.rated ? _("Rated") : _("Casual"),
    perMove(table.move_seconds)].join(" · ");
  root.appendChild(head);
  if (table.status !== "open") {
    const p = document.createElement("p");
    p.className = "empty";
    p.textContent = _("This table is no longer open.");
    root.appendChild(p);
    return;
  }
  if (table.room_code && table.invite_code) root.appendChild(roomCodeBox(table));
  const seated = table.seats.some((s) => s.you);
  const ul = document.createElement("ul");
  ul.className = "seat-list";
  for (const s of table.seats) {
    const li = document.createElement("li");
    li.className = `seat-slot ${s.kind}`;
    li.dataset.testid = `seat-${s.seat}`;
    const name = document.createElement("span");
    name.textContent = s.kind === "human" ? s.name + (s.you ? ` (${_("you")})` : "") + (s.name === table.host ? ` · ${_("host")}` : "")
      : s.kind === "bot" ? botSeatLabel(s.bot)
      : s.kind === "invited" ? fmt(_("%(name)s (invited, waiting for its answer)"), { name: s.invited }) : _("Open seat");
    li.appendChild(name);
    if (s.bot_account) {
      const badge = document.createElement("span");
      badge.className = "badge badge-program";
      badge.dataset.testid = `bot-account-${s.seat}`;
      badge.title = _("A program playing through the Bot API (not a house bot)");
      badge.textContent = _("BOT API");
      li.appendChild(badge);
    }
    if (s.kind === "empty" && !seated) {
      li.appendChild(button(_("Sit here"), `sit-${s.seat}`, async () => await post("join/", { seat: s.seat, code })));
    }
    if (s.kind === "empty" && table.you_host) {
      li.appendChild(inviteForm(s.seat));
    }
    if (s.kind === "invited" && s.invited_you) { // a friend's challenge: take the seat, or leave it
      li.appendChild(button(_("Accept"), `accept-${s.seat}`, async () => await post("join/", { seat: s.seat, code })));
      li.appendChild(button(_("Decline"), `decline-${s.seat}`, async () => { await post("invitation/", { accept: false }); leaving = true; location.href = "/friends/"; }, "linklike"));
    }
    if (s.kind === "invited" && table.you_host) {
      li.appendChild(button(_("Cancel invitation"), `uninvite-${s.seat}`, async () => await post(`seats/${s.seat}/clear/`), "linklike"));
    }
    if (s.kind === "bot" && table.you_host) {
      li.appendChild(button(_("Remove bot"), `unbot-${s.seat}`, async () => await post(`seats/${s.seat}/clear/`), "linklike"));
    }
    ul.appendChild(li);
  }
  root.appendChild(ul);
  const actions = document.createElement("div");
  actions.className = "room-actions";
  if (seated) actions.appendChild(button(_("Leave"), "leave", async () => { await post("leave/"); leaving = true; location.href = "/lobby/"; }, "btn btn-small btn-ghost"));
  if (table.you_host) {
    const tools = document.getElementById("room-tools").content.cloneNode(true);
    const select = tools.querySelector("select");
    actions.appendChild(tools);
    if (table.seats.some((s) => s.kind === "empty")) {
      actions.appendChild(button(_("Fill empty seats with bots"), "fill-bots", async () => await post("bots/", { bot: select.value })));
    } else if (table.seats.some((s) => s.kind === "invited")) {
      const wait = document.createElement("span");
      wait.className = "muted";
      wait.dataset.testid = "waiting-bot";
      wait.textContent = _("Waiting for the invited bot account to answer.");
      actions.appendChild(wait);
    } else {
      actions.appendChild(button(_("Start the match"), "start", async () => await post("start/")));
    }
  }
  root.appendChild(actions);
  if (table.invite_code) {
    const link = `${location.origin}/invite/${table.invite_code}/`;
    const box = document.createElement("p");
    box.className = "invite-box";
    box.innerHTML = "<label for='invite-link'></label> <input id='invite-link' readonly> ";
    box.firstChild.textContent = _("Invitation link");
    box.querySelector("input").value = link;
    box.appendChild(button(_("Copy"), "copy-invite", async () => {
      await navigator.clipboard?.writeText(link);
      box.lastChild.textContent = _("Copied");
    }, "chip-btn"));
    root.appendChild(box);
  }
}

async function load() {
  try {
    await latest(api(url));
  } catch (e) {
    showError(e.message);
  }
}

onUserMessage((msg) => {
  if (msg.type === "lobby" && String(msg.table_id) === String(tableId)) load();
});
onUserSocketOpen(() => load());
load();
// A word on /ws/me/ that never came (a lost message; a reconnection asks again by itself) must not leave a person in
// the room of a table that started: while the page is seen, it asks again now and then.
setInterval(() => { if (document.visibilityState === "visible" && !leaving) load(); }, 8000);
