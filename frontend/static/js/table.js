// The card table: one match seen from the caller's seat. The jobs live in table/:
//   connection.js  REST + live socket, reconnects, seq            pacer.js     one step at a time
//   timeline.js    a message's actions (or two views) as events   render.js    drawing a frame
//   input.js       taps, keys and focus                           dialogs.js   modal dialogs
//   clock.js       a timed match's clock and Resign               end.js       the end of a match
//   emotes.js      reactions beside the seats, Mute               chat.js      a private table's chat
//   solo.js        the other transport: a match against bots in the offline engine (/play-offline/), same interface
import { ApiError } from "./api.js";
import { reasonText } from "./cards.js";
import { _, fmt } from "./i18n.js";
import { createChat } from "./table/chat.js";
import { createClock } from "./table/clock.js";
import { modal } from "./table/dialogs.js";
import { createEmotes } from "./table/emotes.js";
import { createEnd } from "./table/end.js";
import { createInput } from "./table/input.js";
import { createOptions } from "./table/options.js";
import { createPacer, pace } from "./table/pacer.js";
import { createRenderer } from "./table/render.js";

const app = document.getElementById("table-app");
const matchId = app.dataset.matchId;
// One interface, two transports: the server (REST + the match socket) or the offline engine in a worker.
const offline = app.dataset.transport === "offline";
const { createConnection } = await import(offline ? "./table/solo.js" : "./table/connection.js");
const $ = (sel) => app.querySelector(sel);

const ui = {
  sending: false,
  pendingBid: null,
  lastBid: null,
  focusCard: null,
  showLast: false,
  flyFrom: new Map(), // card -> where it was in my hand (it flies from there)
  rerender: () => draw(pacer.frame),
};

const renderer = createRenderer(app, ui);
const options = createOptions(app, { modal, onChange: () => draw(pacer.frame) });
let input = null;
let end = null;
const clock = createClock(app, { onView: (v) => pacer.push(v) });

function setConn(msg) {
  const c = $(".conn");
  c.hidden = !msg;
  c.textContent = msg || "";
}

// A forced card (the only one the rules allow) is played for the player when the options say so: the
// frame is drawn as not playable meanwhile, and the card goes after a short moment (the card speed's).
let autoSeq = -1;
function forcedCard(frame) {
  if (!options.loaded || !options.values.auto_play || !frame.interactive || frame.phase !== "playing" || frame.turn !== frame.seat) {
    return null;
  }
  return (frame.legal || []).length === 1 ? frame.legal[0] : null;
}

let lastDeal = null;
let turnSeq = -1;
function draw(frame, info = {}) {
  if (!frame) return;
  if (lastDeal !== null && frame.deal_number !== lastDeal) ui.showLast = false;
  lastDeal = frame.deal_number;
  const forced = forcedCard(frame);
  const shown = forced ? { ...frame, interactive: false } : frame;
  const changed = renderer.render(shown, info);
  app.dataset.seq = String(frame.seq);
  if (input) input.afterRender(shown, changed);
  options.onEvent(frame, info.event);
  if (frame.interactive && frame.your_turn && frame.seq !== turnSeq && frame.phase !== "finished") {
    turnSeq = frame.seq;
    if (!forced) options.myTurn();
  }
  if (forced && autoSeq !== frame.seq && !ui.sending) {
    autoSeq = frame.seq;
    app.dataset.autoPlayed = String((Number(app.dataset.autoPlayed) || 0) + 1);
    setTimeout(() => {
      const now = pacer.frame;
      if (now && now.seq === frame.seq && forcedCard(now) === forced && !ui.sending) {
        send({ card: forced }, { t: "play", seat: now.seat, card: forced });
      }
    }, Math.round(500 * pace()));
  }
  if (info.settled) {
    clock.update(frame);
    emotes.update(frame);
    chat.update(frame);
    end.update(frame);
    // the other pages of this tab (title, favicon) learn about this match from its own socket
    window.dispatchEvent(new CustomEvent("cb:match", {
      detail: { id: frame.id, seq: frame.seq, status: frame.status, turn: frame.turn, your_turn: frame.your_turn },
    }));
  }
}

const pacer = createPacer({ render: draw, collect: (f) => renderer.collect(f) });

const emotes = createEmotes(app, { send: (msg) => conn.sendSocial(msg), frame: () => pacer.frame });
const chat = createChat(app, { send: (msg) => conn.sendSocial(msg), frame: () => pacer.frame });
// who hears what: chat's messages and refusals go to the chat, emotes' to the reactions, mutes to both
const CHAT_ABOUT = new Set(["chat", "report"]);
const watchCount = app.querySelector(".watch-count");
function social(msg) {
  if (msg.type === "watchers") { // how many watch this table (a trick behind, no hand: games/watching)
    const n = Number(msg.count) || 0;
    watchCount.hidden = n === 0;
    watchCount.textContent = `👁 ${n}`;
    watchCount.title = fmt(_("%(n)s watching"), { n });
    watchCount.setAttribute("aria-label", watchCount.title);
    return;
  }
  const forChat = msg.type === "error" ? CHAT_ABOUT.has(msg.about) : msg.type !== "emote";
  if (forChat) chat.receive(msg);
  if (msg.type === "error" ? !CHAT_ABOUT.has(msg.about) : msg.type === "emote" || msg.type === "mutes") emotes.receive(msg);
}
const conn = createConnection(matchId, {
  onView: (v, known) => pacer.push(v, known),
  onStatus: setConn,
  onLive: (live) => { app.dataset.live = live ? "1" : "0"; },
  onSocial: social,
});

