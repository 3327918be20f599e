// Emotes at a table with other people: a fixed set (no free text), sent on the match socket, shown beside the
// sender's seat for a few seconds on every page of the match; "Mute <name>" hides a person's emotes (kept by
// the server, at every table). The server limits how many a person sends; a refusal shows in the panel.
import { _, fmt } from "../i18n.js";

const SHOW_MS = 3500;

// The fixed set: the server's games.tabletalk.commands.EMOTES, each drawn and named here.
const EMOTES = [
  ["hello", "👋", () => _("Hello")],
  ["well_played", "👏", () => _("Well played")],
  ["thanks", "🙏", () => _("Thanks")],
  ["oops", "😅", () => _("Oops")],
  ["wow", "😮", () => _("Wow")],
  ["thinking", "🤔", () => _("Thinking")],
];

export function createEmotes(app, { send, frame }) {
  const btn = app.querySelector("#emote-btn");
  const panel = app.querySelector("#emote-panel");
  const grid = panel.querySelector(".emote-grid");
  const mutesBox = panel.querySelector(".emote-mutes");
  const note = panel.querySelector(".emote-note");
  let muted = new Set(); // seats muted here
  let peopleKey = "";

  for (const [key, glyph, label] of EMOTES) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "emote-choice";
    b.dataset.emote = key;
    b.textContent = glyph;
    b.title = label();
    b.setAttribute("aria-label", label());
    b.addEventListener("click", () => {
      note.textContent = send({ type: "emote", emote: key }) ? "" : _("Not connected: try again in a moment.");
      if (!note.textContent) toggle(false);
    });
    grid.appendChild(b);
  }

  function toggle(open) {
    panel.hidden = !open;
    btn.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) grid.querySelector("button").focus();
  }
  btn.addEventListener("click", () => toggle(panel.hidden));
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      toggle(false);
      btn.focus();
    }
  });

  const seatEl = (seat) => app.querySelector(`.seat[data-seat="${seat}"]`);

  function show(seat, key) {
    const found = EMOTES.find((e) => e[0] === key);
    const el = seatEl(seat);
    if (!found || !el) return;
    el.querySelectorAll(".emote-bubble").forEach((b) => b.remove());
    const bubble = document.createElement("span");
    bubble.className = "emote-bubble";
    bubble.dataset.testid = "emote-bubble";
    bubble.setAttribute("role", "img");
    bubble.setAttribute("aria-label", found[2]());
    bubble.textContent = found[1];
    el.appendChild(bubble);
    setTimeout(() => bubble.remove(), SHOW_MS);
  }

  // "Mute <name>" for each other person at the table
  function drawMutes(f) {
    const others = (f.seats || []).filter((s) => s.kind === "human" && s.seat !== f.seat);
    const key = others.map((s) => `${s.seat}:${s.name}:${muted.has(s.seat)}`).join("|");
    if (key === peopleKey) return;
    peopleKey = key;
    mutesBox.replaceChildren(...others.map((s) => {
      const label = document.createElement("label");
      label.className = "check emote-mute";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = muted.has(s.seat);
      box.dataset.seat = String(s.seat);
      box.addEventListener("change", () => {
        if (!send({ type: "mute", seat: s.seat, muted: box.checked })) box.checked = !box.checked;
      });
      label.append(box, " ", fmt(_("Mute %(name)s"), { name: s.name }));
      return label;
    }));
  }

  return {
    update(f) {
      const others = (f.seats || []).some((s) => s.kind === "human" && s.seat !== f.seat);
      btn.hidden = !others; // against bots only: nobody to react to
      if (btn.hidden) toggle(false);
      else drawMutes(f);
    },
    receive(msg) {
      if (msg.type === "emote") show(msg.seat, msg.emote);
      else if (msg.type === "mutes") {
        muted = new Set(msg.seats || []);
        mutesBox.dataset.muted = [...muted].join(","); // what the server keeps
        peopleKey = "";
        const f = frame();
        if (f) drawMutes(f);
      } else if (msg.type === "error") {
        note.textContent = msg.code === "throttled"
          ? fmt(_("Too many reactions: wait %(s)s s."), { s: msg.retry_after || 1 }) : msg.detail || "";
        panel.hidden = false;
      }
    },
  };
}
