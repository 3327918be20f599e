import { createMatch } from "./api.js";
import { _ } from "./i18n.js";

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
