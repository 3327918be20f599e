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
import functools
import json
import math
import statistics
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from greedy_playout import greedy_play_out

from engine import apply, new_match, player_view
from engine.bots import decide, register
from engine.bots.playout import opponents_below
from engine.bots.search import SearchBot
from engine.bots.strong import StrongBot
from engine.match import MatchState

#: The search bot's defaults from the bid policy (v5-bm03) until the chain (v7): generations v2 to v6 start
#: from them, so that their variants keep the settings they were measured with after the defaults moved on.
UNTIL_V7: dict[str, Any] = {"oversample": 16, "play_miss": 0.1, "bid_miss": 0.3, "mcmc_steps": 0,
                            "bid_standings": False}

#: The search bot's variants by generation: each generation's settings as they were when its runs were made
#: (v2 before the play evidence, v3 and v4 at 4 times as many worlds, before 16 became the default; up to v5
#: without the bid policy; v7 before the later bidders' standings), then the variant's own changes.  A name is
#: ``GENERATION-VARIANT``, e.g. ``v3-m01``.
GENERATIONS: dict[str, tuple[dict[str, Any], dict[str, dict[str, Any]]]] = {
    "v2": ({**UNTIL_V7, "play_miss": 1.0, "oversample": 1, "bid_miss": 1.0}, {
        "o1": {}, "d0": {"depth": 0},  # d0: no tree, the same budget (the first strong bot with more play-outs)
        "b1440": {"budget": 1440}, "d6": {"depth": 6}, "e3": {"expand_after": 3}, "e12": {"expand_after": 12},
        "c03": {"exploration": 0.3}, "c12": {"exploration": 1.2},
        "s05": {"sigma": 0.5, "oversample": 4}, "s03": {"sigma": 0.3, "oversample": 4},
        "o4": {"oversample": 4}, "o8": {"oversample": 8}, "o16": {"oversample": 16},
        "d0-o4": {"depth": 0, "oversample": 4}, "bo4": {"bid_oversample": 4},
    }),
    # the other seats' earlier cards as evidence (PlayEvidence): a miss multiplies a world's weight by m
    "v3": ({**UNTIL_V7, "oversample": 4, "bid_miss": 1.0}, {
        "m01": {"play_miss": 0.1}, "m03": {"play_miss": 0.3}, "m05": {"play_miss": 0.5},
        "m01-o8": {"play_miss": 0.1, "oversample": 8}, "m03-o8": {"play_miss": 0.3, "oversample": 8},
        "m01-d0": {"play_miss": 0.1, "depth": 0},
    }),
    # with the C kernel the play-outs are about 40 times cheaper: more worlds, more bid simulations
    "v4": ({**UNTIL_V7, "oversample": 4, "bid_miss": 1.0}, {
        "o8": {"oversample": 8}, "o16": {"oversample": 16}, "bb4800": {"bid_budget": 4800},
        "bonus0": {"bid_bonus": 0.0}, "bonus5": {"bid_bonus": 0.5}, "bonus65": {"bid_bonus": 0.65},
    }),
    # strong at 16 times the worlds drawn (v5-o16): a sharper reading of the bids, more worlds
    "v5": ({**UNTIL_V7, "bid_miss": 1.0}, {
        "o16": {}, "s05": {"sigma": 0.5}, "o32": {"oversample": 32},
        # the bids read as the heuristic's bidding policy: a world whose hand would have bid otherwise x m
        "bm01": {"bid_miss": 0.1}, "bm03": {"bid_miss": 0.3},
        "bm03-o32": {"bid_miss": 0.3, "oversample": 32},
    }),
    # the worlds moved by a Markov chain towards the evidence (posterior.refine): mcN proposals per world
    "v6": (UNTIL_V7, {
        "base": {}, "mc100": {"mcmc_steps": 100}, "mc300": {"mcmc_steps": 300},
        "mc300-o4": {"mcmc_steps": 300, "oversample": 4}, "mc1000-o4": {"mcmc_steps": 1000, "oversample": 4},
        "mc300-o4-m03": {"mcmc_steps": 300, "oversample": 4, "play_miss": 0.03},
        "mc1000-o4-m01": {"mcmc_steps": 1000, "oversample": 4, "play_miss": 0.01},
        "mc300-o1": {"mcmc_steps": 300, "oversample": 1},
        "mc300-o4-w320": {"mcmc_steps": 300, "oversample": 4, "max_worlds": 320, "budget": 1440},
        "mc300-o4-d0": {"mcmc_steps": 300, "oversample": 4, "depth": 0},
        # sharper evidence, now that the chain finds the worlds that fit it
        "mc500-o1-m03-bm01": {"mcmc_steps": 500, "oversample": 1, "play_miss": 0.03, "bid_miss": 0.1},
        "mc1000-o1-m01-bm005": {"mcmc_steps": 1000, "oversample": 1, "play_miss": 0.01, "bid_miss": 0.05},
    }),
    # the chain with sharper evidence (v6-mc500-o1-m03-bm01); v7-bst is strong since 2026-12-02
    "v7": ({"mcmc_steps": 500, "oversample": 1, "play_miss": 0.03, "bid_miss": 0.1, "bid_standings": False}, {
        "base": {},
        "m01-bm005": {"mcmc_steps": 1000, "play_miss": 0.01, "bid_miss": 0.05},
        "bonus2": {"bid_bonus": 0.2}, "bonus5": {"bid_bonus": 0.5},
        # later bidders in its bid simulation bid as the heuristic does, the fifth deal's standings included
        "bst": {"bid_standings": True},
    }),
}


