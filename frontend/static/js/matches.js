// "My matches": awaiting my move first, then running, then finished.
import { api } from "./api.js";
import { _, fmt } from "./i18n.js";
import { strings, fill } from "./social_common.js";

const root = document.getElementById("match-groups");

function row(m) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  const finished = m.status === "finished";
  a.href = finished ? `/replay/${m.id}/` : `/play/${m.id}/`;
  const opp = (m.seats || []).filter((s) => !s.you).map((s) => s.name).join(", ");
  const when = new Date(m.finished_at || m.created_at);
  const tag = m.your_turn ? ["await", _("Your move")] : finished ? ["done", _("Finished")] : ["", _("Running")];
  a.innerHTML = `<span><strong>#${m.id}</strong> <span class="opp"></span></span>` +
    `<span class="meta"><span class="when"></span> <span class="tag ${tag[0]}">${tag[1]}</span></span>`;
  a.querySelector(".opp").textContent = fmt(_("vs %(names)s"), { names: opp });
  a.querySelector(".when").textContent = isNaN(when) ? "" : when.toLocaleString();
  if (m.your_turn && m.seconds_left != null) {
    // correspondence: the time left for my move (Intl words it in the page's language)
    const rtf = new Intl.RelativeTimeFormat(document.documentElement.lang || "en", { numeric: "auto" });
    const s = m.seconds_left;
    const [n, unit] = s >= 86400 ? [s / 86400, "day"] : s >= 3600 ? [s / 3600, "hour"] : [s / 60, "minute"];
    const left = document.createElement("span");
    left.className = "tag time-left";
    left.dataset.testid = "time-left";
    left.textContent = fill(strings().due || "%(when)s", { when: rtf.format(Math.max(0, Math.round(n)), unit) });
    a.querySelector(".meta").prepend(left);
  }
  li.appendChild(a);
  if (finished) {
    const t = document.createElement("a");
    t.href = `/play/${m.id}/`;
    t.className = "sub-link";
    t.textContent = _("Final table");
    li.appendChild(t);
  }
  return li;
}

async function load() {
  let list;
  try {
    list = await api("/api/matches/");
  } catch (e) {
    root.innerHTML = `<p class="form-error"></p>`;
    root.firstChild.textContent = e.message;
    return;
  }
  const groups = [
    [_("Awaiting your move"), list.filter((m) => m.your_turn)],
    [_("Running"), list.filter((m) => !m.your_turn && m.status === "active")],
    [_("Finished"), list.filter((m) => m.status !== "active")],  // finished or aborted
  ];
  root.innerHTML = "";
  if (!list.length) {
    root.innerHTML = `<p class="empty"></p>`;
    root.firstChild.textContent = _("No matches yet. Start one against three bots!");
    return;
  }
  for (const [title, items] of groups) {
    if (!items.length) continue;
    const h = document.createElement("h2");
    h.textContent = `${title} (${items.length})`;
    const ul = document.createElement("ul");
    ul.className = "match-list";
    items.forEach((m) => ul.appendChild(row(m)));
    root.append(h, ul);
  }
}
load();
