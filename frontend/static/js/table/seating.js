// Who sits where and what they are called: the seats turn so that mine is at the bottom (0 bottom, 1 right,
// 2 top, 3 left), and each seat has one name for the plates, the trick, the bids and the status line.
import { _, fmt } from "../i18n.js";
import { playerName } from "../players.js";

export function createSeating(app) {
  const mySeat = (f) => (f && f.seat != null ? f.seat : 0);
  const posOf = (f, seat) => (seat - mySeat(f) + 4) % 4; // 0 bottom, 1 right, 2 top, 3 left
  const seatEl = (pos) => app.querySelector(`.seat[data-pos="${pos}"]`);
  const seatOf = (f, s) => (f.seats || []).find((x) => x.seat === s) || { seat: s, name: "", kind: "human" };
  const nameOf = (f, s) => (s === f.seat ? _("You") : playerName(seatOf(f, s)) || fmt(_("Seat %(n)s"), { n: s + 1 }));
  return { posOf, seatEl, seatOf, nameOf };
}
