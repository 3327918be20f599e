// The lobby: open public tables and my open tables, a form to create one; live over /ws/me/.
import { api } from "./api.js";
import { strings, fill, perMove, onUserMessage } from "./social_common.js";

const t = strings();
const list = document.getElementById("table-list");
const form = document.getElementById("new-table-form");

function tableRow(table) {
  const li = document.createElement("li");
  li.className = "table-row";
  li.dataset.testid = `table-${table.id}`;
  const free = table.seats.filter((s) => s.kind === "empty").length;
  const people = table.seats.map((s) => s.kind === "human" ? s.name : s.kind === "bot" ? fill(t.bot, { level: s.bot }) : "—");
  const title = document.createElement("div");
  title.className = "table-title";
  title.innerHTML = `<strong></strong> <span class="tag"></span> <span class="tag"></span> <span class="tag"></span>`;
  title.querySelector("strong").textContent = `#${table.id} · ${table.host}`;
  const tags = title.querySelectorAll(".tag");
  tags[0].textContent = table.visibility === "public" ? t.public : t.private;
  tags[1].textContent = table.rated ? t.rated : t.casual;
  tags[2].textContent = perMove(t, table.move_seconds);
  const who = document.createElement("div");
  who.className = "muted small";
  who.textContent = `${people.join(" · ")} — ${fill(t.seats_free, { n: free })}`;
  const a = document.createElement("a");
  a.className = "btn btn-small";
  a.href = `/tables/${table.id}/`;
  a.textContent = table.member ? t.open : t.join;
  li.append(title, who, a);
  return li;
}

async function load() {
  let tables;
  try {
    tables = await api("/api/tables/");
  } catch (e) {
    list.innerHTML = "<li class='form-error'></li>";
    list.firstChild.textContent = e.message;
    return;
  }
  list.innerHTML = "";
  if (!tables.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t.empty;
    list.appendChild(li);
  }
  tables.forEach((table) => list.appendChild(tableRow(table)));
}

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

let pending = null;
onUserMessage((msg) => {
  if (msg.type !== "lobby") return;
  clearTimeout(pending);
  pending = setTimeout(load, 150); // several changes at once: one refetch
});
load();
