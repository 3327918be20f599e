"""The measurements behind the analysis's constants: ``python -m engine.analysis.calibrate``.

* ``win-scale REPLAY…``: what one point of total is worth in chance of winning the match at the
  start of the fifth deal (the fifth deal's values are win chances, converted to points by
  :data:`.evaluate.WIN_SCALE`).
* ``noise REPLAY…``: how much the sampling moves a decision's expected loss, across budgets and
  seeds, against a large reference budget (the label thresholds of :mod:`.review` sit above it).

Both print what they measured; docs/analysis.md keeps the figures and the commands.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ..deal import DEALS_PER_MATCH
from .evaluate import value_bids
from .review import Decision, decide_point, decision_points, decision_rng


def win_slopes(replay_doc: Mapping[str, Any], worlds: int, seed: str, delta: int = 10) -> list[float]:
    """For each seat, at its fifth-deal bid: the change in its chance of winning the match per point
    of total, ``(P(total + delta) - P(total - delta)) / (2 delta / 10)``, bidding what it bid, in the
    same sampled deals."""
    out = []
    for seat in range(4):
        point = next(p for p in decision_points(replay_doc, seat) if p.deal == DEALS_PER_MATCH)
        view = point.view
        bid = point.played
        assert isinstance(bid, int)
        chances = []
        for d in (delta, -delta):
            totals = tuple(t + d if s == seat else t for s, t in enumerate(view.totals))
            rng = random.Random(f"win-scale:{seed}:{replay_doc.get('match_id')}:{seat}")
            val = value_bids(replace(view, totals=totals), [bid], worlds, rng)
            assert val.win is not None
            chances.append(val.win[bid])
        out.append((chances[0] - chances[1]) / (2 * delta / 10))
    return out


def losses(replay_doc: Mapping[str, Any], seat: int, budget: int, seed: str) -> list[Decision]:
    return [decide_point(p, budget, decision_rng(seed, budget, seat, p.version))
            for p in decision_points(replay_doc, seat)]


def _quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def noise_records(job: tuple[Mapping[str, Any], int, Sequence[int], int]) -> list[dict[str, Any]]:
    """For every unforced decision of one seat: its loss at the reference budget, and at each budget
    with two seeds (``s1``, ``s2``)."""
    doc, seat, budgets, reference = job
    ref = losses(doc, seat, reference, "ref")
    runs = {b: (losses(doc, seat, b, "s1"), losses(doc, seat, b, "s2")) for b in budgets}
    out = []
    for i, r in enumerate(ref):
        if r.forced:
            continue
        out.append({"kind": r.kind, "deal": r.deal, "ref": r.loss,
                    "runs": {b: (a1[i].loss, a2[i].loss) for b, (a1, a2) in runs.items()}})
    return out


def noise_table(records: Sequence[Mapping[str, Any]], budgets: Sequence[int]) -> list[dict[str, Any]]:
    """Per budget and kind, in tenths: the spread of a decision's loss between two seeds; the loss
    that the sampling gives to decisions the reference budget finds best (pure noise); and how often
    that noise alone would reach each threshold."""
    rows: list[dict[str, Any]] = []
    for b in budgets:
        for kind in ("bid", "card"):
            recs = [r for r in records if r["kind"] == kind]
            diff = [abs(r["runs"][b][0] - r["runs"][b][1]) for r in recs]
            null = [x for r in recs if r["ref"] == 0 for x in r["runs"][b]]
            err = [x - r["ref"] for r in recs for x in r["runs"][b]]
            rows.append({
                "budget": b, "kind": kind, "decisions": len(recs), "ref_best": len(null) // 2,
                "seed_diff": [_quantile(diff, q) for q in (0.5, 0.9, 0.95, 0.99)],
                "null_loss": [_quantile(null, q) for q in (0.5, 0.9, 0.95, 0.99)],
                "abs_err_vs_ref": [_quantile([abs(e) for e in err], q) for q in (0.5, 0.9, 0.95, 0.99)],
                "null_at_least": {t: round(sum(1 for x in null if x >= t) / max(1, len(null)), 4)
                                  for t in (3, 5, 10, 15, 20, 40)},
            })
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.analysis.calibrate", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ws = sub.add_parser("win-scale", help="points of total per unit of match-win chance at the fifth deal")
    ws.add_argument("replays", nargs="+", type=Path)
    ws.add_argument("--worlds", type=int, default=400)
    ws.add_argument("--seed", default="0")
    nz = sub.add_parser("noise", help="spread of the losses across budgets and seeds")
    nz.add_argument("replays", nargs="+", type=Path)
    nz.add_argument("--seats", default="0,1")
    nz.add_argument("--budgets", default="50,100,200,400")
    nz.add_argument("--reference", type=int, default=1600)
    nz.add_argument("--jobs", type=int, default=1)
    nz.add_argument("--save", type=Path, help="also write the per-decision records here (JSON)")
    args = parser.parse_args(argv)
    docs = [json.loads(p.read_text()) for p in args.replays]
    if args.command == "win-scale":
        slopes = [s for doc in docs for s in win_slopes(doc, args.worlds, args.seed)]
        mean = statistics.fmean(slopes)
        sem = statistics.stdev(slopes) / len(slopes) ** 0.5 if len(slopes) > 1 else 0.0
        print(f"{len(slopes)} fifth-deal positions: one point of total moves the win chance by "
              f"{mean:.4f} ± {1.96 * sem:.4f} (mean, 95%); one unit of win chance ≈ {1 / mean:.1f} points")
        nonzero = sorted(s for s in slopes)
        print(f"slope quartiles: {_quantile(nonzero, 0.25):.4f} {_quantile(nonzero, 0.5):.4f} "
              f"{_quantile(nonzero, 0.75):.4f}")
        return 0
    budgets = [int(b) for b in args.budgets.split(",")]
    jobs = [(doc, int(seat), budgets, args.reference) for doc in docs for seat in args.seats.split(",")]
    with Pool(args.jobs) as pool:
        records = [r for rs in pool.map(noise_records, jobs, chunksize=1) for r in rs]
    if args.save:
        args.save.write_text(json.dumps(records))
    for row in noise_table(records, budgets):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
