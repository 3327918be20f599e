// The replay's steps: a deal's start, every bid and card in the order they came, and the deal's scoring;
// and the table after any step (hands, bids, tricks won, the trick on the table, the totals). No drawing.

/**
 * buildSteps(doc) -> { steps, actionSteps }. A step is {d, kind: "start"|"bid"|"play"|"end", seat, bid,
 * card, t, i}; `actionSteps[version]` is the step of the match log's action number `version`.
 */
export function buildSteps(doc) {
  const steps = [];
  doc.deals.forEach((deal, d) => {
    steps.push({ d, kind: "start" });
    for (const b of deal.bids) steps.push({ d, kind: "bid", seat: b.seat, bid: b.bid });
    deal.tricks.forEach((tr, t) => {
      tr.plays.forEach((p, i) => steps.push({ d, kind: "play", seat: p.seat, card: p.card, t, i }));
    });
    steps.push({ d, kind: "end" });
  });
  const actionSteps = steps.flatMap((s, k) => (s.kind === "bid" || s.kind === "play" ? [k] : []));
  return { steps, actionSteps };
}

/** The table after step k. */
export function stateAt(doc, steps, k) {
  const st = steps[k];
  const deal = doc.deals[st.d];
  const hands = deal.hands.map((h) => [...h]);
  const bids = [null, null, null, null];
  const won = [0, 0, 0, 0];
  let trick = null;
  let lastDone = null;
  let j0 = k;
  while (j0 > 0 && steps[j0 - 1].d === st.d) j0--;
  for (let j = j0; j <= k; j++) {
    const s = steps[j];
    if (s.kind === "bid") bids[s.seat] = s.bid;
    if (s.kind === "play") {
      const h = hands[s.seat];
      h.splice(h.indexOf(s.card), 1);
      const tr = deal.tricks[s.t];
      trick = { leader: tr.leader, plays: tr.plays.slice(0, s.i + 1), winner: s.i === 3 ? tr.winner : null, t: s.t };
      if (s.i === 3) {
        won[tr.winner] += 1;
        lastDone = s.t;
      }
    }
  }
  const prevTotals = st.d > 0 ? doc.deals[st.d - 1].totals : [0, 0, 0, 0];
  return { st, deal, hands, bids, won, trick, lastDone, totals: st.kind === "end" ? deal.totals : prevTotals };
}

/** Whose turn it is after step k (null when the deal ends there). */
export function turnAfter(steps, k) {
  const next = steps[k + 1];
  return next && (next.kind === "bid" || next.kind === "play") && next.d === steps[k].d ? next.seat : null;
}
