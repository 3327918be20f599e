// A timed (correspondence) match: the time left for the current turn, a Resign button and, for a person seated
// at a match of an hour or more a move, "Tell me when it's my turn" (push.js, loaded only then), fed by the
// table's views (no polling of its own).
import { api, matchUrl } from "../api.js";
import { _, fmt, formatDateTime, turnEnds } from "../i18n.js";

// Matches this slow or slower are played over hours and days: worth a push when the turn comes.
const CORRESPONDENCE_SECONDS = 3600;
// This fast or faster: the live pace (a move clock and a bank per deal, shown as m:ss).
const LIVE_SECONDS = 60;

const mss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

// The live chip: the move clock counts down first, then the seat's bank (part of the deadline sent).
function liveText(left, bank) {
  const fromBank = Math.min(bank, left);
  const clock = mss(left - fromBank);
  return bank > 0 ? fmt(_("%(clock)s · bank %(bank)s s"), { clock, bank: fromBank }) : clock;
}

export function createClock(app, { onView }) {
  const bar = app.querySelector(".corr-bar");
  const chip = bar.querySelector("[data-testid=deadline]");
  const resign = bar.querySelector("[data-testid=resign]");
  const pushOffer = bar.querySelector("[data-push-offer]");
  let pushLoaded = false;
  let ticker = null;
  let view = null;

  resign.addEventListener("click", async () => {
    if (!view || !window.confirm(_("Resign? A bot plays your seat for the rest of the match."))) return;
    resign.disabled = true;
    try {
      onView(await api(`${matchUrl(view.id)}resign/`, { method: "POST" }));
    } catch (e) {
      resign.disabled = false;
      window.alert(e.message);
    }
  });

  function update(v) {
    view = v;
    clearInterval(ticker);
    if (!v.move_seconds) {
      bar.hidden = true; // a match against bots: no clock
      return;
    }
    bar.hidden = false;
    const me = (v.seats || []).find((s) => s.you || s.seat === v.seat);
    resign.hidden = v.status !== "active" || !me || me.autopilot;
    if (pushOffer) {
      pushOffer.hidden = v.status !== "active" || !me || v.move_seconds < CORRESPONDENCE_SECONDS;
      if (!pushOffer.hidden && !pushLoaded) {
        pushLoaded = true;
        import("../push.js").catch(() => { pushLoaded = false; });
      }
    }
    if (v.status !== "active" || !v.deadline || v.seconds_left == null) {
      chip.hidden = true;
      return;
    }
    const due = Date.now() + v.seconds_left * 1000;
    const live = v.move_seconds <= LIVE_SECONDS;
    const turnSeat = (v.seats || []).find((s) => s.seat === v.turn);
    const bank = live && turnSeat ? turnSeat.bank_seconds || 0 : 0;
    const tick = () => {
      const left = Math.max(0, Math.round((due - Date.now()) / 1000));
      chip.textContent = live ? liveText(left, bank) : turnEnds(left);
      chip.classList.toggle("low", live && left <= 5);
    };
    chip.classList.toggle("live", live);
    chip.hidden = false;
    chip.classList.toggle("mine", !!v.your_turn);
    chip.title = formatDateTime(v.deadline);
    tick();
    ticker = setInterval(tick, v.seconds_left < 3600 ? 1000 : 30000);
  }

  return { update };
}
