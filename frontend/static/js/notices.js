// Notices in every open tab (/ws/me/): your turn, reminders, autopilot. Not shown on that match's page,
// which updates itself.
import { strings, fill, onUserMessage } from "./social_common.js";

const t = strings();
let box = null;

function container() {
  if (!box) {
    box = document.createElement("div");
    box.className = "notice-stack";
    box.setAttribute("aria-live", "polite");
    document.body.appendChild(box);
  }
  return box;
}

onUserMessage((msg) => {
  if (msg.type !== "notice" || !t[msg.kind]) return;
  if (location.pathname === `/play/${msg.match_id}/` && msg.kind === "your_turn") return;
  const div = document.createElement("div");
  div.className = `notice-toast ${msg.kind}`;
  div.dataset.testid = "notice";
  const text = document.createElement("span");
  text.textContent = fill(t[msg.kind], { id: msg.match_id });
  const a = document.createElement("a");
  a.href = `/play/${msg.match_id}/`;
  a.className = "btn btn-small";
  a.textContent = t.play;
  const x = document.createElement("button");
  x.type = "button";
  x.className = "linklike";
  x.textContent = t.dismiss;
  x.addEventListener("click", () => div.remove());
  div.append(text, a, x);
  container().appendChild(div);
});
