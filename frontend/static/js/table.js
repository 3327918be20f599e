// The card table: renders the caller's view of a match and sends bids and cards.
// Live through /ws/matches/{id}/ with reconnect backoff; every view carries `seq`, an older one is ignored.
import { api, ApiError, createMatch, matchUrl } from "./api.js";
import { _, fmt } from "./i18n.js";
import {
  botLevelName, cardFace, cardName, makeBack, makeCard, reasonText, sortHand, tenths,
} from "./cards.js";

const app = document.getElementById("table-app");
const matchId = app.dataset.matchId;
const $ = (sel, root = app) => root.querySelector(sel);

const state = {
  view: null,
  seq: -1,
  sending: false,      // an action is in flight: never send a second one
  pendingBid: null,
  focusCard: null,     // card code with the roving focus
  hold: null,          // {trick, until} a just-finished trick kept on screen briefly
  holdTimer: null,
  showLast: false,
  endDismissed: false,
  ws: null,
  wsRetry: 0,
  wsTimer: null,
  closing: false,
};

// ---- helpers ---------------------------------------------------------------------------------
const seqOf = (v) => (v.seq ?? v.version ?? 0);
const mySeat = () => (state.view && state.view.seat != null ? state.view.seat : 0);
const posOf = (seat) => (seat - mySeat() + 4) % 4; // 0 bottom, 1 right, 2 top, 3 left

function seatInfo(v, s) {
  const list = v.seats || v.players || [];
  const raw = list.find ? list.find((p) => p && (p.seat ?? list.indexOf(p)) === s) || list[s] : null;
  const info = raw || {};
  const kind = info.kind || (info.bot ? "bot" : "human");
  let name = info.name || info.username || info.display_name;
  if (!name) name = s === v.seat ? _("You") : fmt(_("Seat %(n)s"), { n: s + 1 });
  return { name, kind, bot: info.bot || info.bot_level || info.level || null, autopilot: !!info.autopilot };
}

function winsTrickText(s) {
  return s === state.view.seat ? _("You win the trick") : fmt(_("%(name)s wins the trick"), { name: playerName(s) });
}

function playerName(s) {
  const v = state.view;
  if (s === v.seat) return _("You");
  return seatInfo(v, s).name;
}

// ---- rendering -------------------------------------------------------------------------------
function render() {
  const v = state.view;
  if (!v) return;
  renderPlates(v);
  renderTrick(v);
  renderHand(v);
  renderBidPicker(v);
  renderStatus(v);
  renderScores(v);
  renderInfo(v);
  renderEnd(v);
}

function renderInfo(v) {
  $(".deal-no").textContent = fmt(_("Deal %(n)s of 5"), { n: v.deal_number || 5 });
  $(".trick-no").textContent =
    v.phase === "playing" ? fmt(_("Trick %(n)s of 13"), { n: v.trick_number || 1 }) : "";
  const lastBtn = $("#last-trick-btn");
  lastBtn.disabled = !v.last_trick;
  lastBtn.setAttribute("aria-pressed", state.showLast && v.last_trick ? "true" : "false");
  for (const el of app.querySelectorAll(".commitment")) el.textContent = v.seed_commitment || "";
  for (const el of app.querySelectorAll(".seed")) el.textContent = v.seed || "";
  $(".seed-line").hidden = !v.seed;
}

