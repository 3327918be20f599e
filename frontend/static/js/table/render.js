// Drawing a frame of the table: the parts, each in its own module, drawn in one order. Input (what a tap
// or a key does) lives in input.js, dialogs in dialogs.js.
//   seating.js  who sits where, their names    seats.js   the name plates     trick.js   the trick
//   hand.js     my hand                        bidding.js the bid picker      status.js  the status line
//   info.js     deal, trick, Last trick, seed  scores.js  score sheet, a deal's summary
import { createBidPicker } from "./bidding.js";
import { createHand } from "./hand.js";
import { createInfo } from "./info.js";
import { createScores } from "./scores.js";
import { createSeating } from "./seating.js";
import { createSeats } from "./seats.js";
import { createStatus } from "./status.js";
import { createTrick } from "./trick.js";

export function createRenderer(app, ui) {
  const seating = createSeating(app);
  const infoBar = createInfo(app, ui);
  const seats = createSeats(app, seating);
  const trick = createTrick(app, ui, seating);
  const hand = createHand(app, ui);
  const picker = createBidPicker(app, ui, seating);
  const status = createStatus(app, seating);
  const scores = createScores(app, seating);

  /** Draw frame `f`. Returns what changed that input cares about (the bid picker opened). */
  function render(f, info = {}) {
    if (!f) return {};
    app.dataset.phase = f.phase;
    app.dataset.interactive = f.interactive ? "1" : "0";
    infoBar.render(f);
    seats.render(f);
    trick.render(f, info);
    hand.render(f, info);
    const bidding = picker.render(f);
    status.render(f);
    scores.render(f);
    return { pickerOpened: bidding.opened };
  }

  return { render, collect: trick.collect, nameOf: seating.nameOf, winnersText: status.winnersText, posOf: seating.posOf };
}
