// What happened between two views of a match, as events to show one by one.
//
// The server may send only the newest view after a burst of actions (a card and the bots' answers), so
// the page does not expect one view per action: it compares the view on screen with the new one.
// Within a deal a view holds every bid and every trick so far, so the difference is exact; across a
// deal's end the old deal's last trick is the new view's `last_trick`. When the difference cannot be
// rebuilt (a long absence), `diff` answers null and the page shows the new view at once.

export const biddingOrder = (v) => [1, 2, 3, 4].map((k) => (v.dealer + k) % 4);

// Everything of the current deal in the order it happened: bids, then plays and finished tricks.
function dealItems(v) {
  const items = [];
  for (const s of biddingOrder(v)) {
    if (v.bids && v.bids[s] != null) items.push({ t: "bid", seat: s, bid: v.bids[s] });
  }
  for (const tr of v.tricks || []) {
    for (const p of tr.plays) items.push({ t: "play", seat: p.seat, card: p.card });
    items.push({ t: "trick", trick: tr });
  }
  for (const p of (v.trick && v.trick.plays) || []) items.push({ t: "play", seat: p.seat, card: p.card });
  return items;
}

const sameItem = (a, b) => a && b && a.t === b.t && a.seat === b.seat && a.bid === b.bid && a.card === b.card
  && (a.t !== "trick" || a.trick.winner === b.trick.winner);

/** The events from `prev` to `next` (both views of one seat), or null when they cannot be rebuilt. */
export function diff(prev, next) {
  if (!prev || !next || prev.phase === "finished") return null;
  const finishedNow = next.phase === "finished";
  const before = dealItems(prev);
  if (!finishedNow && next.deal_number === prev.deal_number) {
    const after = dealItems(next);
    if (after.length < before.length || !before.every((x, i) => sameItem(x, after[i]))) return null;
    return after.slice(before.length);
  }
  // The deal ended: its last trick is next.last_trick (while the new deal has no finished trick).
  if (!finishedNow && (next.deal_number !== prev.deal_number + 1 || (next.tricks || []).length)) return null;
  const last = next.last_trick;
  if (!last || (prev.tricks || []).length !== 12 || prev.phase !== "playing") return null;
  const shown = (prev.trick && prev.trick.plays) || [];
  if (!shown.every((p, i) => last.plays[i] && last.plays[i].card === p.card)) return null;
  const events = last.plays.slice(shown.length).map((p) => ({ t: "play", seat: p.seat, card: p.card }));
  events.push({ t: "trick", trick: last, lastOfDeal: true });
  const record = (next.deals || [])[prev.deal_number - 1];
  if (finishedNow) {
    events.push({ t: "end", record });
    return events;
  }
  if (record) events.push({ t: "deal", record });
  events.push({ t: "newdeal" });
  return events.concat(dealItems(next));
}

const copy = (v) => (typeof structuredClone === "function" ? structuredClone(v) : JSON.parse(JSON.stringify(v)));

/**
 * The frame on screen after event `e`, from the frame before it. `next` is the view the events lead
 * to (for a new deal's hand). Frames are views with extra fields: `hold` (a finished trick shown with
 * its winner), `summary` (a deal just scored) and `interactive` (false: nothing can be played).
 */
export function applyEvent(frame, e, next) {
  const me = frame.seat;
  let f = copy(frame);
  f.interactive = false;
  f.legal = [];
  f.locked = {};
  f.summary = null;
  if (e.t !== "clear") f.hold = null;
  switch (e.t) {
    case "bid": {
      f.bids[e.seat] = e.bid;
      const order = biddingOrder(f);
      const i = order.indexOf(e.seat);
      if (f.bids.every((b) => b != null)) {
        f.phase = "playing";
        f.turn = order[0];
        f.trick = { leader: order[0], plays: [] };
      } else {
        f.turn = order[(i + 1) % 4];
      }
      break;
    }
    case "play": {
      if (f.hold) f.trick = { leader: f.hold.winner, plays: [] };
      f.trick.plays.push({ seat: e.seat, card: e.card });
      if (f.hand_counts) f.hand_counts[e.seat] = Math.max(0, f.hand_counts[e.seat] - 1);
      if (e.seat === me) f.hand = (f.hand || []).filter((c) => c !== e.card);
      f.turn = (e.seat + 1) % 4;
      break;
    }
    case "trick": {
      f.trick = { leader: e.trick.leader, plays: e.trick.plays.slice() };
      f.hold = e.trick;
      f.tricks_won[e.trick.winner] += 1;
      f.tricks = (f.tricks || []).concat([e.trick]);
      f.last_trick = e.trick;
      f.turn = e.trick.winner;
      break;
    }
    case "clear": {
      const winner = f.hold ? f.hold.winner : f.turn;
      f.hold = null;
      f.trick = { leader: winner, plays: [] };
      f.trick_number = Math.min(13, (f.tricks || []).length + 1);
      f.first_trick = false;
      break;
    }
    case "deal": {
      f.summary = e.record;
      f.deals = (f.deals || []).concat([e.record]);
      f.totals = e.record.totals.slice();
      f.turn = null;
      break;
    }
    case "newdeal": {
      // the new deal as it was dealt: next's hand with the cards already played back in it
      f = copy(next);
      f.interactive = false;
      f.legal = [];
      f.locked = {};
      f.hold = null;
      f.summary = null;
      const played = dealItems(next).filter((x) => x.t === "play");
      for (const p of played) {
        if (p.seat === me) f.hand.push(p.card);
        if (f.hand_counts) f.hand_counts[p.seat] += 1;
      }
      f.phase = "bidding";
      f.bids = [null, null, null, null];
      f.tricks_won = [0, 0, 0, 0];
      f.tricks = [];
      f.trick = { leader: biddingOrder(next)[0], plays: [] };
      f.trick_number = 1;
      f.first_trick = true;
      f.turn = biddingOrder(next)[0];
      f.last_trick = frame.last_trick;
      f.dealt = true;
      break;
    }
    default:
      break;
  }
  return f;
}

export { copy };
