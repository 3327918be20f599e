// Drawing a frame of the table: seats, the trick, the hand, the bid picker, the status line, the score
// sheet and the deal summary. Input (what a tap or a key does) lives in input.js, dialogs in dialogs.js.
import { _, fmt } from "../i18n.js";
import { cardFace, cardName, makeBack, makeCard, reasonText, sortHand, tenths } from "../cards.js";
import { levelName, plateName, playerName } from "../players.js";
import { pace } from "./pacer.js";
import { biddingOrder } from "./timeline.js";

const reduceMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function createRenderer(app, ui) {
  const $ = (sel) => app.querySelector(sel);
  const mySeat = (f) => (f && f.seat != null ? f.seat : 0);
  const posOf = (f, seat) => (seat - mySeat(f) + 4) % 4; // 0 bottom, 1 right, 2 top, 3 left
  const seatEl = (pos) => app.querySelector(`.seat[data-pos="${pos}"]`);
  const seatOf = (f, s) => (f.seats || []).find((x) => x.seat === s) || { seat: s, name: "", kind: "human" };
  const nameOf = (f, s) => (s === f.seat ? _("You") : playerName(seatOf(f, s)) || fmt(_("Seat %(n)s"), { n: s + 1 }));

  // ---- seats ---------------------------------------------------------------------------------
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

  function renderSeats(f) {
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

  // ---- the trick -------------------------------------------------------------------------------
  function trickToShow(f) {
    if (ui.showLast && f.last_trick) return { trick: f.last_trick, done: true, review: true };
    if (f.hold) return { trick: f.hold, done: true };
    if (f.phase === "finished" && f.last_trick) return { trick: f.last_trick, done: true };
    return { trick: f.trick, done: false };
  }

  // Where a card flies in from: the player's plate, or my card's place in the hand.
  function flyIn(el, f, seat, from) {
    if (reduceMotion()) return;
    const to = el.getBoundingClientRect();
    let src = from;
    if (!src) {
      const plate = seatEl(posOf(f, seat)).querySelector(".plate");
      src = plate.getBoundingClientRect();
    }
    const dx = src.left + src.width / 2 - (to.left + to.width / 2);
    const dy = src.top + src.height / 2 - (to.top + to.height / 2);
    el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${from ? 1 : 0.55})`, opacity: from ? 1 : 0.2 },
        { transform: "none", opacity: 1 }],
      { duration: 300 * pace(), easing: "cubic-bezier(.2,.8,.3,1)" },
    );
  }

  function renderTrick(f, info) {
    const { trick, done, review } = trickToShow(f);
    const plays = (trick && trick.plays) || [];
    const slots = app.querySelectorAll(".trick .slot");
    const wanted = new Map(plays.map((p) => [posOf(f, p.seat), p]));
    slots.forEach((slot, pos) => {
      const p = wanted.get(pos);
      const cur = slot.firstElementChild;
      if (!p) {
        slot.replaceChildren();
        return;
      }
      if (!cur || cur.dataset.card !== p.card) {
        const el = makeCard(p.card);
        el.setAttribute("aria-label", `${nameOf(f, p.seat)}: ${cardName(p.card)}`);
        slot.replaceChildren(el);
        const fresh = info && info.event && info.event.t === "play" && info.event.card === p.card;
        if (fresh) flyIn(el, f, p.seat, ui.flyFrom.get(p.card));
      }
      const el = slot.firstElementChild;
      el.classList.toggle("win", !!(done && trick.winner === p.seat));
      el.classList.toggle("led", trick.leader === p.seat);
    });
    ui.flyFrom.clear();
    const note = $(".trick-note");
    if (review) note.textContent = fmt(_("Last trick: won by %(name)s"), { name: nameOf(f, trick.winner) });
    else if (done && trick.winner != null) note.textContent = winsText(f, trick.winner);
    else note.textContent = "";
    $(".trick").classList.toggle("reviewing", !!review);
    app.dataset.trickCards = String(plays.length);
  }

  const winsText = (f, s) => (s === f.seat ? _("You win the trick") : fmt(_("%(name)s wins the trick"), { name: nameOf(f, s) }));

  /** Sweep the finished trick to its winner's seat; returns how long that takes (ms). */
  function collect(f) {
    if (!f.hold || reduceMotion() || ui.showLast) return 0;
    const plate = seatEl(posOf(f, f.hold.winner)).querySelector(".plate").getBoundingClientRect();
    for (const el of app.querySelectorAll(".trick .slot .card")) {
      const r = el.getBoundingClientRect();
      const dx = plate.left + plate.width / 2 - (r.left + r.width / 2);
      const dy = plate.top + plate.height / 2 - (r.top + r.height / 2);
      el.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }],
        { duration: 260 * pace(), easing: "ease-in", fill: "forwards" });
    }
    return 260 * pace();
  }

  // ---- the hand --------------------------------------------------------------------------------
  // A narrow screen (a phone held upright) has no room for 13 cards in one row with a finger's width of
  // each: the hand goes in two overlapping rows (a grid; each card overflows its column, the next one
  // covers the rest), the first row's top half and each card's column showing.
  const twoRows = window.matchMedia("(max-width: 640px)");
  twoRows.addEventListener("change", () => ui.rerender());
  function layoutRows(hand, buttons) {
    const on = twoRows.matches && buttons.length > 1;
    hand.classList.toggle("two-rows", on);
    const perRow = Math.ceil(buttons.length / 2);
    const cols = on ? perRow : 0;
    hand.style.gridTemplateColumns = on
      ? `repeat(${Math.max(cols - 1, 1)}, minmax(0, var(--hw))) var(--hw)` : "";
    buttons.forEach((b, i) => {
      const row = on ? (i < perRow ? 1 : 2) : 0;
      // the second row sits half a column to the right so that each card of the first shows a corner
      b.style.gridRow = on ? String(row) : "";
      b.style.gridColumn = on ? String(row === 1 ? i + 1 : i - perRow + 1) : "";
    });
  }

  function renderHand(f, info) {
    const hand = $(".hand");
    const cards = sortHand(f.hand || []);
    const myTurn = f.interactive && f.turn === f.seat && f.phase === "playing";
    const legal = new Set(myTurn ? f.legal || [] : []);
    const locked = myTurn ? f.locked || {} : {};
    const existing = new Map([...hand.children].map((b) => [b.dataset.card, b]));
    const buttons = [];
    const dealt = info && info.event && info.event.t === "newdeal";
    for (const c of cards) {
      let b = existing.get(c);
      if (!b) {
        b = document.createElement("button");
        b.type = "button";
        cardFace(b, c);
        if (dealt || !hand.childElementCount) b.classList.add("deal-in");
      }
      existing.delete(c);
      const isLegal = legal.has(c);
      const reason = !isLegal && myTurn ? locked[c] || "locked" : null;
      b.classList.toggle("legal", isLegal && !ui.sending);
      b.classList.toggle("locked", myTurn && !isLegal);
      b.classList.toggle("waiting", !myTurn);
      b.dataset.reason = reason && reason !== "locked" ? reason : "";
      let label = cardName(c);
      if (isLegal) label += ", " + _("playable");
      else if (reason) label += ", " + _("locked") + ": " + reasonText(reason);
      b.setAttribute("aria-label", label);
      buttons.push(b);
    }
    for (const b of existing.values()) b.remove();
    buttons.forEach((b, i) => {
      if (hand.children[i] !== b) hand.insertBefore(b, hand.children[i] || null);
      b.style.setProperty("--i", String(i));
      const k = i - (buttons.length - 1) / 2;
      b.style.setProperty("--k", String(k));
      b.style.setProperty("--k2", String(k * k));
    });
    hand.style.setProperty("--n", String(Math.max(buttons.length, 1)));
    layoutRows(hand, buttons);
    app.dataset.handCards = String(buttons.length);
    // one tab stop in the hand (roving tabindex)
    if (!ui.focusCard || !cards.includes(ui.focusCard)) {
      ui.focusCard = cards.find((c) => legal.has(c)) || cards[0] || null;
    }
    for (const b of buttons) b.tabIndex = b.dataset.card === ui.focusCard ? 0 : -1;
    if (dealt || buttons.some((b) => b.classList.contains("deal-in"))) {
      setTimeout(() => buttons.forEach((b) => b.classList.remove("deal-in")), 900);
    }
  }

  // ---- bidding ---------------------------------------------------------------------------------
  function renderBidPicker(f) {
    const picker = $(".bid-picker");
    const myBid = f.interactive && f.phase === "bidding" && f.turn === f.seat;
    const wasHidden = picker.hidden;
    picker.hidden = !myBid;
    app.classList.toggle("bidding-me", myBid);
    if (!myBid) {
      ui.pendingBid = null;
      return { opened: false };
    }
    const grid = $(".bid-grid");
    const legal = new Set(f.legal || []);
    if (grid.childElementCount !== 13) {
      grid.replaceChildren();
      for (let n = 1; n <= 13; n++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "bid-btn";
        b.dataset.bid = String(n);
        b.textContent = String(n);
        grid.appendChild(b);
      }
    }
    for (const b of grid.children) {
      const n = Number(b.dataset.bid);
      b.disabled = !legal.has(n) || ui.sending;
      b.setAttribute("aria-pressed", ui.pendingBid === n ? "true" : "false");
      b.setAttribute("aria-label", fmt(_("Bid %(n)s"), { n }));
    }
    const so = $(".bids-so-far");
    const bids = f.bids || [];
    const total = bids.reduce((a, b) => a + (b || 0), 0);
    so.replaceChildren();
    for (const s of biddingOrder(f)) {
      if (s === f.seat) continue;
      const span = document.createElement("span");
      span.className = "bid-chip" + (bids[s] == null ? " pending" : "");
      span.textContent = `${nameOf(f, s)}: ${bids[s] == null ? "…" : bids[s]}`;
      so.appendChild(span);
    }
    const tot = document.createElement("span");
    tot.className = "bid-total";
    tot.textContent = fmt(_("Total so far: %(t)s / 13"), { t: total });
    so.appendChild(tot);
    const confirm = $("#bid-confirm");
    confirm.disabled = ui.pendingBid == null || ui.sending;
    confirm.textContent = ui.pendingBid == null
      ? _("Pick a number")
      : fmt(_("Bid %(n)s tricks"), { n: ui.pendingBid });
    return { opened: wasHidden };
  }

  // ---- status, info, scores --------------------------------------------------------------------
  function statusText(f) {
    if (f.summary) return fmt(_("Deal %(n)s scored"), { n: f.summary.number });
    if (f.hold && f.hold.winner != null) return winsText(f, f.hold.winner);
    if (f.phase === "finished") return _("The match is over.") + " " + winnersText(f);
    if (f.phase === "bidding") {
      return f.turn === f.seat ? _("Your turn to bid.") : fmt(_("Waiting for %(name)s to bid…"), { name: nameOf(f, f.turn) });
    }
    if (f.turn === f.seat) {
      const plays = (f.trick && f.trick.plays) || [];
      return plays.length === 0 ? _("Your lead: play a highlighted card.") : _("Your turn: play a highlighted card.");
    }
    return fmt(_("Waiting for %(name)s to play…"), { name: nameOf(f, f.turn) });
  }

  function winnersText(f) {
    const winners = f.winners || [];
    const names = winners.map((s) => nameOf(f, s));
    if (winners.length > 1) return fmt(_("Shared win: %(names)s"), { names: names.join(", ") });
    return winners.includes(f.seat) ? _("You win!") : fmt(_("%(name)s wins"), { name: names[0] || "" });
  }

  function renderStatus(f) {
    const mine = f.turn === f.seat && f.phase !== "finished" && !f.hold && !f.summary;
    $(".status-text").textContent = statusText(f);
    $(".statusbar").classList.toggle("my-turn", mine);
    const leading = ((f.trick && f.trick.plays) || []).length === 0;
    $(".first-trick-hint").hidden = !(f.interactive && mine && f.phase === "playing" && f.first_trick && leading);
    $(".status-actions").hidden = f.phase !== "finished";
    $("#replay-link-2").href = `/replay/${encodeURIComponent(f.id)}/`;
  }

  function renderInfo(f) {
    $(".deal-no").textContent = fmt(_("Deal %(n)s of 5"), { n: f.deal_number || 5 });
    $(".trick-no").textContent = f.phase === "playing" ? fmt(_("Trick %(n)s of 13"), { n: f.trick_number || 1 }) : "";
    const lastBtn = $("#last-trick-btn");
    lastBtn.disabled = !f.last_trick;
    lastBtn.setAttribute("aria-pressed", ui.showLast && f.last_trick ? "true" : "false");
    for (const el of app.querySelectorAll(".commitment")) el.textContent = f.seed_commitment || "";
    for (const el of app.querySelectorAll(".seed")) el.textContent = f.seed || "";
    $(".seed-line").hidden = !f.seed;
  }

  function scoreTable(f) {
    const seats = [0, 1, 2, 3];
    const table = document.createElement("table");
    const head = seats.map((s) => `<th scope="col" class="${s === f.seat ? "me" : ""}"><span></span></th>`).join("");
    let rows = "";
    for (const d of f.deals || []) {
      rows += `<tr><th scope="row">${d.number}</th>` + seats.map((s) => {
        const sc = d.scores[s];
        return `<td class="${sc < 0 ? "neg" : "pos"}"><span class="bw">${d.tricks_won[s]}/${d.bids[s]}</span>` +
          `<span class="sc">${tenths(sc, true)}</span></td>`;
      }).join("") + `</tr>`;
    }
    if (f.phase !== "finished" && f.deal_number && !(f.deals || []).some((d) => d.number === f.deal_number)) {
      rows += `<tr class="current"><th scope="row">${f.deal_number}</th>` + seats.map((s) => {
        const b = f.bids ? f.bids[s] : null;
        return `<td><span class="bw">${f.tricks_won ? f.tricks_won[s] : 0}/${b == null ? "–" : b}</span><span class="sc">…</span></td>`;
      }).join("") + `</tr>`;
    }
    const totals = seats.map((s) => {
      const win = f.phase === "finished" && (f.winners || []).includes(s);
      return `<td class="${win ? "win" : ""}">${tenths(f.totals ? f.totals[s] : 0)}${win ? " ★" : ""}</td>`;
    }).join("");
    table.innerHTML =
      `<caption class="sr-only"></caption>` +
      `<thead><tr><th scope="col"></th>${head}</tr>` +
      `<tr class="sub"><td></td>${seats.map(() => `<td></td>`).join("")}</tr></thead>` +
      `<tbody>${rows}</tbody>` +
      `<tfoot><tr><th scope="row"></th>${totals}</tr></tfoot>`;
    table.querySelector("caption").textContent = _("Score sheet");
    table.querySelector("thead th").textContent = _("Deal");
    table.querySelectorAll("tr.sub td:not(:first-child)").forEach((td) => { td.textContent = _("won/bid"); });
    table.querySelector("tfoot th").textContent = _("Total");
    // a column is narrow: a bot's own name ("Hari", the plates say it is a bot), on up to two lines
    table.querySelectorAll("thead tr:first-child th span").forEach((sp, i) => {
      sp.textContent = i === f.seat ? _("You") : plateName(seatOf(f, i)) || nameOf(f, i);
      sp.title = nameOf(f, i);
    });
    return table;
  }

  function renderScores(f) {
    for (const sheet of app.querySelectorAll(".score-sheet")) sheet.replaceChildren(scoreTable(f));
  }

  function renderSummary(f) {
    const box = $(".deal-summary");
    const d = f.summary;
    box.hidden = !d;
    if (!d) return;
    box.querySelector(".deal-summary-title").textContent = fmt(_("Deal %(n)s scored"), { n: d.number });
    const ol = box.querySelector(".deal-summary-rows");
    ol.replaceChildren();
    for (const s of [0, 1, 2, 3].sort((a, b) => d.totals[b] - d.totals[a])) {
      const li = document.createElement("li");
      li.className = d.scores[s] < 0 ? "neg" : "pos";
      li.innerHTML = `<span class="n"></span><span class="bw"></span><span class="sc"></span><span class="t"></span>`;
      li.querySelector(".n").textContent = nameOf(f, s);
      li.querySelector(".bw").textContent = `${d.tricks_won[s]}/${d.bids[s]}`;
      li.querySelector(".sc").textContent = tenths(d.scores[s], true);
      li.querySelector(".t").textContent = tenths(d.totals[s]);
      ol.appendChild(li);
    }
  }

  /** Draw frame `f`. Returns what changed that input cares about (the bid picker opened). */
  function render(f, info = {}) {
    if (!f) return {};
    app.dataset.phase = f.phase;
    app.dataset.interactive = f.interactive ? "1" : "0";
    renderInfo(f);
    renderSeats(f);
    renderTrick(f, info);
    renderHand(f, info);
    const picker = renderBidPicker(f);
    renderStatus(f);
    renderScores(f);
    renderSummary(f);
    return { pickerOpened: picker.opened };
  }

  return { render, collect, nameOf, winnersText, posOf };
}