def _search_bot(settings: dict[str, Any]) -> Callable[[], SearchBot]:
    return lambda: SearchBot(**settings)


#: Variants of the strong bots; the first name of ``--variants`` is the one the others are compared with.
VARIANTS: dict[str, Callable[[], Any]] = {
    # the runs up to v4 compared with the first strong bot, then called strong (now strong-v1)
    "strong-greedy": lambda: StrongBot(playout=greedy_play_out),  # play-outs in which every seat sees all hands
    "strong-p480": lambda: StrongBot(play_budget=480),
    "strong-b600": lambda: StrongBot(bid_budget=600),
    **{f"{gen}-{name}": _search_bot({**base, **own})
       for gen, (base, variants) in GENERATIONS.items() for name, own in variants.items()},
}
#: The opponent models (engine/bots/opponents.py) on the search bot of 2026-12-02 (strong-v2): ``b`` the belief
#: reads each seat by its fitted style, ``p`` the play-outs play the others by it, ``d`` the bid simulation too.
VARIANTS.update({f"v8-{m}": _search_bot({"models": m}) for m in ("b", "p", "d", "bp", "bpd", "bd")})
#: ``strong`` (models "bpd") with a smaller bid bonus: fewer of its bid simulations credit it a trick more than the
#: heuristic's play of its own cards would take (at a table of greedy trick-takers its tricks are less sure).
VARIANTS.update({f"v9-bonus{k}": _search_bot({"models": "bpd", "bid_bonus": k / 10}) for k in (0, 2)})
#: ``strong`` (models "bp") whose fifth deal also pays ``rank`` tenths for each opponent finishing below it: a seat
#: that cannot win plays for second place rather than gambling on the win alone (playout.utility).
VARIANTS.update({f"v10-rank{r}": _search_bot({"models": "bp", "rank": float(r)}) for r in (50, 100, 300)})
#: ``strong`` whose play-outs play fewer random cards for a seat than its fitted uniform share (0, half).
VARIANTS.update({f"v11-noise{k}": _search_bot({"models": "bp", "noise_scale": k / 10}) for k in (0, 5)})
#: ``strong`` whose bid's trick bonus follows the table: 0.35 at heuristics, ``k`` hundredths at a foreign table.
VARIANTS.update({f"v12-fb{k}": _search_bot({"models": "bp", "rank": 100.0, "foreign_bid_bonus": k / 100})
                 for k in (0, 15)})
