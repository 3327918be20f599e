// Notices in every open tab (/ws/me/): your turn, reminders, autopilot, a rematch. A your-turn notice
// is not shown on that match's own page, which updates itself.
import { _, fmt } from "./i18n.js";
import { onUserMessage } from "./user_socket.js";

let box = null;

function container() {
  if (!box) {
    box = document.createElement("div");
    box.className = "notice-stack";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    document.body.appendChild(box);
  }
  return box;
}

function text(msg) {
  const id = msg.match_id;
  switch (msg.kind) {
    case "your_turn": return fmt(_("Your turn in match #%(id)s"), { id });
    case "reminder": return fmt(_("Reminder: your move in match #%(id)s is due soon"), { id });
    case "autopilot": return fmt(_("Time ran out: the autopilot moved for you in match #%(id)s"), { id });
    case "handed_over": return fmt(_("A bot now plays your seat in match #%(id)s"), { id });
    case "rematch": return fmt(_("Rematch: the players of match #%(id)s are invited to a new table"), { id });
    default: return null;
  }
}

export function showNotice(msg) {
  const words = text(msg);
  if (!words) return;
  if (msg.kind === "rematch" && location.pathname === `/tables/${msg.table_id}/`) return;
  if (msg.kind !== "rematch" && location.pathname === `/play/${msg.match_id}/` && msg.kind !== "handed_over") return;
  const div = document.createElement("div");
  div.className = `notice-toast ${msg.kind}`;
  div.dataset.testid = "notice";
  const span = document.createElement("span");
  span.textContent = words;
  const a = document.createElement("a");
  a.className = "btn btn-small";
  if (msg.kind === "rematch") {
    // the invitation code lets an invited player see a private table and take a seat
    a.href = msg.code ? `/invite/${encodeURIComponent(msg.code)}/` : `/tables/${encodeURIComponent(msg.table_id)}/`;
    a.textContent = _("Open the table");
  } else {
    a.href = `/play/${encodeURIComponent(msg.match_id)}/`;
    a.textContent = _("Play");
  }
  const x = document.createElement("button");
  x.type = "button";
  x.className = "linklike";
  x.textContent = _("Dismiss");
  x.addEventListener("click", () => div.remove());
  div.append(span, a, x);
  container().appendChild(div);
}

export function startNotices() {
  onUserMessage((msg) => {
    if (msg.type === "notice") showNotice(msg);
  });
}
