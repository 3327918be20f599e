// A timed (correspondence) match: the time left for the current turn, a Resign button and, for a person seated
// at a match of an hour or more a move, "Tell me when it's my turn" (push.js, loaded only then), fed by the
// table's views (no polling of its own).
import { api, matchUrl } from "../api.js";
import { _, formatDateTime, turnEnds } from "../i18n.js";

// Matches this slow or slower are played over hours and days: worth a push when the turn comes.
const CORRESPONDENCE_SECONDS = 3600;

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
    const tick = () => {
      chip.textContent = turnEnds(Math.round((due - Date.now()) / 1000));
    };
    chip.hidden = false;
    chip.classList.toggle("mine", !!v.your_turn);
    chip.title = formatDateTime(v.deadline);
    tick();
    ticker = setInterval(tick, v.seconds_left < 3600 ? 1000 : 30000);
  }

  return { update };
}
