// The four seats: each one's name plate (name, badge, tricks won / bid, running total, dealer chip), whose
// turn it is, the winners' glow, a spoken summary for screen readers and the backs of the others' cards.
import { _, fmt } from "../i18n.js";
import { makeBack, tenths } from "../cards.js";
import { levelName, plateName } from "../players.js";
import { reduceMotion } from "./pacer.js";

export function createSeats(app, { posOf, seatEl, seatOf, nameOf }) {
  function buildPlate(plate) {
    plate.innerHTML =
      `<span class="avatar" aria-hidden="true"></span>` +
      `<span class="pinfo"><span class="pname-row"><span class="pname"></span><span class="badge"></span></span>` +
      `<span class="plate-stats"><span class="tricks"><b class="won"></b>/<b class="bid"></b></span>` +
      `<span class="total"></span></span></span>` +
      `<span class="dealer-chip" hidden></span>`;
    plate.querySelector(".dealer-chip").textContent = _("D");
    plate.querySelector(".dealer-chip").title = _("Dealer");
    plate.querySelector(".tricks").title = _("Tricks won / bid");
    plate.querySelector(".total").title = _("Running total");
  }

  function render(f) {
    for (let s = 0; s < 4; s++) {
      const pos = posOf(f, s);
      const el = seatEl(pos);
      const plate = el.querySelector(".plate");
      if (!plate.firstChild) buildPlate(plate);
      const info = seatOf(f, s);
      const bid = f.bids ? f.bids[s] : null;
      const won = f.tricks_won ? f.tricks_won[s] : 0;
      const total = f.totals ? f.totals[s] : 0;
      const isTurn = f.turn === s && f.phase !== "finished" && !f.summary;
      const isDealer = f.dealer === s;
      const isWinner = f.phase === "finished" && (f.winners || []).includes(s);
      el.classList.toggle("turn", isTurn);
      el.classList.toggle("winner", isWinner);
      el.dataset.seat = String(s);
      const name = s === f.seat ? (info.name || _("You")) : plateName(info) || nameOf(f, s);
      plate.querySelector(".pname").textContent = name;
      const av = plate.querySelector(".avatar");
      av.className = `avatar av-${s}`;
      av.textContent = (plateName(info) || "?").slice(0, 1).toUpperCase();
      const badge = plate.querySelector(".badge");
      const isBot = info.kind === "bot";
      const program = info.bot_account && !info.autopilot; // a bot account: a program, not a house bot
      badge.className = "badge" + (isBot ? " bot" : s === f.seat ? " you" : info.autopilot ? " bot" : program ? " badge-program" : "");
      badge.textContent = isBot ? _("Bot") : s === f.seat ? _("You") : info.autopilot ? _("Autopilot") : program ? _("BOT API") : "";
      badge.hidden = !badge.textContent;
      badge.title = isBot && info.bot ? `${_("Bot")} · ${levelName(info.bot)}` : "";
      const bidEl = plate.querySelector(".bid");
      const bidTxt = bid == null ? "–" : String(bid);
      if (bidEl.textContent !== bidTxt && bid != null && !reduceMotion()) {
        bidEl.animate([{ transform: "scale(1.8)" }, { transform: "none" }], { duration: 300, easing: "ease-out" });
      }
      bidEl.textContent = bidTxt;
      plate.querySelector(".won").textContent = String(won);
      plate.querySelector(".tricks").classList.toggle("made", bid != null && won >= bid);
      plate.querySelector(".total").textContent = `Σ ${tenths(total)}`;
      plate.querySelector(".dealer-chip").hidden = !isDealer;
      const parts = [nameOf(f, s)];
      if (isBot) parts.push(info.bot ? `${_("Bot")} (${levelName(info.bot)})` : _("Bot"));
      if (isDealer) parts.push(_("Dealer"));
      parts.push(fmt(_("bid %(bid)s, won %(won)s"), { bid: bidTxt, won }));
      parts.push(fmt(_("total %(t)s"), { t: tenths(total) }));
      if (isTurn) parts.push(_("to play"));
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", parts.join(", "));
      const backs = el.querySelector(".backs");
      if (backs) {
        const n = f.hand_counts ? f.hand_counts[s] : 0;
        while (backs.childElementCount > n) backs.lastChild.remove();
        while (backs.childElementCount < n) backs.appendChild(makeBack());
      }
    }
  }

  return { render };
}
