// The card table: one match seen from the caller's seat. The jobs live in table/:
//   connection.js  REST + live socket, reconnects, seq            pacer.js     one step at a time
//   timeline.js    a message's actions (or two views) as events   render.js    drawing a frame
//   input.js       taps, keys and focus                           dialogs.js   modal dialogs
//   clock.js       a timed match's clock and Resign               end.js       the end of a match
import { ApiError } from "./api.js";
import { reasonText } from "./cards.js";
import { _ } from "./i18n.js";
import { createClock } from "./table/clock.js";
import { createConnection } from "./table/connection.js";
import { modal } from "./table/dialogs.js";
import { createEmotes } from "./table/emotes.js";
import { createEnd } from "./table/end.js";
import { createInput } from "./table/input.js";
import { createPacer } from "./table/pacer.js";
import { createRenderer } from "./table/render.js";

const app = document.getElementById("table-app");
const matchId = app.dataset.matchId;
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
let input = null;
let end = null;
const clock = createClock(app, { onView: (v) => pacer.push(v) });

function setConn(msg) {
  const c = $(".conn");
  c.hidden = !msg;
  c.textContent = msg || "";
}

let lastDeal = null;
function draw(frame, info = {}) {
  if (!frame) return;
  if (lastDeal !== null && frame.deal_number !== lastDeal) ui.showLast = false;
  lastDeal = frame.deal_number;
  const changed = renderer.render(frame, info);
  app.dataset.seq = String(frame.seq);
  if (input) input.afterRender(frame, changed);
  if (info.settled) {
    clock.update(frame);
    emotes.update(frame);
    end.update(frame);
    // the other pages of this tab (title, favicon) learn about this match from its own socket
    window.dispatchEvent(new CustomEvent("cb:match", {
      detail: { id: frame.id, seq: frame.seq, status: frame.status, turn: frame.turn, your_turn: frame.your_turn },
    }));
  }
}

const pacer = createPacer({ render: draw, collect: (f) => renderer.collect(f) });

const emotes = createEmotes(app, { send: (msg) => conn.sendSocial(msg), frame: () => pacer.frame });
const conn = createConnection(matchId, {
  onView: (v, known) => pacer.push(v, known),
  onStatus: setConn,
  onLive: (live) => { app.dataset.live = live ? "1" : "0"; },
  onSocial: (msg) => emotes.receive(msg),
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
  get paths() { return pacer.paths; },
  get sentBy() { return conn.sentBy; }, // my actions sent on the socket and by POST (its fallback)
  dropSocket: () => conn.dropSocket(),
  debug: () => ({ ...pacer.debug(), sending: ui.sending, live: conn.isLive() }),
};

conn.start().then(() => {
  requestAnimationFrame(() => app.classList.remove("clearing"));
  if (!pacer.target) setConn(_("Connection problem, retrying…"));
});
