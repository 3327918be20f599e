// "My matches": awaiting my move first, then running (whose turn, time left), then finished.
// Live: rows change as the matches move (/ws/me/), and the time left counts down.
import { _, fmt, formatDateTime, turnEnds } from "./i18n.js";
import { secondsLeft, watchMatches } from "./matches_store.js";
import { levelName, playerName } from "./players.js";
import { tenths } from "./cards.js";

const root = document.getElementById("match-groups");
let current = [];

function row(m) {
  const li = document.createElement("li");
  li.dataset.testid = `match-${m.id}`;
  const a = document.createElement("a");
  const finished = m.status !== "active";
  a.href = m.status === "finished" ? `/replay/${m.id}/` : `/play/${m.id}/`;
  // each opponent with a bot's level and the score so far: "Bot Hari (Hard) 4.2"
  const total = (s) => (m.totals && m.totals[s.seat] != null ? ` ${tenths(m.totals[s.seat])}` : "");
  const opp = (m.seats || []).filter((s) => !s.you)
    .map((s) => playerName(s) + (s.kind === "bot" && s.bot ? ` (${levelName(s.bot)})` : "") + total(s)).join(", ");
  const me = (m.seats || []).find((s) => s.you);
  a.innerHTML = `<span class="who"><strong></strong> <span class="opp"></span></span>` +
    `<span class="meta"><span class="when"></span></span>`;
  a.querySelector("strong").textContent = `#${m.id}`;
  a.querySelector(".opp").textContent = fmt(_("vs %(names)s"), { names: opp });
  if (me && m.totals) {
    const mine = document.createElement("span");
    mine.className = "my-total";
    mine.dataset.testid = "my-total";
    mine.textContent = fmt(_("you: %(total)s"), { total: tenths(m.totals[me.seat]) });
    a.querySelector(".who").append(" · ", mine);
  }
  a.querySelector(".when").textContent = formatDateTime(m.finished_at || m.created_at);
  const meta = a.querySelector(".meta");
  const tag = document.createElement("span");
  tag.className = "tag";
  tag.dataset.testid = "match-state";
  if (m.your_turn) {
    tag.classList.add("await");
    tag.textContent = _("Your move");
  } else if (m.status === "finished") {
    tag.classList.add("done");
    tag.textContent = _("Finished");
  } else if (m.status !== "active") {
    tag.classList.add("done");
    tag.textContent = _("Ended");
  } else {
    const seat = (m.seats || []).find((s) => s.seat === m.turn);
    tag.textContent = seat ? fmt(_("%(name)s to move"), { name: playerName(seat) }) : _("Running");
  }
  meta.appendChild(tag);
  if (m.offline) {
    const off = document.createElement("span");
    off.className = "tag offline";
    off.dataset.testid = "offline-badge";
    off.title = _("Played offline, verified on upload");
    off.textContent = _("offline");
    meta.prepend(off);
  }
  const left = secondsLeft(m);
  if (!finished && left != null) {
    const t = document.createElement("span");
    t.className = "tag time-left" + (m.your_turn ? " mine" : "");
    t.dataset.testid = "time-left";
    t.textContent = turnEnds(left);
    meta.prepend(t);
  }
  li.appendChild(a);
  if (m.status === "finished") {
    const t = document.createElement("a");
    t.href = `/play/${m.id}/`;
    t.className = "sub-link";
    t.textContent = _("Final table");
    li.appendChild(t);
  }
  return li;
}

function render(list, error) {
  current = list;
  if (error && !list.length) {
    root.innerHTML = `<p class="form-error"></p>`;
    root.firstChild.textContent = error.message;
    return;
  }
  const order = (a, b) => (a.your_turn === b.your_turn ? 0 : a.your_turn ? -1 : 1)
    || (secondsLeft(a) ?? Infinity) - (secondsLeft(b) ?? Infinity)
    || String(b.finished_at || b.created_at).localeCompare(String(a.finished_at || a.created_at))
    || b.id - a.id;
  const sorted = [...list].sort(order);
  const groups = [
    ["await", _("Awaiting your move"), sorted.filter((m) => m.status === "active" && m.your_turn)],
    ["running", _("Running"), sorted.filter((m) => m.status === "active" && !m.your_turn)],
    ["finished", _("Finished"), sorted.filter((m) => m.status !== "active")], // finished or aborted
  ];
  const focused = document.activeElement && root.contains(document.activeElement)
    ? document.activeElement.closest("li")?.dataset.testid : null;
  root.innerHTML = "";
  if (!list.length) {
    root.innerHTML = `<p class="empty"></p>`;
    root.firstChild.textContent = _("No matches yet. Start one against three bots!");
    return;
  }
  for (const [key, title, items] of groups) {
    if (!items.length) continue;
    const h = document.createElement("h2");
    h.textContent = `${title} (${items.length})`;
    const ul = document.createElement("ul");
    ul.className = "match-list";
    ul.dataset.group = key;
    items.forEach((m) => ul.appendChild(row(m)));
    root.append(h, ul);
  }
  if (focused) root.querySelector(`[data-testid="${focused}"] a`)?.focus();
}

watchMatches(render);
// the time left counts down between updates
setInterval(() => { if (current.some((m) => m.status === "active" && m.seconds_left != null)) render(current); }, 30000);
