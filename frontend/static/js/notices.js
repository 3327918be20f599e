// Notices in every open tab (/ws/me/): your turn, reminders, autopilot, a rematch. One notice per match:
// a newer one replaces it; it goes away when the turn is taken (the user's matches say it is no longer
// their turn) or when that match's page is opened (in this tab or another: localStorage "cb-seen").
// A your-turn notice is not shown on that match's own page, which updates itself.
import { _, fmt } from "./i18n.js";
import { onUserMessage } from "./user_socket.js";
import { watchMatches } from "./matches_store.js";

let box = null;
const shown = new Map(); // key (match or table) -> {div, kind, matchId}
const TURN_KINDS = new Set(["your_turn", "reminder"]);

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
    case "rematch": return msg.asked_by
      ? fmt(_("%(name)s wants a rematch of match #%(id)s"), { name: msg.asked_by, id })
      : fmt(_("Rematch: the players of match #%(id)s are invited to a new table"), { id });
    case "challenge": return fmt(_("%(name)s challenges you to a match"), { name: msg.asked_by });
    default: return null;
  }
}

const keyOf = (msg) => (msg.kind === "rematch" || msg.kind === "challenge" ? `t${msg.table_id}` : `m${msg.match_id}`);

function dismiss(key) {
  const known = shown.get(key);
  if (!known) return;
  known.div.remove();
  shown.delete(key);
}

export function showNotice(msg) {
  const words = text(msg);
  if (!words) return;
  // a rematch is answered on the finished match's end dialog: no notice on that page
  if (location.pathname === `/play/${msg.match_id}/` && msg.kind !== "handed_over") return;
  const key = keyOf(msg);
  const div = document.createElement("div");
  div.className = `notice-toast ${msg.kind}`;
  div.dataset.testid = "notice";
  div.dataset.key = key;
  const span = document.createElement("span");
  span.textContent = words;
  const a = document.createElement("a");
  a.className = "btn btn-small";
  if (msg.kind === "challenge") {
    // a friend's private table, a seat there waiting for this person
    a.href = `/tables/${encodeURIComponent(msg.table_id)}/`;
    a.textContent = _("Answer");
  } else if (msg.kind === "rematch") {
    // answered (yes / no) on the end dialog of the finished match
    a.href = `/play/${encodeURIComponent(msg.match_id)}/`;
    a.textContent = _("Answer");
  } else {
    a.href = `/play/${encodeURIComponent(msg.match_id)}/`;
    a.textContent = _("Play");
  }
  const x = document.createElement("button");
  x.type = "button";
  x.className = "linklike";
  x.textContent = _("Dismiss");
  x.addEventListener("click", () => dismiss(key));
  div.append(span, a, x);
  const old = shown.get(key);
  if (old) old.div.replaceWith(div);
  else container().appendChild(div);
  shown.set(key, { div, kind: msg.kind, matchId: msg.match_id, at: Date.now() });
}

// The match's page was opened (here or in another tab): its notice is read.
export function markSeen(matchId) {
  dismiss(`m${matchId}`);
  try {
    localStorage.setItem("cb-seen", JSON.stringify({ id: matchId, at: Date.now() }));
  } catch { /* storage off */ }
}

export function startNotices() {
  onUserMessage((msg) => {
    if (msg.type === "notice") showNotice(msg);
  });
  window.addEventListener("storage", (ev) => {
    if (ev.key !== "cb-seen" || !ev.newValue) return;
    try {
      dismiss(`m${JSON.parse(ev.newValue).id}`);
    } catch { /* not ours */ }
  });
  watchMatches((list) => {
    for (const m of list) {
      const known = shown.get(`m${m.id}`);
      // only a summary received after the notice tells that the turn was taken
      if (known && TURN_KINDS.has(known.kind) && (m.received || 0) >= known.at
          && !(m.status === "active" && m.your_turn)) dismiss(`m${m.id}`);
    }
  });
  const here = location.pathname.match(/^\/play\/(\d+)\/$/);
  if (here) markSeen(here[1]);
}
