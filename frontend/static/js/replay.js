// Replay viewer for callbreak-replay/1: all hands face up, step through every bid and card, and verify
// the seed. The strong bot's review (review.js and review/) follows the step shown: `show` calls its
// `update(step)`, and it moves the replay through `go(step)`; `actionSteps[version]` is the step of the
// match log's action number `version` (a decision's place in the replay). The jobs live in replay/:
//   loading.js  the document, the viewer's seat, the download     steps.js   the steps, the table after each
//   board.js    drawing a step: seats, hands, trick, its words    controls.js  step, play, jump, keys
//   scores.js   the score sheet                                   verify.js  the fair-deal check
import { _, fmt } from "./i18n.js";
import { playerName } from "./players.js";
import { createReview } from "./review.js";
import { createBoard } from "./replay/board.js";
import { createControls } from "./replay/controls.js";
import { loadReplay, offerDownload, viewerSeat } from "./replay/loading.js";
import { renderScores } from "./replay/scores.js";
import { buildSteps } from "./replay/steps.js";
import { createVerify } from "./replay/verify.js";

const BOTTOM = 0; // seat shown at the bottom: the viewer's own seat when known

/** createReplay(app) -> { start() }: the viewer of the match `app.dataset.matchId`. */
function createReplay(app) {
  const matchId = app.dataset.matchId;
  const state = {
    doc: null,        // the replay document, once loaded
    steps: [],        // {d, kind: "start"|"bid"|"play"|"end", seat, bid, card, t, i}
    actionSteps: [],  // the step of each action of the match log: actionSteps[version]
    pos: 0,           // the step shown
    bottomSeat: BOTTOM,
  };
  let review = null;  // the review panel: { update(step) }

  const posOf = (seat) => (seat - state.bottomSeat + 4) % 4;
  const name = (s) => (state.doc.players[s] && playerName(state.doc.players[s])) || fmt(_("Seat %(n)s"), { n: s + 1 });

  const board = createBoard(app, state, { name, posOf });
  const controls = createControls(app, state, { go });
  const verify = createVerify(app, state);

  function show() {
    board.render();
    controls.show();
    app.dataset.pos = String(state.pos);
    if (review) review.update(state.pos);
  }

  function go(k) {
    state.pos = Math.max(0, Math.min(state.steps.length - 1, k));
    show();
  }

  async function start() {
    const doc = await loadReplay(app, matchId);
    if (!doc) return;
    state.doc = doc;
    const me = viewerSeat(doc);
    if (me >= 0) state.bottomSeat = me;
    Object.assign(state, buildSteps(doc));
    controls.loaded();
    verify.show();
    offerDownload(app, doc, matchId);
    renderScores(app, doc, name);
    go(0);
    app.dataset.ready = "1";
    review = createReview(app, {
      matchId, replay: doc, actionSteps: state.actionSteps, name, viewerSeat: me >= 0 ? me : null,
      go: (k) => { controls.stop(); go(k); },
      stepCount: () => state.steps.length,
    });
    review.update(state.pos);
  }

  return { start };
}

createReplay(document.getElementById("replay-app")).start();
