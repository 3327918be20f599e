// What happened between two views of a match, as events to show one by one.
//
// A socket message after actions carries them (`since` and the bids and cards played from there to its
// view's seq): `fromActions` turns them into events, taking each finished trick (its winner) and a deal's
// record from the view they lead to. The server may send only the newest view after a burst of actions (a
// card and the bots' answers), and a REST answer carries no actions, so when a message has none, or they do
// not start at or before the view on screen (a long absence), `diff` compares the two views instead: within
// a deal a view holds every bid and every trick so far, so the difference is exact; across a deal's end the
// old deal's last trick is the new view's `last_trick`. When neither can rebuild what happened, both answer
// null and the page shows the new view at once.

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

const samePlays = (a, b) => a.length === b.length && a.every((p, i) => p.seat === b[i].seat && p.card === b[i].card);

/**
 * The events from `prev` (the view on screen) to `next`, from the actions a message carries: `actions`
 * lead from seq `since` to `next.seq`, so those after `prev.seq` are new (the rest was shown already).
 * Each event of a bid or a card knows whose turn comes after it (the next action's seat). A finished
 * trick comes from `next` (its `tricks`, or `last_trick` at a deal's end), else its winner is the one who
 * leads the next trick, or the one whose tricks grew in the deal's record. Null when the actions do not
 * fit the two views (or span more than one deal's end): the caller falls back on `diff`.
 */
export function fromActions(prev, next, since, actions) {
  if (!prev || !next || prev.phase === "finished" || !Array.isArray(actions) || !Number.isInteger(since)) return null;
  if (since > prev.seq || since + actions.length !== next.seq || next.seq <= prev.seq) return null;
  const todo = actions.slice(prev.seq - since);
  const finished = next.phase === "finished";
  let deal = prev.deal_number;
  let done = (prev.tricks || []).length; // finished tricks of the deal in play
  let plays = ((prev.trick && prev.trick.plays) || []).slice();
  let won = (prev.tricks_won || [0, 0, 0, 0]).slice();
  const events = [];

  const trickDone = (i) => {
    const leader = plays[0].seat;
    let trick = null;
    if (deal === next.deal_number) {
      trick = (next.tricks || [])[done];
    } else if (done === 12 && next.last_trick && samePlays(next.last_trick.plays, plays)) {
      trick = next.last_trick;
    } else if (done < 12 && todo[i + 1] && "card" in todo[i + 1]) {
      trick = { leader, plays, winner: todo[i + 1].seat };
    } else if (done === 12) {
      const record = (next.deals || [])[deal - 1];
      const grew = record ? [0, 1, 2, 3].filter((s) => record.tricks_won[s] - won[s] === 1) : [];
      if (grew.length === 1) trick = { leader, plays, winner: grew[0] };
    }
    return trick && samePlays(trick.plays, plays) && trick.leader === leader ? trick : null;
  };

  for (let i = 0; i < todo.length; i++) {
    const a = todo[i];
    if (!a || typeof a.seat !== "number") return null;
    const turn = i + 1 < todo.length ? todo[i + 1].seat : next.turn;
    if ("bid" in a) {
      events.push({ t: "bid", seat: a.seat, bid: a.bid, turn });
      continue;
    }
    if (!("card" in a)) return null;
    plays.push({ seat: a.seat, card: a.card });
    if (plays.length < 4) {
      events.push({ t: "play", seat: a.seat, card: a.card, turn });
      continue;
    }
    events.push({ t: "play", seat: a.seat, card: a.card }); // the trick that ends here says whose turn it is
    const trick = trickDone(i);
    if (!trick) return null;
    won[trick.winner] += 1;
    done += 1;
    plays = [];
    if (done < 13) {
      events.push({ t: "trick", trick });
      continue;
    }
    events.push({ t: "trick", trick, lastOfDeal: true });
    const record = (next.deals || [])[deal - 1];
    if (finished && deal === next.deal_number && i === todo.length - 1) {
      events.push({ t: "end", record });
      return events;
    }
    if (deal + 1 !== next.deal_number) return null; // several deals: the new deal's hand is not known
    if (record) events.push({ t: "deal", record });
    events.push({ t: "newdeal" });
    deal += 1;
    done = 0;
    won = [0, 0, 0, 0];
  }
  if (finished || deal !== next.deal_number || done !== (next.tricks || []).length
    || !samePlays(plays, (next.trick && next.trick.plays) || [])) return null;
  return events;
}

const copy = (v) => (typeof structuredClone === "function" ? structuredClone(v) : JSON.parse(JSON.stringify(v)));

/**
 * The frame on screen after event `e`, from the frame before it. `next` is the view the events lead
 * to (for a new deal's hand). Whose turn follows a bid or a card is the event's `turn` when the actions
 * told it, else the seat after in play (a card shown as it is sent, the events of `diff`). Frames are views with extra fields: `hold` (a finished trick shown with
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
        f.turn = e.turn ?? order[0];
        f.trick = { leader: f.turn, plays: [] };
      } else {
        f.turn = e.turn ?? order[(i + 1) % 4];
      }
      break;
    }
    case "play": {
      if (f.hold) f.trick = { leader: f.hold.winner, plays: [] };
      f.trick.plays.push({ seat: e.seat, card: e.card });
      if (f.hand_counts) f.hand_counts[e.seat] = Math.max(0, f.hand_counts[e.seat] - 1);
      if (e.seat === me) f.hand = (f.hand || []).filter((c) => c !== e.card);
      f.turn = e.turn ?? (e.seat + 1) % 4;
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
