// The match's facts around the table: which deal and trick it is, the Last trick button (enabled once
// there is one, pressed while shown), and the seed's commitment (the seed itself once the match is over).
import { _, fmt } from "../i18n.js";

export function createInfo(app, ui) {
  const $ = (sel) => app.querySelector(sel);

  function render(f) {
    $(".deal-no").textContent = fmt(_("Deal %(n)s of 5"), { n: f.deal_number || 5 });
    $(".trick-no").textContent = f.phase === "playing" ? fmt(_("Trick %(n)s of 13"), { n: f.trick_number || 1 }) : "";
    const lastBtn = $("#last-trick-btn");
    lastBtn.disabled = !f.last_trick;
    lastBtn.setAttribute("aria-pressed", ui.showLast && f.last_trick ? "true" : "false");
    for (const el of app.querySelectorAll(".commitment")) el.textContent = f.seed_commitment || "";
    for (const el of app.querySelectorAll(".seed")) el.textContent = f.seed || "";
    $(".seed-line").hidden = !f.seed;
  }

  return { render };
}
