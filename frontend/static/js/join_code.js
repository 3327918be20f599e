// "Join with a code" (home and lobby): the room code a host reads out, sent as typed (the server takes any case,
// spaces and dashes); a seat at its table, then the table's page, as the invitation link leads there.
import { api } from "./api.js";
import { bound } from "./bound.js";
import { _ } from "./i18n.js";

const MESSAGES = {
  bad_code: () => _("A room code has 6 letters and digits, such as ABC 234."),
  no_such_code: () => _("No open table has this code. Check it with the host."),
  table_full: () => _("That table is full."),
  throttled: () => _("Too many tries. Wait a minute, then try again."),
};

for (const form of document.querySelectorAll("[data-join-code]")) {
  const input = form.querySelector("input[name=code]");
  const button = form.querySelector("button[type=submit]");
  const error = form.querySelector(".form-error");
  const show = (message) => {
    error.textContent = message;
    error.hidden = false;
    input.setAttribute("aria-invalid", "true");
  };
  input.addEventListener("input", () => {
    error.hidden = true;
    input.removeAttribute("aria-invalid");
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (button.disabled) return;
    if (!input.value.trim()) {
      show(MESSAGES.bad_code());
      input.focus();
      return;
    }
    button.disabled = true;
    try {
      const table = await api("/api/tables/join-by-code/", { method: "POST", body: { code: input.value } });
      window.location.href = `/tables/${encodeURIComponent(table.id)}/`;
    } catch (e) {
      show((MESSAGES[e.code] || (() => e.message))());
      input.focus();
      button.disabled = false;
    }
  });
  bound(form);
}
