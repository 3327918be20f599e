import { api, createMatch } from "./api.js";
import { _, fmt } from "./i18n.js";

const form = document.getElementById("new-match-form");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const btn = form.querySelector("button[type=submit]");
    const err = form.querySelector(".form-error");
    if (btn.disabled) return;
    btn.disabled = true;
    err.hidden = true;
    try {
      const bot = (form.querySelector("[name=bot]") || {}).value || "";
      const view = await createMatch(bot);
      if (bot) sessionStorage.setItem("cb-bot-level", bot);
      else sessionStorage.removeItem("cb-bot-level");
      window.location.href = `/play/${encodeURIComponent(view.id)}/`;
    } catch (e) {
      err.textContent = e.message || _("Could not start a match.");
      err.hidden = false;
      btn.disabled = false;
    }
  });
}

// A running match? Offer to continue it (the one awaiting my move first).
const cont = document.getElementById("continue-match");
if (cont) {
  api("/api/matches/").then((list) => {
    const m = (list || []).find((x) => x.status !== "finished");
    if (!m) return;
    const a = cont.querySelector("a");
    a.href = `/play/${encodeURIComponent(m.id)}/`;
    a.textContent = m.your_turn
      ? fmt(_("Continue match #%(id)s: your move"), { id: m.id })
      : fmt(_("Continue match #%(id)s"), { id: m.id });
    cont.hidden = false;
  }).catch(() => {});
}
