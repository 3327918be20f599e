// The fair-deal check, in the browser: the revealed seed's SHA-256 against the commitment shown before the
// match, the first dealer and every deal's hands dealt again from the seed; each check a line ✔ or ✘.
import { _, fmt } from "../i18n.js";
import { dealHands, firstDealer, hasWebCrypto, hex, sha256 } from "../sha256.js";

/** createVerify(app, state) -> { show() }: `show` writes the seed and its commitment once loaded. */
export function createVerify(app, state) {
  const $ = (s) => app.querySelector(s);

  async function verify(doc) {
    const out = $(".verify-result");
    out.innerHTML = "";
    const line = (ok, text) => {
      const li = document.createElement("li");
      li.className = ok ? "verify-ok" : "verify-bad";
      li.textContent = (ok ? "✔ " : "✘ ") + text;
      out.appendChild(li);
      return ok;
    };
    if (!hasWebCrypto()) line(true, _("Web Crypto is not available here; using the built-in SHA-256."));
    const digest = hex(await sha256(doc.seed));
    const ok = line(digest === String(doc.seed_commitment).toLowerCase(),
      digest === String(doc.seed_commitment).toLowerCase()
        ? _("The seed matches the commitment.")
        : fmt(_("The seed does NOT match the commitment (SHA-256 is %(d)s)."), { d: digest }));
    out.dataset.ok = ok ? "1" : "0";
    let allDeals = true;
    const fd = await firstDealer(doc.seed);
    allDeals = line(fd === doc.first_dealer && fd === doc.deals[0].dealer,
      fd === doc.first_dealer ? _("The first dealer comes from the seed.") : _("The first dealer does not come from the seed.")) && allDeals;
    for (const deal of doc.deals) {
      const hands = await dealHands(doc.seed, deal.number, deal.dealer);
      const same = hands.every((h, s) => h.join(" ") === deal.hands[s].join(" "));
      allDeals = line(same, same
        ? fmt(_("Deal %(n)s: every hand comes from the seed."), { n: deal.number })
        : fmt(_("Deal %(n)s: the hands do NOT come from the seed."), { n: deal.number })) && allDeals;
    }
    out.dataset.deals = allDeals ? "1" : "0";
  }

  function show() {
    for (const el of app.querySelectorAll(".seed")) el.textContent = state.doc.seed;
    for (const el of app.querySelectorAll(".commitment")) el.textContent = state.doc.seed_commitment;
  }

  $("#verify-btn").addEventListener("click", () => { if (state.doc) verify(state.doc); });

  return { show };
}
