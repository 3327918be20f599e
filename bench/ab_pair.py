"""Pair the deals of ``bench/ab_deals.py --save`` runs made apart (same ``--seed`` and ``--opponent``).

A bot's decisions are a function of ``(view, seed)``, so a run of variant A today and of variant B later on the
same seed deal the same cards to the same seats against the same opponents: the deal-by-deal difference is the
same paired comparison as running them side by side.

    .venv/bin/python bench/ab_pair.py /tmp/ab-v2.json /tmp/ab-v3.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any


def _q(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", type=Path, help="the first file's first variant is the base")
    a = ap.parse_args()
    rows = [r for f in a.files for r in json.loads(f.read_text())]
    by: dict[str, dict[tuple[str, int], dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["variant"], {})[(r["deal"], r["seat"])] = r
    names = list(by)
    base = by[names[0]]
    for n in names:
        mine = by[n]
        keys = sorted(set(mine) & set(base))
        ms = [mine[k]["margin"] for k in keys]
        made = sum(mine[k]["won"] >= mine[k]["bid"] for k in keys) / len(keys)
        line = (f"{n:20s} n {len(keys)}  margin {statistics.fmean(ms):+.3f}  made {made:.1%}"
                f"  bid {statistics.fmean(mine[k]['bid'] for k in keys):.2f}")
        cards = sorted(t for k in keys for t in mine[k].get("times", []) if t > 0)
        bids = sorted(-t for k in keys for t in mine[k].get("times", []) if t < 0)
        if cards:
            line += f"  card p50/p95 {_q(cards, 0.5) * 1000:.0f}/{_q(cards, 0.95) * 1000:.0f} ms cpu"
        if bids:
            line += f"  bid p95 {_q(bids, 0.95) * 1000:.0f} ms cpu"
        if n != names[0] and len(keys) > 1:
            d = [mine[k]["margin"] - base[k]["margin"] for k in keys]
            half = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
            line += f"  vs {names[0]}: {statistics.fmean(d):+.3f} ± {half:.3f} a deal"
        for key in ("win", "beaten"):  # the fifth deal's match wins and opponents finished below (--last)
            # (a run without --last saves zeros)
            if all(key in mine[k] and key in base[k] for k in keys) and any(base[k][key] for k in keys):
                line += f"  {key} {statistics.fmean(mine[k][key] for k in keys):.3f}"
                if n != names[0] and len(keys) > 1:
                    d = [mine[k][key] - base[k][key] for k in keys]
                    line += f" ({statistics.fmean(d):+.3f} ± {1.96 * statistics.stdev(d) / math.sqrt(len(d)):.3f})"
        print(line)


if __name__ == "__main__":
    main()
