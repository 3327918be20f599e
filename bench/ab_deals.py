"""Paired comparison of bot variants on single deals (a quick, low-noise A/B before a full tournament).

Every deal is played once per variant and per seat of the bot under test, against the same
opponents, so the difference between variants comes from their own decisions only.

    .venv/bin/python bench/ab_deals.py --deals 200 --variants strong-v1,strong-greedy --jobs 2
    .venv/bin/python bench/ab_deals.py --deals 150 --variants heuristic,strong --last --jobs 2

With ``--last`` the first four deals are played by the opponents' bot at every seat and the variants
play the fifth from there; the match wins they reach are compared, pair by pair.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from multiprocessing import Pool

from greedy_playout import greedy_play_out

from engine import apply, new_match, player_view
from engine.bots import decide, register
from engine.bots.search import SearchBot
from engine.bots.strong import StrongBot

#: Variants of the strong bots; the first name of ``--variants`` is the one the others are compared with.
VARIANTS = {
    # the runs up to v4 compared with the first strong bot, then called strong (now strong-v1)
    "strong-greedy": lambda: StrongBot(playout=greedy_play_out),  # play-outs in which every seat sees all hands
    "strong-p480": lambda: StrongBot(play_budget=480),
    "strong-b600": lambda: StrongBot(bid_budget=600),
    # variants of the search bot (strong-search then, strong now); oversample=1 where the run was made before
    # 4 became its default
    "v2-o1": lambda: SearchBot(oversample=1),
    "v2-d0": lambda: SearchBot(depth=0, oversample=1),  # no tree, the same budget: strong with more play-outs
    "v2-b1440": lambda: SearchBot(budget=1440, oversample=1),
    "v2-d6": lambda: SearchBot(depth=6, oversample=1),
    "v2-e3": lambda: SearchBot(expand_after=3, oversample=1),
    "v2-e12": lambda: SearchBot(expand_after=12, oversample=1),
    "v2-c03": lambda: SearchBot(exploration=0.3, oversample=1),
    "v2-c12": lambda: SearchBot(exploration=1.2, oversample=1),
    "v2-s05": lambda: SearchBot(sigma=0.5, oversample=4),
    "v2-s03": lambda: SearchBot(sigma=0.3, oversample=4),
    "v2-o4": lambda: SearchBot(oversample=4),
    "v2-o8": lambda: SearchBot(oversample=8),
    "v2-o16": lambda: SearchBot(oversample=16),
    "v2-d0-o4": lambda: SearchBot(depth=0, oversample=4),
    "v2-bo4": lambda: SearchBot(bid_oversample=4),  # the bids' deals resampled too
    # v3: the other seats' earlier cards as evidence (PlayEvidence), a miss multiplies a world's weight by m
    "v3-m01": lambda: SearchBot(play_miss=0.1),
    "v3-m03": lambda: SearchBot(play_miss=0.3),
    "v3-m05": lambda: SearchBot(play_miss=0.5),
    "v3-m01-o8": lambda: SearchBot(play_miss=0.1, oversample=8),
    "v3-m03-o8": lambda: SearchBot(play_miss=0.3, oversample=8),
    "v3-m01-d0": lambda: SearchBot(play_miss=0.1, depth=0),
    # v4: with the C kernel the play-outs are about 20 times cheaper: more worlds, more bid simulations
    "v4-o8": lambda: SearchBot(oversample=8),
    "v4-o16": lambda: SearchBot(oversample=16),
    "v4-bb4800": lambda: SearchBot(bid_budget=4800),
    "v4-bonus0": lambda: SearchBot(bid_bonus=0.0),  # bids credited with no extra trick for the better play
    "v4-bonus5": lambda: SearchBot(bid_bonus=0.5),
    "v4-bonus65": lambda: SearchBot(bid_bonus=0.65),
}
for _name, _factory in VARIANTS.items():
    register(_name, _factory)


def play_deal(job: tuple[str, str, int, str, bool]) -> tuple[str, float, int, int, float, float]:
    """One deal; with ``last``, the fifth deal after four played by the opponents' bot at every seat."""
    variant, seed, seat, opp, last = job
    state = new_match(seed)
    if last:
        while len(state.completed) < 4:
            s = state.turn
            assert s is not None
            state = apply(state, decide(opp, player_view(state, s), seed))
    target = len(state.completed) + 1
    t = 0.0
    while len(state.completed) < target:
        s = state.turn
        assert s is not None
        view = player_view(state, s)
        name = variant if s == seat else opp
        t0 = time.process_time()
        action = decide(name, view, seed)
        if s == seat:
            t += time.process_time() - t0
        state = apply(state, action)
    d = state.completed[-1]
    sc = d.scores
    margin = sc[seat] - (sum(sc) - sc[seat]) / 3
    win = 0.0
    if last:
        win = 1 / len(state.winners) if seat in state.winners else 0.0
    return variant, margin / 10, d.bids[seat], d.tricks_won[seat], t, win


def _ci(xs: list[float]) -> float:
    """Half-width of a 95% confidence interval for the mean."""
    return 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--variants", required=True)
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--seed", default="ab")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--last", action="store_true", help="compare on the fifth deal; report match wins")
    a = ap.parse_args()
    names = a.variants.split(",")
    jobs = [(v, f"{a.seed}-{i}", seat, a.opponent, a.last)
            for i in range(a.deals) for seat in range(4) for v in names]
    with Pool(a.jobs) as pool:
        results = pool.map(play_deal, jobs, chunksize=4)
    by: dict[str, list[tuple[float, int, int, float, float]]] = {n: [] for n in names}
    for v, m, b, w, t, win in results:
        by[v].append((m, b, w, t, win))
    base = by[names[0]]
    for n in names:
        rows = by[n]
        ms = [r[0] for r in rows]
        made = sum(r[2] >= r[1] for r in rows) / len(rows)
        line = (f"{n:20s} margin {statistics.fmean(ms):+.3f} ± {_ci(ms):.3f}"
                f"  made {made:.1%}  bid {statistics.fmean(r[1] for r in rows):.2f}"
                f"  won {statistics.fmean(r[2] for r in rows):.2f}"
                f"  cpu/deal {statistics.fmean(r[3] for r in rows):.2f}s")
        if a.last:
            wins = [r[4] for r in rows]
            line += f"  match wins {statistics.fmean(wins):.1%}"
            if n != names[0]:
                dw = [r[4] - b[4] for r, b in zip(rows, base, strict=True)]
                line += f" ({statistics.fmean(dw):+.1%} ± {_ci(dw):.1%})"
        if n != names[0]:
            diffs = [r[0] - b[0] for r, b in zip(rows, base, strict=True)]
            line += f"  vs {names[0]}: {statistics.fmean(diffs):+.3f} ± {_ci(diffs):.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