function renderPlates(v) {
  for (let s = 0; s < 4; s++) {
    const pos = posOf(s);
    const seatEl = app.querySelector(`.seat[data-pos="${pos}"]`);
    const plate = seatEl.querySelector(".plate");
    const info = seatInfo(v, s);
    const bid = v.bids ? v.bids[s] : null;
    const won = v.tricks_won ? v.tricks_won[s] : 0;
    const total = v.totals ? v.totals[s] : 0;
    const isTurn = v.turn === s && v.phase !== "finished";
    const isDealer = v.dealer === s;
    const isWinner = v.phase === "finished" && (v.winners || []).includes(s);
    seatEl.classList.toggle("turn", isTurn);
    seatEl.classList.toggle("winner", isWinner);
    seatEl.dataset.seat = s;
    const name = s === v.seat ? `${info.name}` : info.name;
    const botBadge = info.kind === "bot"
      ? `<span class="badge bot" title="${_("Bot")}${info.bot ? " · " + botLevelName(info.bot) : ""}">${_("Bot")}${info.bot ? ` · ${botLevelName(info.bot)}` : ""}</span>`
      : (s === v.seat ? `<span class="badge you">${_("You")}</span>` : "")
        + (info.autopilot && info.kind !== "bot" ? `<span class="badge bot">${_("Autopilot")}</span>` : "");
    const bidTxt = bid == null ? "–" : String(bid);
    const made = bid != null && won >= bid;
    plate.innerHTML =
      `<div class="plate-top">` +
      `<span class="avatar av-${s}" aria-hidden="true"></span><span class="pname"></span>${botBadge}` +
      (isDealer ? `<span class="dealer-chip" title="${_("Dealer")}" aria-label="${_("Dealer")}">${_("D")}</span>` : "") +
      `</div>` +
      `<div class="plate-stats">` +
      `<span class="tricks ${made ? "made" : ""}" title="${_("Tricks won / bid")}">` +
      `<b>${won}</b>/<b>${bidTxt}</b></span>` +
      `<span class="total" title="${_("Running total")}">Σ ${tenths(total)}</span>` +
      (isTurn ? `<span class="turn-marker" aria-hidden="true">▶</span>` : "") +
      `</div>`;
    plate.querySelector(".pname").textContent = name;
    plate.querySelector(".avatar").textContent = (info.name || "?").replace(/^Bot\s+/i, "").slice(0, 1).toUpperCase();
    const parts = [info.name];
    if (info.kind === "bot") parts.push(_("Bot"));
    if (isDealer) parts.push(_("Dealer"));
    parts.push(fmt(_("bid %(bid)s, won %(won)s"), { bid: bidTxt, won }));
    parts.push(fmt(_("total %(t)s"), { t: tenths(total) }));
    if (isTurn) parts.push(_("to play"));
    seatEl.setAttribute("aria-label", parts.join(", "));
    seatEl.setAttribute("role", "group");
    const backs = seatEl.querySelector(".backs");
    if (backs) {
      const n = v.hand_counts ? v.hand_counts[s] : 0;
      if (backs.childElementCount !== n) {
        backs.innerHTML = "";
        for (let i = 0; i < n; i++) backs.appendChild(makeBack());
      }
    }
  }
}

function trickToShow(v) {
  if (state.showLast && v.last_trick) return { trick: v.last_trick, done: true, review: true };
  if (state.hold && Date.now() < state.hold.until) return { trick: state.hold.trick, done: true };
  return { trick: v.trick, done: false };
}

function renderTrick(v) {
  const { trick, done, review } = trickToShow(v);
  const plays = (trick && trick.plays) || [];
  const slots = app.querySelectorAll(".trick .slot");
  const wanted = new Map(plays.map((p) => [posOf(p.seat), p]));
  slots.forEach((slot, pos) => {
    const p = wanted.get(pos);
    const cur = slot.firstElementChild;
    if (!p) {
      slot.innerHTML = "";
      return;
    }
    if (!cur || cur.dataset.card !== p.card) {
      slot.innerHTML = "";
      const el = makeCard(p.card);
      el.setAttribute("aria-label", `${playerName(p.seat)}: ${cardName(p.card)}`);
      el.classList.add(`from-${pos}`, "enter");
      slot.appendChild(el);
    }
    const el = slot.firstElementChild;
    el.classList.toggle("win", !!(done && trick.winner === p.seat));
    el.classList.toggle("led", !!(trick.leader === p.seat && plays.length));
  });
  const note = $(".trick-note");
  if (done && trick && trick.winner != null) {
    note.textContent = review
      ? fmt(_("Last trick: won by %(name)s"), { name: playerName(trick.winner) })
      : winsTrickText(trick.winner);
  } else {
    note.textContent = "";
  }
  $(".trick").classList.toggle("reviewing", !!review);
}

