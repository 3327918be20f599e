// The pace of the table: views come in whenever the server sends them, most with the actions that lead
// to them; the page shows what happened one step at a time, so each card lands in turn (about 350 ms
// apart), a finished trick stays a second, and a deal's last trick is seen before its summary (the
// match's, before the end).
import { applyEvent, copy, diff, fromActions } from "./timeline.js";

// The card speed (the table's options: slow, normal, fast, instant) scales every wait; a test may scale
// it further with localStorage "cb-pace" (0.1 = ten times faster).
const SPEEDS = { slow: 1.6, normal: 1, fast: 0.5, instant: 0.04 };
const TEST_PACE = (() => {
  const v = Number(window.localStorage && localStorage.getItem("cb-pace"));
  return v > 0 && v <= 4 ? v : 1;
})();
let speed = 1;
export const pace = () => speed * TEST_PACE;
export function setSpeed(name) { speed = SPEEDS[name] || 1; }
// Someone who asked for less motion sees no card fly in or sweep away, no bid bounce.
export const reduceMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export const GAP = 350;        // between two cards or bids
const TRICK_SEEN = 450;        // the fourth card lands, then the winner is shown
const TRICK_HOLD = 1000;       // the finished trick stays with its winner
const COLLECT = 280;           // the cards sweep to the winner
const SUMMARY = 2600;          // a deal's scores
const LAST_TRICK_HOLD = 1400;  // the match's last trick, before the end dialog
const MAX_EVENTS = 40;         // more than this (a long absence): show the newest view at once
const KEEP_CLOCK = -1;         // a step that showed nothing new: the next one keeps its time
// A backlog (a burst of moves, a slow device) plays faster the longer it is, so the table is never far behind:
// beyond a trick's worth of steps at twice the pace, beyond a deal's half at four times.
const catchUp = (queued) => (queued > 48 ? 0.25 : queued > 12 ? 0.5 : 1);

/**
 * createPacer({ render(frame, info), collect(frame) -> ms, me }) -> { push(view), frame, busy, ... }
 * `render` draws a frame; `info.event` is the event that produced it (for animations).
 */
export function createPacer({ render, collect }) {
  let frame = null;      // on screen
  let target = null;     // the newest view: the steps lead to it
  const steps = [];      // { delay, run }
  let timer = null;
  let clearing = null;   // the sweep's end (a trick's cards gone), due a moment after the collect step ran
  let lastAt = 0;        // when the last step ran
  // how each newer view was reached: its actions, the difference of two views, or shown at once
  const paths = { actions: 0, diff: 0, jump: 0 };

  const ms = (x) => Math.round(x * pace());

  function settle(v) {
    // a sweep still due belongs to an older frame: drawn after the newest view, it would leave the table
    // showing a frame that waits for nothing (not playable, no step to come)
    clearTimeout(clearing);
    clearing = null;
    frame = copy(v);
    frame.interactive = steps.length === 0;
    frame.hold = null;
    frame.summary = null;
    render(frame, { settled: true });
  }

  // Run the first step once its delay has passed since the last step ran (re-planned on every change).
  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (!steps.length) return;
    const wait = Math.max(0, steps[0].delay * catchUp(steps.length) - (performance.now() - lastAt));
    timer = setTimeout(() => {
      timer = null;
      const step = steps.shift();
      try {
        const after = step.run();
        if (after !== KEEP_CLOCK) lastAt = performance.now() + (after || 0);
      } finally {
        schedule(); // a step that failed must not stop the table
        if (!steps.length && frame && !frame.interactive && target) settle(target);
      }
    }, wait);
  }

  const shownAlready = (e) => frame && e.seat === frame.seat && (e.t === "play"
    ? ((frame.trick && frame.trick.plays) || []).some((p) => p.card === e.card)
    : frame.bids && frame.bids[e.seat] === e.bid);

  const show = (e, v) => () => {
    frame = applyEvent(frame, e, v);
    render(frame, { event: e });
  };

  function eventSteps(events, v) {
    const out = [];
    const isEnd = events.some((x) => x.t === "end");
    events.forEach((e, i) => {
      if (e.t === "bid" || e.t === "play") {
        // my own card or bid is already on screen when it was shown as it was sent
        const mine = i === 0 && !steps.length && shownAlready(e);
        out.push({
          delay: mine ? 0 : ms(GAP),
          run: () => (shownAlready(e) ? KEEP_CLOCK : show(e, v)()),
        });
      } else if (e.t === "trick") {
        out.push({ delay: ms(TRICK_SEEN), run: show(e, v) });
        if (isEnd && e.lastOfDeal) return; // the match's last trick stays on the table
        out.push({
          delay: ms(TRICK_HOLD),
          run: () => {
            const took = collect(frame) || 0;
            const clear = show({ t: "clear" }, v);
            clearing = setTimeout(() => { clearing = null; clear(); }, took);
            return took;
          },
        });
      } else if (e.t === "deal") {
        out.push({ delay: ms(200), run: show(e, v) });
      } else if (e.t === "newdeal") {
        out.push({ delay: ms(SUMMARY), run: show(e, v) });
      } else if (e.t === "end") {
        out.push({ delay: ms(LAST_TRICK_HOLD), run: () => KEEP_CLOCK });
      }
    });
    return out;
  }

  return {
    get frame() { return frame; },
    get target() { return target; },
    get busy() { return steps.length > 0; },
    get paths() { return { ...paths }; },
    debug: () => ({ steps: steps.length, timer: timer !== null, frame: frame && [frame.seq, frame.phase, frame.turn,
      frame.interactive], target: target && [target.seq, target.phase, target.turn] }),

    /** A view from the server (REST or socket), with the actions from seq `since` that lead to it if known. */
    push(v, { since, actions } = {}) {
      if (!v) return;
      if (!target) {
        target = v;
        settle(v);
        lastAt = performance.now();
        return;
      }
      if (v.seq < target.seq) return;
      if (v.seq === target.seq) {
        // the same moment, resent (a seat handed to a bot, the rating arrived): no animation
        target = v;
        if (!steps.length) settle(v);
        else steps[steps.length - 1].run = () => settle(v);
        return;
      }
      let events = null;
      let path = "jump";
      if (!document.hidden) {
        events = fromActions(target, v, since, actions);
        if (events) path = "actions";
        else if ((events = diff(target, v))) path = "diff";
      }
      target = v;
      if (!events || events.length > MAX_EVENTS) path = "jump";
      paths[path] += 1;
      if (path === "jump") {
        steps.length = 0;
        steps.push({ delay: 0, run: () => settle(v) });
      } else {
        // views that only repeat what is queued need no step of their own
        if (steps.length) steps.pop(); // the previous target's settle: the new one replaces it
        steps.push(...eventSteps(events, v));
        steps.push({ delay: steps.length ? ms(150) : 0, run: () => settle(v) });
      }
      schedule();
    },

    /** Show my own card or bid at once (it is being sent). */
    optimistic(e) {
      if (!frame) return;
      frame = applyEvent(frame, e, target);
      render(frame, { event: e, optimistic: true });
      lastAt = performance.now(); // the next card lands a full gap after this one is on screen
    },

    /** Show the newest view again as it is (a failed action: undo what was shown). */
    resync() {
      if (!target || steps.length) return;
      settle(target);
    },
  };
}
