"""A bot's margin over the other seats from the replays of ``python -m engine simulate --duplicate --out DIR``.

``simulate`` prints the interval with every match as one sample.  In duplicate play the four rotations of a
seed are the same cards dealt to other seats, so they are not independent: luck the rotations share cancels
in their mean.  This prints both, per match and per seed (the mean of its rotations, one sample a seed), so
the paired comparison can be read either way.  The margin is, per match, the mean total of the bot's seats
minus the mean total of the others, in points (one seat: minus the mean of the three others).

    .venv/bin/python bench/duplicate_margin.py --bot strong /tmp/goal-pairs /tmp/goal-pairs-b

A run still going (``simulate`` writes each replay as its match ends) can be read with ``--complete``: only
the seeds whose four rotations are all written count, so a partial figure is still a duplicate comparison.
``--by-deal`` adds a line a deal number: the bot's deal score minus the mean of the others', its bids made and
mean bid, and the opponents it finished below and above (the fifth deal's utility plays for the match).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from engine.bots.playout import opponents_below
from engine.tournament import mean_ci


def interval(values: list[float]) -> str:
    m, half = mean_ci(values)
    return f"{m:+.3f} ± {half:.3f}  [{m - half:+.3f}, {m + half:+.3f}]  (n = {len(values)})"


def replay_files(dirs: list[Path], complete: bool) -> list[Path]:
    """The replays of the directories; with ``complete``, only those of seeds with all four rotations written."""
    paths = [p for d in dirs for p in sorted(d.glob("*.json"))]
    if not complete:
        return paths
    by_seed: dict[str, list[Path]] = defaultdict(list)
    for p in paths:
        by_seed[p.stem.rsplit("-r", 1)[0]].append(p)
    return [p for ps in by_seed.values() if len(ps) == 4 for p in ps]


def margins(dirs: list[Path], bot: str, complete: bool = False) -> dict[str, tuple[str, float, float]]:
    """Per match id: (seed, the bot's margin in points, its share of bids made)."""
    out: dict[str, tuple[str, float, float]] = {}
    for path in replay_files(dirs, complete):
        replay = json.loads(path.read_text())
        totals = replay["final_totals"]
        bots = [p["bot"] for p in sorted(replay["players"], key=lambda p: p["seat"])]
        mine = [s for s, b in enumerate(bots) if b == bot]
        if not mine or len(mine) == 4:
            raise SystemExit(f"{path}: {bot!r} must sit at one to three of the seats")
        margin = (statistics.fmean(totals[s] for s in mine)
                  - statistics.fmean(t for s, t in enumerate(totals) if s not in mine))
        made = [d["tricks_won"][b["seat"]] >= b["bid"] for d in replay["deals"] for b in d["bids"]
                if b["seat"] in mine]
        out[path.stem] = (replay["seed"], margin, sum(made) / len(made))
    return out


def by_deal(replays: list[dict[str, Any]], bot: str) -> None:
    """Deal by deal (1 to 5): the bot's seats' deal score minus the mean of the other seats', in points."""
    margin: dict[int, list[float]] = defaultdict(list)
    made: dict[int, list[float]] = defaultdict(list)
    bids: dict[int, list[int]] = defaultdict(list)
    below: list[float] = []
    for replay in replays:
        bots = [p["bot"] for p in sorted(replay["players"], key=lambda p: p["seat"])]
        mine = [s for s, b in enumerate(bots) if b == bot]
        others = [q for q in range(4) if q not in mine]
        for d in replay["deals"]:
            sc = d["scores"]
            for s in mine:
                margin[d["number"]].append(sc[s] - statistics.fmean(sc[q] for q in others))
            for b in d["bids"]:
                if b["seat"] in mine:
                    made[d["number"]].append(float(d["tricks_won"][b["seat"]] >= b["bid"]))
                    bids[d["number"]].append(b["bid"])
        below.extend(opponents_below(replay["final_totals"], s, others) for s in mine)
    for n in sorted(margin):
        print(f"  deal {n}: margin {interval(margin[n])}, bids made {statistics.fmean(made[n]):.1%},"
              f" mean bid {statistics.fmean(bids[n]):.2f}")
    m, half = mean_ci(below)
    print(f"  opponents finished below a seat: {m:.3f} ± {half:.3f}")


def paired(dirs: list[Path], bot: str, base_dirs: list[Path], base_bot: str, complete: bool = False) -> None:
    """The two runs played the same matches (one --seed; decisions depend on (view, seed) only): the margin's
    difference match by match, and seed by seed (the mean of its rotations)."""
    a, b = margins(dirs, bot, complete), margins(base_dirs, base_bot, complete)
    keys = sorted(set(a) & set(b))
    by_seed: dict[str, list[float]] = defaultdict(list)
    for k in keys:
        by_seed[a[k][0]].append(a[k][1] - b[k][1])
    print(f"{bot} against {base_bot} in the same {len(keys)} matches: margin a match, points")
    print(f"  {bot}: {interval([a[k][1] for k in keys])}, bids made {statistics.fmean(a[k][2] for k in keys):.1%}")
    print(f"  {base_bot}: {interval([b[k][1] for k in keys])}, bids made {statistics.fmean(b[k][2] for k in keys):.1%}")
    print(f"  difference per match: {interval([a[k][1] - b[k][1] for k in keys])}")
    print(f"  difference per seed:  {interval([statistics.fmean(v) for v in by_seed.values()])}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+", type=Path, help="directories of replay files")
    ap.add_argument("--bot", required=True)
    ap.add_argument("--base", type=Path, nargs="*", default=[],
                    help="replays of the same --seed with another bot in its seats: the paired difference")
    ap.add_argument("--base-bot", help="the bot of --base (default: --bot)")
    ap.add_argument("--complete", action="store_true",
                    help="count only seeds whose four rotations are all written (a run still going)")
    ap.add_argument("--by-deal", action="store_true", help="also the margin and bids made of each deal number")
    a = ap.parse_args()
    if a.base:
        paired(a.dirs, a.bot, a.base, a.base_bot or a.bot, a.complete)
        return
    per_match: list[float] = []
    by_seed: dict[str, list[float]] = defaultdict(list)
    made: list[float] = []
    wins: list[float] = []
    replays = [(path, json.loads(path.read_text())) for path in replay_files(a.dirs, a.complete)]
    for path, replay in replays:
        totals = replay["final_totals"]
        bots = [p["bot"] for p in sorted(replay["players"], key=lambda p: p["seat"])]
        mine = [t for t, b in zip(totals, bots, strict=True) if b == a.bot]
        rest = [t for t, b in zip(totals, bots, strict=True) if b != a.bot]
        if not mine or not rest:
            raise SystemExit(f"{path}: {a.bot!r} must sit at one to three of the seats")
        margin = statistics.fmean(mine) - statistics.fmean(rest)
        per_match.append(margin)
        by_seed[replay["seed"]].append(margin)
        seats = [s for s, b in enumerate(bots) if b == a.bot]
        made.extend(float(d["tricks_won"][b["seat"]] >= b["bid"]) for d in replay["deals"] for b in d["bids"]
                    if b["seat"] in seats)
        # A seat's share of the match's win, ties shared (as simulate counts it), a mean over the bot's seats.
        winners = replay["winners"]
        wins.append(statistics.fmean(1 / len(winners) if s in winners else 0.0 for s in seats))
    print(f"{a.bot}: margin a match, points")
    print(f"  per match: {interval(per_match)}")
    print(f"  per seed:  {interval([statistics.fmean(v) for v in by_seed.values()])}")
    m, half = mean_ci(made)
    print(f"  bids made: {m:.1%} ± {half:.1%} (n = {len(made)} bids)")
    m, half = mean_ci(wins)
    print(f"  win share a seat: {m:.1%} ± {half:.1%} (n = {len(wins)} matches)")
    if a.by_deal:
        by_deal([r for _, r in replays], a.bot)


if __name__ == "__main__":
    main()