function renderHand(v) {
  const hand = $(".hand");
  const cards = sortHand(v.hand || []);
  const legal = new Set(v.phase === "playing" ? (v.legal || []) : []);
  const locked = v.locked || {};
  const myTurn = v.turn === v.seat && v.phase === "playing";
  // Reuse buttons where possible so focus is kept.
  const existing = new Map([...hand.children].map((b) => [b.dataset.card, b]));
  const frag = [];
  for (const c of cards) {
    let b = existing.get(c);
    if (!b) {
      b = document.createElement("button");
      b.type = "button";
      cardFace(b, c);
      b.classList.add("deal-in");
    }
    existing.delete(c);
    const isLegal = legal.has(c);
    const reason = !isLegal && myTurn ? locked[c] || null : null;
    b.classList.toggle("legal", isLegal && !state.sending);
    b.classList.toggle("locked", myTurn && !isLegal);
    b.classList.toggle("waiting", !myTurn);
    b.dataset.reason = reason || "";
    let label = cardName(c);
    if (isLegal) label += ", " + _("playable");
    else if (reason) label += ", " + _("locked") + ": " + reasonText(reason);
    b.setAttribute("aria-label", label);
    b.title = reason ? reasonText(reason) : isLegal ? _("Play this card") : "";
    frag.push(b);
  }
  for (const b of existing.values()) b.remove();
  frag.forEach((b, i) => {
    if (hand.children[i] !== b) hand.insertBefore(b, hand.children[i] || null);
    b.style.setProperty("--i", i);
    b.style.setProperty("--n", frag.length);
  });
  hand.style.setProperty("--n", frag.length);
  // roving tabindex
  if (!state.focusCard || !cards.includes(state.focusCard)) {
    state.focusCard = cards.find((c) => legal.has(c)) || cards[0] || null;
  }
  for (const b of frag) b.tabIndex = b.dataset.card === state.focusCard ? 0 : -1;
  setTimeout(() => frag.forEach((b) => b.classList.remove("deal-in")), 450);
}

function renderBidPicker(v) {
  const picker = $(".bid-picker");
  const myBid = v.phase === "bidding" && v.turn === v.seat;
  picker.hidden = !myBid;
  if (!myBid) {
    state.pendingBid = null;
    return;
  }
  const grid = $(".bid-grid");
  const legal = new Set(v.legal || []);
  if (grid.childElementCount !== 13) {
    grid.innerHTML = "";
    for (let n = 1; n <= 13; n++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "bid-btn";
      b.dataset.bid = n;
      b.textContent = n;
      grid.appendChild(b);
    }
  }
  for (const b of grid.children) {
    const n = Number(b.dataset.bid);
    b.disabled = !legal.has(n) || state.sending;
    b.setAttribute("aria-pressed", state.pendingBid === n ? "true" : "false");
    b.setAttribute("aria-label", fmt(_("Bid %(n)s"), { n }));
  }
  const so = $(".bids-so-far");
  const bids = v.bids || [];
  const total = bids.reduce((a, b) => a + (b || 0), 0);
  const order = [1, 2, 3, 4].map((k) => (v.dealer + k) % 4);
  so.innerHTML = "";
  for (const s of order) {
    if (s === v.seat) continue;
    const span = document.createElement("span");
    span.className = "bid-chip" + (bids[s] == null ? " pending" : "");
    span.textContent = `${playerName(s)}: ${bids[s] == null ? "…" : bids[s]}`;
    so.appendChild(span);
  }
  const tot = document.createElement("span");
  tot.className = "bid-total" + (total > 13 ? " over" : "");
  tot.textContent = fmt(_("Total so far: %(t)s / 13"), { t: total });
  so.appendChild(tot);
  const confirm = $("#bid-confirm");
  confirm.disabled = state.pendingBid == null || state.sending;
  confirm.textContent = state.pendingBid == null
    ? _("Pick a number")
    : fmt(_("Bid %(n)s tricks"), { n: state.pendingBid });
}

