// A table before its match: seats, join / leave, the host fills bots and starts; live over /ws/me/.
import { api } from "./api.js";
import { _, fmt, perMove } from "./i18n.js";
import { botSeatLabel } from "./players.js";
import { onUserMessage, onUserSocketReopen } from "./user_socket.js";

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

const post = (path, body) => api(`/api/tables/${tableId}/${path}`, { method: "POST", body: body || {} });

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
      render(await post(`seats/${seat}/invite/`, { username: input.value.trim() }));
    } catch (e) {
      showError(e.message);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

let leaving = false; // one navigation only: the start answer and the socket message may both say "started"

function render(table) {
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
      li.appendChild(button(_("Sit here"), `sit-${s.seat}`, async () => render(await post("join/", { seat: s.seat, code }))));
    }
    if (s.kind === "empty" && table.you_host) {
      li.appendChild(inviteForm(s.seat));
    }
    if (s.kind === "invited" && table.you_host) {
      li.appendChild(button(_("Cancel invitation"), `uninvite-${s.seat}`, async () => render(await post(`seats/${s.seat}/clear/`)), "linklike"));
    }
    if (s.kind === "bot" && table.you_host) {
      li.appendChild(button(_("Remove bot"), `unbot-${s.seat}`, async () => render(await post(`seats/${s.seat}/clear/`)), "linklike"));
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
      actions.appendChild(button(_("Fill empty seats with bots"), "fill-bots", async () => render(await post("bots/", { bot: select.value }))));
    } else if (table.seats.some((s) => s.kind === "invited")) {
      const wait = document.createElement("span");
      wait.className = "muted";
      wait.dataset.testid = "waiting-bot";
      wait.textContent = _("Waiting for the invited bot account to answer.");
      actions.appendChild(wait);
    } else {
      actions.appendChild(button(_("Start the match"), "start", async () => render(await post("start/"))));
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
    render(await api(url));
  } catch (e) {
    showError(e.message);
  }
}

onUserMessage((msg) => {
  if (msg.type === "lobby" && String(msg.table_id) === String(tableId)) load();
});
onUserSocketReopen(() => load());
load();
