// On the card table of a timed (correspondence) match: the time left for the current turn and a
// Resign button. Reads the same view as table.js (/api/matches/{id}/) and refreshes every 20 s.
import { api } from "./api.js";
import { strings, fill } from "./social_common.js";

const t = strings();
const app = document.getElementById("table-app");
const statusbar = app && app.querySelector(".statusbar");
const matchId = app && app.dataset.matchId;

function timeLeft(seconds) {
  const rtf = new Intl.RelativeTimeFormat(document.documentElement.lang || "en", { numeric: "auto" });
  if (seconds >= 86400) return rtf.format(Math.round(seconds / 86400), "day");
  if (seconds >= 3600) return rtf.format(Math.round(seconds / 3600), "hour");
  if (seconds >= 60) return rtf.format(Math.round(seconds / 60), "minute");
  return rtf.format(seconds, "second");
}

let bar = null;
let chip = null;
let resign = null;
let ticker = null;

function render(view) {
  if (!view.move_seconds) return; // a match against bots: no clock
  if (!chip) {
    bar = document.createElement("div");
    bar.className = "corr-bar";
    chip = document.createElement("span");
    chip.className = "deadline-chip";
    chip.dataset.testid = "deadline";
    resign = document.createElement("button");
    resign.type = "button";
    resign.className = "btn btn-small btn-ghost";
    resign.dataset.testid = "resign";
    resign.textContent = t.resign;
    resign.addEventListener("click", async () => {
      if (!window.confirm(t.resign_confirm)) return;
      resign.disabled = true;
      try {
        render(await api(`/api/matches/${matchId}/resign/`, { method: "POST" }));
      } catch (e) {
        resign.disabled = false;
        window.alert(e.message);
      }
    });
    bar.append(chip, resign);
    statusbar.before(bar);
  }
  const me = (view.seats || []).find((s) => s.you);
  resign.hidden = view.status !== "active" || !me || me.autopilot;
  clearInterval(ticker);
  if (view.status !== "active" || !view.deadline) {
    chip.hidden = true;
    return;
  }
  const due = Date.now() + view.seconds_left * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((due - Date.now()) / 1000));
    chip.textContent = fill(t.due, { when: timeLeft(left) });
    chip.classList.toggle("mine", !!view.your_turn);
    chip.title = new Date(view.deadline).toLocaleString();
  };
  chip.hidden = false;
  tick();
  ticker = setInterval(tick, 1000);
}

async function refresh() {
  try {
    render(await api(`/api/matches/${matchId}/`));
  } catch {
    /* table.js shows connection problems */
  }
}

if (statusbar && matchId) {
  refresh();
  setInterval(refresh, 20000);
}