function renderStatus(v) {
  const t = $(".status-text");
  let msg;
  if (state.hold && Date.now() < state.hold.until && state.hold.trick.winner != null && v.turn !== v.seat) {
    msg = winsTrickText(state.hold.trick.winner);
  } else if (v.phase === "finished") {
    msg = _("The match is over.") + " " + winnersText(v);
  } else if (v.phase === "bidding") {
    msg = v.turn === v.seat
      ? _("Your turn to bid.")
      : fmt(_("Waiting for %(name)s to bid…"), { name: playerName(v.turn) });
  } else if (v.turn === v.seat) {
    const plays = (v.trick && v.trick.plays) || [];
    msg = plays.length === 0 ? _("Your lead: play a highlighted card.") : _("Your turn: play a highlighted card.");
  } else {
    msg = fmt(_("Waiting for %(name)s to play…"), { name: playerName(v.turn) });
  }
  t.textContent = msg;
  $(".statusbar").classList.toggle("my-turn", v.turn === v.seat && v.phase !== "finished");
  $(".first-trick-hint").hidden = !(v.phase === "playing" && v.first_trick);
  $(".status-actions").hidden = v.phase !== "finished";
  $("#replay-link-2").href = `/replay/${encodeURIComponent(matchId)}/`;
}

function renderScores(v) {
  const sheet = $(".score-sheet");
  const seats = [0, 1, 2, 3];
  const head = seats.map((s) => `<th scope="col" class="${s === v.seat ? "me" : ""}"><span></span></th>`).join("");
  let rows = "";
  for (const d of v.deals || []) {
    rows += `<tr><th scope="row">${d.number}</th>` + seats.map((s) => {
      const sc = d.scores[s];
      return `<td class="${sc < 0 ? "neg" : "pos"}"><span class="bw">${d.tricks_won[s]}/${d.bids[s]}</span>` +
        `<span class="sc">${tenths(sc, true)}</span></td>`;
    }).join("") + `</tr>`;
  }
  if (v.phase !== "finished" && v.deal_number) {
    rows += `<tr class="current"><th scope="row">${v.deal_number}</th>` + seats.map((s) => {
      const b = v.bids ? v.bids[s] : null;
      return `<td><span class="bw">${v.tricks_won ? v.tricks_won[s] : 0}/${b == null ? "–" : b}</span><span class="sc">…</span></td>`;
    }).join("") + `</tr>`;
  }
  const totals = seats.map((s) => {
    const win = v.phase === "finished" && (v.winners || []).includes(s);
    return `<td class="${win ? "win" : ""}">${tenths(v.totals ? v.totals[s] : 0)}${win ? " ★" : ""}</td>`;
  }).join("");
  sheet.innerHTML =
    `<table><caption class="sr-only">${_("Score sheet")}</caption>` +
    `<thead><tr><th scope="col">${_("Deal")}</th>${head}</tr>` +
    `<tr class="sub"><th></th>${seats.map(() => `<th>${_("won/bid")}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows}</tbody>` +
    `<tfoot><tr><th scope="row">${_("Total")}</th>${totals}</tr></tfoot></table>`;
  sheet.querySelectorAll("thead tr:first-child th span").forEach((sp, i) => {
    sp.textContent = playerName(i);
  });
}

function winnersText(v) {
  const winners = v.winners || [];
  const names = winners.map(playerName);
  if (winners.length > 1) return fmt(_("Shared win: %(names)s"), { names: names.join(", ") });
  return winners.includes(v.seat) ? _("You win!") : fmt(_("%(name)s wins"), { name: names[0] || "" });
}

function renderEnd(v) {
  const ov = $(".end-overlay");
  const finished = v.phase === "finished";
  ov.hidden = !finished || state.endDismissed;
  if (!finished) return;
  const winners = v.winners || [];
  const youWon = winners.includes(v.seat);
  $(".winners").textContent = winnersText(v);
  $(".end-card").classList.toggle("you-won", youWon);
  const order = [0, 1, 2, 3].sort((a, b) => v.totals[b] - v.totals[a]);
  $(".final-scores").innerHTML = "<ol>" + order.map((s) =>
    `<li class="${winners.includes(s) ? "win" : ""}"><span class="n"></span><span class="t">${tenths(v.totals[s])}</span></li>`,
  ).join("") + "</ol>";
  $(".final-scores").querySelectorAll(".n").forEach((el, i) => {
    el.textContent = playerName(order[i]) + (winners.includes(order[i]) ? " ★" : "");
  });
  $("#replay-link").href = `/replay/${encodeURIComponent(matchId)}/`;
}

// ---- incoming views --------------------------------------------------------------------------
// Views may arrive out of order and in bursts (the POST answer can already include the bots' moves,
// while the socket delivers one view per action). They are queued by seq and shown one at a time,
// so every bot card lands on the table and every finished trick stays visible for a moment.
const queue = new Map(); // seq -> view
let pacing = false;
let gapSince = 0;

function accept(msg) {
  if (!msg || typeof msg !== "object") return;
  let v = msg;
  if (msg.type === "error") return;
  if (msg.match && typeof msg.match === "object") v = msg.match;
  else if (msg.view && typeof msg.view === "object") v = msg.view;
  if (!("phase" in v)) {
    // a bare notification (ids + seq): fetch our view if it is newer
    if (v.seq != null && v.seq > state.seq) refetch();
    return;
  }
  const seq = seqOf(v);
  if (seq < state.seq) return;
  if (seq === state.seq) {
    if (!state.view || state.view.phase !== v.phase) applyView(v);
    return;
  }
  queue.set(seq, v);
  pump();
}

function pump() {
  if (pacing) return;
  // drop what is already shown
  for (const k of [...queue.keys()]) if (k <= state.seq) queue.delete(k);
  if (queue.size === 0) return;
  const next = Math.min(...queue.keys());
  if (state.view && next > state.seq + 1) {
    // a gap: give the socket a moment to deliver the missing views, then jump
    if (!gapSince) gapSince = Date.now();
    if (Date.now() - gapSince < 400) {
      pacing = true;
      setTimeout(() => { pacing = false; pump(); }, 100);
      return;
    }
  }
  gapSince = 0;
  const v = queue.get(next);
  queue.delete(next);
  const delay = applyView(v);
  if (queue.size) {
    pacing = true;
    setTimeout(() => { pacing = false; pump(); }, delay);
  }
}

// Show a view; returns how long to keep it before showing the next queued one (ms).
function applyView(v) {
  const prev = state.view;
  const seq = seqOf(v);
  let delay = prev ? 320 : 0;
  if (prev && v.last_trick && (prev.trick_number !== v.trick_number || prev.deal_number !== v.deal_number)
      && prev.phase === "playing") {
    const until = Date.now() + 1000;
    state.hold = { trick: v.last_trick, until };
    clearTimeout(state.holdTimer);
    clearTimeout(state.collectTimer);
    const trickEl = $(".trick");
    trickEl.classList.remove("collect-0", "collect-1", "collect-2", "collect-3");
    // sweep the cards toward the winner just before the table clears
    state.collectTimer = setTimeout(() => {
      if (v.last_trick.winner != null && !state.showLast) trickEl.classList.add(`collect-${posOf(v.last_trick.winner)}`);
    }, 780);
    state.holdTimer = setTimeout(() => {
      state.hold = null;
      trickEl.classList.remove("collect-0", "collect-1", "collect-2", "collect-3");
      render();
    }, 1020);
    delay = 1050;
  }
  if (prev && prev.deal_number !== v.deal_number && v.deals && v.deals.length) {
    toastDeal(v.deals[v.deals.length - 1]);
  } else if (prev && prev.phase !== "finished" && v.phase === "finished" && v.deals && v.deals.length) {
    toastDeal(v.deals[v.deals.length - 1]);
  }
  if (prev && v.deal_number !== prev.deal_number) state.showLast = false;
  state.view = v;
  state.seq = seq;
  app.dataset.seq = String(seq);
  app.dataset.phase = v.phase;
  render();
  return delay;
}

let toastTimer = null;
function toastDeal(d) {
  let t = document.querySelector(".deal-toast");
  if (!t) {
    t = document.createElement("div");
    t.className = "deal-toast";
    t.setAttribute("role", "status");
    $(".table").appendChild(t);
  }
  t.innerHTML = `<strong>${fmt(_("Deal %(n)s scored"), { n: d.number })}</strong>` +
    [0, 1, 2, 3].map((s) => `<span class="${d.scores[s] < 0 ? "neg" : "pos"}"><i></i> ${tenths(d.scores[s], true)}</span>`).join("");
  t.querySelectorAll("i").forEach((i, s) => { i.textContent = playerName(s); });
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 3000);
}

let refetching = null;
async function refetch() {
  if (refetching) return refetching;
  refetching = (async () => {
    try {
      accept(await api(matchUrl(matchId)));
      setConn(null);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        state.closing = true;
        setConn(_("This match was not found."));
      } else if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        state.closing = true;
        setConn(_("Your session has ended: log in again."));
      } else {
        setConn(_("Connection problem, retrying…"));
      }
    } finally {
      refetching = null;
    }
  })();
  return refetching;
}

function setConn(msg) {
  const c = $(".conn");
  c.hidden = !msg;
  c.textContent = msg || "";
}

// ---- sending ---------------------------------------------------------------------------------
async function send(body) {
  if (state.sending || !state.view) return;
  state.sending = true;
  app.classList.add("sending");
  render();
  try {
    const v = await api(`${matchUrl(matchId)}actions/`, { method: "POST", body: { seq: state.seq, ...body } });
    state.sending = false;
    accept(v);
    app.dataset.sent = String((Number(app.dataset.sent) || 0) + 1);
  } catch (e) {
    state.sending = false;
    if (e instanceof ApiError && e.status === 409) {
      await refetch();
    } else if (e instanceof ApiError && e.status === 400) {
      showReason(null, e.body.code ? reasonText(e.body.code) : e.message);
      await refetch();
    } else {
      setConn(_("Could not reach the server. Try again."));
    }
  } finally {
    state.sending = false;
    app.classList.remove("sending");
    render();
  }
}

let reasonTimer = null;
function showReason(btn, text, quiet = false) {
  const bub = $(".reason-bubble");
  bub.textContent = text;
  bub.hidden = false;
  if (btn) {
    const r = btn.getBoundingClientRect();
    const area = $(".hand-area").getBoundingClientRect();
    const half = Math.min(bub.offsetWidth, area.width) / 2 + 4;
    const x = Math.min(Math.max(r.left + r.width / 2 - area.left, half), area.width - half);
    bub.style.left = `${x}px`;
    if (!quiet) {
      btn.classList.remove("shake");
      void btn.offsetWidth;
      btn.classList.add("shake");
    }
  } else {
    bub.style.left = "50%";
  }
  clearTimeout(reasonTimer);
  reasonTimer = setTimeout(() => { bub.hidden = true; }, 3500);
}

function tryPlay(btn) {
  const v = state.view;
  if (!v || !btn) return;
  const c = btn.dataset.card;
  state.focusCard = c;
  if (v.phase !== "playing" || v.turn !== v.seat) {
    showReason(btn, v.phase === "bidding" ? reasonText("wrong_phase") : reasonText("not_your_turn"));
    return;
  }
  if (!(v.legal || []).includes(c)) {
    const code = (v.locked || {})[c];
    showReason(btn, reasonText(code) + " " + _("(Locked by the rules, not a fault.)"));
    return;
  }
  if (state.sending) return;
  $(".reason-bubble").hidden = true;
  btn.classList.add("playing");
  send({ card: c });
}

// ---- events ----------------------------------------------------------------------------------
$(".hand").addEventListener("click", (ev) => {
  const btn = ev.target.closest("button.card");
  if (btn) tryPlay(btn);
});
// Hovering a locked card (mouse) explains it too; touch users get the same text on tap.
$(".hand").addEventListener("mouseover", (ev) => {
  const btn = ev.target.closest("button.card.locked");
  if (btn && btn.dataset.reason && window.matchMedia("(hover: hover)").matches) {
    showReason(btn, reasonText(btn.dataset.reason), true);
  }
});
$(".hand").addEventListener("focusin", (ev) => {
  const btn = ev.target.closest("button.card.locked");
  if (btn && btn.dataset.reason && ev.target.matches(":focus-visible")) {
    showReason(btn, reasonText(btn.dataset.reason), true);
  }
});
$(".hand").addEventListener("keydown", (ev) => {
  const btns = [...$(".hand").children];
  const i = btns.indexOf(document.activeElement);
  if (i < 0) return;
  let j = null;
  if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(btns.length - 1, i + 1);
  else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (ev.key === "Home") j = 0;
  else if (ev.key === "End") j = btns.length - 1;
  if (j !== null) {
    ev.preventDefault();
    btns[i].tabIndex = -1;
    btns[j].tabIndex = 0;
    btns[j].focus();
    state.focusCard = btns[j].dataset.card;
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    tryPlay(btns[i]);
  }
});
$(".bid-grid").addEventListener("click", (ev) => {
  const b = ev.target.closest(".bid-btn");
  if (!b || b.disabled) return;
  state.pendingBid = Number(b.dataset.bid);
  renderBidPicker(state.view);
  $("#bid-confirm").focus();
});
$(".bid-grid").addEventListener("keydown", (ev) => {
  const btns = [...$(".bid-grid").children];
  const i = btns.indexOf(document.activeElement);
  if (i < 0) return;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  if (step) {
    ev.preventDefault();
    btns[Math.max(0, Math.min(btns.length - 1, i + step))].focus();
  }
});
$("#bid-confirm").addEventListener("click", () => {
  if (state.pendingBid == null || state.sending) return;
  const bid = state.pendingBid;
  send({ bid });
});
$("#last-trick-btn").addEventListener("click", () => {
  state.showLast = !state.showLast;
  render();
});
$("#scores-btn").addEventListener("click", () => {
  const panel = document.getElementById("score-panel");
  panel.classList.toggle("open");
  panel.scrollIntoView({ behavior: "smooth", block: "nearest" });
});
$("#end-close").addEventListener("click", () => {
  state.endDismissed = true;
  render();
});
$("#play-again-2").addEventListener("click", () => $("#play-again").click());
$("#play-again").addEventListener("click", async (ev) => {
  const btn = ev.currentTarget;
  if (btn.disabled) return;
  btn.disabled = true;
  // clear the table before the new deal
  app.classList.add("clearing");
  try {
    const v = await createMatch(sessionStorage.getItem("cb-bot-level") || "");
    window.location.href = `/play/${encodeURIComponent(v.id)}/`;
  } catch (e) {
    app.classList.remove("clearing");
    btn.disabled = false;
    setConn(e.message);
  }
});

// ---- WebSocket -------------------------------------------------------------------------------
function connect() {
  if (state.closing) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try {
    ws = new WebSocket(`${proto}://${location.host}/ws/matches/${encodeURIComponent(matchId)}/`);
  } catch {
    scheduleReconnect();
    return;
  }
  state.ws = ws;
  ws.onopen = () => {
    state.wsRetry = 0;
    setConn(null);
    app.dataset.live = "1";
  };
  ws.onmessage = (ev) => {
    try {
      accept(JSON.parse(ev.data));
    } catch { /* ignore malformed frames */ }
  };
  ws.onclose = (ev) => {
    app.dataset.live = "0";
    if (state.ws === ws) state.ws = null;
    if (ev.code === 4404 || ev.code === 4401 || ev.code === 4403) {
      // not this user's match, or not signed in: retrying cannot help
      refetch();
      return;
    }
    scheduleReconnect();
  };
  ws.onerror = () => { try { ws.close(); } catch { /* closed */ } };
}

function scheduleReconnect() {
  if (state.closing || (state.view && state.view.phase === "finished")) return;
  clearTimeout(state.wsTimer);
  const base = Math.min(15000, 500 * 2 ** state.wsRetry);
  const delay = base / 2 + Math.random() * base / 2;
  state.wsRetry += 1;
  if (state.wsRetry > 2) setConn(_("Reconnecting…"));
  state.wsTimer = setTimeout(() => {
    refetch(); // resync by seq even before the socket is back
    connect();
  }, delay);
}

window.addEventListener("beforeunload", () => { state.closing = true; });
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refetch();
});
// A slow safety net: if the socket is silent while others are to move, check the seq now and then.
setInterval(() => {
  const v = state.view;
  if (v && !state.closing && v.phase !== "finished" && v.turn !== v.seat && !state.sending) refetch();
}, 5000);

// A small hook for the browser tests and for debugging connection handling.
window.callbreakTable = {
  get seq() { return state.seq; },
  dropSocket() { if (state.ws) state.ws.close(); },
};

app.classList.add("clearing");
refetch().then(() => {
  requestAnimationFrame(() => app.classList.remove("clearing"));
  connect();
});