for _name, _factory in VARIANTS.items():
    register(_name, _factory)


@functools.lru_cache(maxsize=8)
def _warmed(seed: str, opp: str, warm: int) -> MatchState:
    """The match after ``warm`` deals of the opponents' bot at every seat: the same for every variant and seat
    of a deal (jobs of one deal are neighbours, so a worker plays it once)."""
    state = new_match(seed)
    while len(state.completed) < warm:
        s = state.turn
        assert s is not None
        state = apply(state, decide(opp, player_view(state, s), seed))
    return state


Result = tuple[str, float, int, int, float, float, list[float], float]


def play_deal(job: tuple[str, str, int, str, bool, int]) -> Result:
    """One deal; with ``last``, the fifth deal after four played by the opponents' bot at every seat; with
    ``warm`` k, deal k + 1 after k so played (the opponent models then have k deals to fit)."""
    variant, seed, seat, opp, last, warm = job
    state = _warmed(seed, opp, 4 if last else warm)
    target = len(state.completed) + 1
    t = 0.0
    times: list[float] = []
    while len(state.completed) < target:
        s = state.turn
        assert s is not None
        view = player_view(state, s)
        name = variant if s == seat else opp
        t0 = time.process_time()
        action = decide(name, view, seed)
        if s == seat:
            dt = time.process_time() - t0
            t += dt
            times.append(dt if view.legal_cards else -dt)  # card decisions positive, bids negative
        state = apply(state, action)
    d = state.completed[-1]
    sc = d.scores
    margin = sc[seat] - (sum(sc) - sc[seat]) / 3
    win = beaten = 0.0
    if last:
        win = 1 / len(state.winners) if seat in state.winners else 0.0
        beaten = opponents_below(d.totals, seat)
    return variant, margin / 10, d.bids[seat], d.tricks_won[seat], t, win, times, beaten


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
    ap.add_argument("--warm", type=int, default=0, help="play deal k + 1 after k played by the opponents' bot")
    ap.add_argument("--save", help="also write every deal's result to this JSON file (bench/ab_pair.py pairs two)")
    a = ap.parse_args()
    names = a.variants.split(",")
    jobs = [(v, f"{a.seed}-{i}", seat, a.opponent, a.last, a.warm)
            for i in range(a.deals) for seat in range(4) for v in names]
    chunk = 4 * len(names) if a.warm or a.last else 4  # a deal's jobs in one chunk: its warm-up played once
    results: list[Result] = []
    with Pool(a.jobs) as pool:
        for r in pool.imap(play_deal, jobs, chunksize=chunk):
            results.append(r)
            if a.save and len(results) % (4 * len(names)) == 0:
                # every deal finished so far, written as it goes (bench/ab_pair.py reads a run still going);
                # decisions are a function of (view, seed), so two runs with one --seed play the same deals and
                # runs made apart pair deal by deal
                rows_out = [{"variant": v, "deal": j[1], "seat": j[2], "opponent": a.opponent, "margin": m,
                             "bid": b, "won": w, "cpu": t, "win": win, "times": ts, "beaten": bt}
                            for j, (v, m, b, w, t, win, ts, bt) in zip(jobs, results, strict=False)]
                Path(a.save).write_text(json.dumps(rows_out))
    by: dict[str, list[tuple[float, int, int, float, float, float]]] = {n: [] for n in names}
    for v, m, b, w, t, win, _, bt in results:
        by[v].append((m, b, w, t, win, bt))
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
            line += f"  opponents below {statistics.fmean(r[5] for r in rows):.3f}"
            if n != names[0]:
                db = [r[5] - b[5] for r, b in zip(rows, base, strict=True)]
                line += f" ({statistics.fmean(db):+.3f} ± {_ci(db):.3f})"
        if n != names[0]:
            diffs = [r[0] - b[0] for r, b in zip(rows, base, strict=True)]
            line += f"  vs {names[0]}: {statistics.fmean(diffs):+.3f} ± {_ci(diffs):.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
