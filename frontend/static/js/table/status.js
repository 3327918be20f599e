// The status line under the table: whose turn it is (mine stands out), who won the trick, a deal scored,
// the match's winners; the first-trick hint, and the replay link once the match is over.
import { _, fmt } from "../i18n.js";

export function createStatus(app, { nameOf }) {
  const $ = (sel) => app.querySelector(sel);

  const winsText = (f, s) => (s === f.seat ? _("You win the trick") : fmt(_("%(name)s wins the trick"), { name: nameOf(f, s) }));

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

  /** Who won the match, in words (the end dialog says it too). */
  function winnersText(f) {
    const winners = f.winners || [];
    const names = winners.map((s) => nameOf(f, s));
    if (winners.length > 1) return fmt(_("Shared win: %(names)s"), { names: names.join(", ") });
    return winners.includes(f.seat) ? _("You win!") : fmt(_("%(name)s wins"), { name: names[0] || "" });
  }

  function render(f) {
    const mine = f.turn === f.seat && f.phase !== "finished" && !f.hold && !f.summary;
    $(".status-text").textContent = statusText(f);
    $(".statusbar").classList.toggle("my-turn", mine);
    const leading = ((f.trick && f.trick.plays) || []).length === 0;
    $(".first-trick-hint").hidden = !(f.interactive && mine && f.phase === "playing" && f.first_trick && leading);
    $(".status-actions").hidden = f.phase !== "finished";
    $("#replay-link-2").href = `/replay/${encodeURIComponent(f.id)}/`;
  }

  return { render, winnersText };
}
