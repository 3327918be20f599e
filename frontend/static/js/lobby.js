// The lobby: open public tables and my open tables, a form to create one; live over /ws/me/.
import { api } from "./api.js";
import { bound } from "./bound.js";
import { _, fmt, ngettext, perMove } from "./i18n.js";
import { botSeatLabel } from "./players.js";
import { onUserMessage, onUserSocketOpen } from "./user_socket.js";

const list = document.getElementById("table-list");
const form = document.getElementById("new-table-form");

function tableRow(table) {
  const li = document.createElement("li");
  li.className = "table-row";
  li.dataset.testid = `table-${table.id}`;
  const free = table.seats.filter((s) => s.kind === "empty").length;
  const people = table.seats.map((s) => s.kind === "human" ? s.name : s.kind === "bot" ? botSeatLabel(s.bot) : "—");
  const title = document.createElement("div");
  title.className = "table-title";
  title.innerHTML = `<strong></strong> <span class="tag"></span> <span class="tag"></span> <span class="tag"></span>`;
  title.querySelector("strong").textContent = `#${table.id} · ${table.host}`;
  const tags = title.querySelectorAll(".tag");
  tags[0].textContent = table.visibility === "public" ? _("Public") : _("Private");
  tags[1].textContent = table.rated ? _("Rated") : _("Casual");
  tags[2].textContent = perMove(table.move_seconds);
  const who = document.createElement("div");
  who.className = "muted small";
  who.textContent = `${people.join(" · ")} — ${fmt(ngettext("%(n)s open seat", "%(n)s open seats", free), { n: free })}`;
  const a = document.createElement("a");
  a.className = "btn btn-small";
  a.href = `/tables/${table.id}/`;
  a.textContent = table.member ? _("Open") : _("Join");
  li.append(title, who, a);
  return li;
}

const PAGE = 50; // the API's page: a full page means there may be more
const more = document.createElement("button");
more.type = "button";
more.className = "btn btn-small";
more.dataset.testid = "more-tables";
more.textContent = _("More tables");
more.hidden = true;
list.after(more);

async function fetchPage(before) {
  const query = before ? `?limit=${PAGE}&before=${before}` : `?limit=${PAGE}`;
  return api(`/api/tables/${query}`);
}

function showMore(tables) {
  more.hidden = tables.length < PAGE;
  more.dataset.before = tables.length ? String(tables[tables.length - 1].id) : "";
}

async function load() {
  let tables;
  try {
    tables = await fetchPage(null);
  } catch (e) {
    list.innerHTML = "<li class='form-error'></li>";
    list.firstChild.textContent = e.message;
    more.hidden = true;
    return;
  }
  list.innerHTML = "";
  if (!tables.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = _("No open tables. Create one!");
    list.appendChild(li);
  }
  tables.forEach((table) => list.appendChild(tableRow(table)));
  showMore(tables);
}

more.addEventListener("click", async () => {
  more.disabled = true;
  try {
    const tables = await fetchPage(more.dataset.before);
    tables.forEach((table) => list.appendChild(tableRow(table)));
    showMore(tables);
  } catch (e) {
    more.textContent = e.message;
  } finally {
    more.disabled = false;
  }
});

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = form.querySelector(".form-error");
  err.hidden = true;
  const body = {
    visibility: form.visibility.value,
    move_seconds: Number(form.move_seconds.value),
    rated: form.rated.checked,
  };
  try {
    const table = await api("/api/tables/", { method: "POST", body });
    location.href = `/tables/${table.id}/`;
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
});
bound(form);

let pending = null;
onUserMessage((msg) => {
  if (msg.type !== "lobby") return;
  clearTimeout(pending);
  pending = setTimeout(load, 150); // several changes at once: one refetch
});
onUserSocketOpen(() => load());
load();