async function send(body, shown) {
  const target = pacer.target;
  if (ui.sending || !target) return;
  ui.sending = true;
  app.classList.add("sending");
  pacer.optimistic(shown);
  try {
    await conn.send(target.seq, body);
    app.dataset.sent = String((Number(app.dataset.sent) || 0) + 1);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) {
      input.explain(null, e.body.code ? reasonText(e.body.code) : e.message);
    }
    ui.sending = false;
    if (e instanceof ApiError && e.status < 500) await conn.refetch();
    pacer.resync(); // undo what was shown
  } finally {
    ui.sending = false;
    app.classList.remove("sending");
    // a view may have been drawn while the action was on its way: draw it again as playable
    if (pacer.frame && pacer.frame.interactive) draw(pacer.frame);
  }
}

input = createInput(app, {
  ui,
  frame: () => pacer.frame,
  play: (card) => send({ card }, { t: "play", seat: pacer.frame.seat, card }),
  bid: (n) => send({ bid: n }, { t: "bid", seat: pacer.frame.seat, bid: n }),
});

end = createEnd(app, {
  nameOf: renderer.nameOf,
  winnersText: renderer.winnersText,
  focusTable: () => input.focusHand(),
});

// ---- the table's tools -------------------------------------------------------------------------
$("#last-trick-btn").addEventListener("click", () => {
  ui.showLast = !ui.showLast;
  draw(pacer.frame);
});
const scores = modal(document.getElementById("scores-dialog"));
$("#scores-btn").addEventListener("click", () => scores.open());

// On a phone the site's header steps aside while a match is played (the felt takes the whole screen);
// the "Menu" chip brings it back. In landscape, a full-screen button where the browser offers it.
const small = window.matchMedia("(max-width: 640px), (max-height: 500px)");
const menuChip = $("#menu-chip");
function placeHeader() {
  const f = pacer.target;
  const playing = Boolean(f && f.phase !== "finished");
  document.body.classList.toggle("header-aside", small.matches && playing && !menuChip.classList.contains("on"));
  menuChip.hidden = !(small.matches && playing);
}
menuChip.addEventListener("click", () => {
  menuChip.classList.toggle("on");
  menuChip.setAttribute("aria-pressed", menuChip.classList.contains("on") ? "true" : "false");
  placeHeader();
});
small.addEventListener("change", placeHeader);
window.addEventListener("cb:match", placeHeader);

const fullBtn = $("#fullscreen-btn");
const landscape = window.matchMedia("(max-height: 500px) and (orientation: landscape)");
function placeFull() {
  fullBtn.hidden = !(document.fullscreenEnabled && (landscape.matches || document.fullscreenElement));
  fullBtn.setAttribute("aria-pressed", document.fullscreenElement ? "true" : "false");
  fullBtn.textContent = document.fullscreenElement ? _("Leave full screen") : _("Full screen");
}
fullBtn.addEventListener("click", () => {
  const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
  Promise.resolve(done).catch(() => { /* refused */ }).finally(placeFull);
});
landscape.addEventListener("change", placeFull);
document.addEventListener("fullscreenchange", placeFull);
placeFull();

// A slow safety net: while others are to move and the socket is down, check the seq now and then.
setInterval(() => {
  const v = pacer.target;
  if (v && v.phase !== "finished" && !v.your_turn && !ui.sending && !conn.isLive() && !document.hidden) conn.refetch();
}, 8000);

// For the browser tests and for debugging the connection. `paths`: how many newer views were reached
// through the actions their message carried, through the difference of two views, or shown at once.
window.callbreakTable = {
  get seq() { return pacer.target ? pacer.target.seq : -1; },
  get busy() { return pacer.busy; },
  get pace() { return pace(); },
  get paths() { return pacer.paths; },
  get sentBy() { return conn.sentBy; }, // my actions sent on the socket and by POST (its fallback)
  get offline() { return offline; },
  get timings() { return conn.timings || null; }, // the offline engine's (start, and each answer's)
  dropSocket: () => conn.dropSocket(),
  debug: () => ({ ...pacer.debug(), sending: ui.sending, live: conn.isLive() }),
};

options.load().then(() => draw(pacer.frame));
conn.start().then(() => {
  requestAnimationFrame(() => app.classList.remove("clearing"));
  if (!pacer.target && !offline) setConn(_("Connection problem, retrying…"));
});
