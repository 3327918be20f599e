// Draws a watcher's view (the spectator view a trick behind: bids, played cards, tricks won, totals; no hand).
import { makeCard, tenths } from "./cards.js";
import { _, fmt } from "./i18n.js";
import { playerName } from "./players.js";

function seatItem(view, seat) {
  const li = document.createElement("li");
  li.className = "watch-plate" + (view.turn === seat.seat && view.status === "active" ? " to-act" : "");
  li.dataset.testid = `watch-seat-${seat.seat}`;
  const name = document.createElement("strong");
  name.textContent = playerName(seat);
  const bid = view.bids[seat.seat];
  const line = document.createElement("span");
  line.className = "small";
  line.textContent = [
    bid == null ? _("no bid yet") : fmt(_("bid %(bid)s"), { bid }),
    fmt(_("won %(n)s"), { n: view.tricks_won[seat.seat] }),
    fmt(_("total %(t)s"), { t: tenths(view.totals[seat.seat]) }),
  ].join(" · ");
  li.append(name, line);
  return li;
}

export function renderWatch(view, seatsEl, trickEl) {
  seatsEl.replaceChildren(...view.seats.map((s) => seatItem(view, s)));
  const plays = view.trick.plays.length ? view.trick.plays : (view.last_trick ? view.last_trick.plays : []);
  trickEl.replaceChildren(...plays.map((p) => {
    const slot = document.createElement("figure");
    slot.className = "watch-play";
    const card = makeCard(p.card);
    const who = document.createElement("figcaption");
    who.className = "small";
    who.textContent = playerName(view.seats[p.seat]);
    slot.append(card, who);
    return slot;
  }));
}

export function statusLine(view, watchers) {
  const parts = [fmt(_("Deal %(n)s of 5"), { n: view.deal_number })];
  if (view.status === "finished") parts[0] = _("The match is over");
  else if (view.status === "aborted") parts[0] = _("The match was stopped");
  else parts.push(_("one trick behind"));
  if (watchers) parts.push(fmt(_("%(n)s watching"), { n: watchers }));
  return parts.join(" · ");
}
