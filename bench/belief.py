"""How well the search bot's worlds explain what the table saw, by trick: drawn, weighted, and after the chain.

At the start of some tricks of heuristic deals, from one seat's view: the worlds the sampler draws (every hard
reading kept), the effective sample size of their evidence weights (the bids and the others' earlier cards as
the heuristic's, a miss costing ``--miss``), how many of them explain every earlier card of the other seats,
and the same count after :func:`engine.bots.posterior.refine` moved each of them ``--steps`` proposals;
then the chain's time a proposal, in the C kernel and in Python (process time, the same worlds out).

    .venv/bin/python bench/belief.py --matches 12 --worlds 160
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import apply, new_match, player_view
from engine.bots import decide, playout
from engine.bots.inference import knowledge
from engine.bots.posterior import PlayEvidence, SeatModel, bid_policy_weights, py_refine, refine
from engine.bots.sampler import sample_worlds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=12)
    ap.add_argument("--worlds", type=int, default=160, help="worlds drawn (and moved by the chain)")
    ap.add_argument("--oversample", type=int, default=16, help="the weighted draw: this many times --worlds")
    ap.add_argument("--miss", type=float, default=0.03, help="a missed earlier card's factor (the chain's)")
    ap.add_argument("--bid-miss", type=float, default=0.1)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--seed", default="belief")
    a = ap.parse_args()
    rows: dict[int, list[tuple[float, float, float, float]]] = {}
    timed: list[tuple[list[list[int]], SeatModel]] = []
    for m in range(a.matches):
        state = new_match(f"{a.seed}-{m}")
        rng = random.Random(m)
        while not state.completed:
            seat = state.turn
            assert seat is not None
            view = player_view(state, seat)
            trick = len(view.tricks)
            if seat == m % 4 and view.legal_cards and not view.trick and trick in (1, 3, 5, 7, 9):
                kn = knowledge(view)
                evidence = PlayEvidence(view, a.miss)
                drawn = sample_worlds(kn, view.bids, a.worlds * a.oversample, rng)
                weighted = bid_policy_weights(view, kn.played_by, drawn, a.bid_miss)
                ws = [w * evidence.weight(h) for h, w in weighted]
                ess = sum(ws) ** 2 / sum(w * w for w in ws)
                fit = sum(evidence.weight(h) == 1.0 for h, _ in drawn) / len(drawn)
                model = SeatModel(view, kn.played_by, kn.allowed, bid_miss=a.bid_miss, play_miss=a.miss)
                start = [h for h, _ in drawn[:a.worlds]]
                moved = refine(start, model, a.steps, m)
                if len(timed) < 10:
                    timed.append((start[:10], model))
                fit_after = sum(evidence.weight(h) == 1.0 for h in moved) / len(moved)
                distinct = len({tuple(h) for h in moved}) / len(moved)
                rows.setdefault(trick, []).append((ess, fit, fit_after, distinct))
            state = apply(state, decide("heuristic", view, "belief"))
    print(f"{a.worlds * a.oversample} worlds drawn; the chain moves {a.worlds} of them {a.steps} proposals each "
          f"(a missed card x {a.miss}, a missed bid x {a.bid_miss}); medians over the positions of {a.matches} matches")
    print("tricks played  ESS of the drawn  drawn that fit every card  after the chain  distinct after")
    for trick in sorted(rows):
        r = rows[trick]
        print(f"{trick:13d}  {statistics.median(x[0] for x in r):16.1f}  {statistics.median(x[1] for x in r):25.1%}"
              f"  {statistics.median(x[2] for x in r):14.1%}  {statistics.median(x[3] for x in r):14.1%}")
    proposals = sum(len(w) for w, _ in timed) * a.steps
    moved_by: dict[str, list[list[list[int]]]] = {}
    for name, fn in (("C kernel", refine if playout.KERNEL else None), ("python", py_refine)):
        if fn is None:
            print("C kernel: not built (no C compiler at install)")
            continue
        t0 = time.process_time()
        moved_by[name] = []
        for worlds, model in timed:
            model.cache.clear()
            moved_by[name].extend(fn(worlds, model, a.steps, 1))
        print(f"{name}: {(time.process_time() - t0) / proposals * 1e6:.2f} µs a proposal")
    if len(moved_by) == 2 and moved_by["C kernel"] != moved_by["python"]:
        raise SystemExit("the C kernel's chain moved the worlds otherwise than Python's")


if __name__ == "__main__":
    main()
