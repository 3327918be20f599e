"""How many more tricks a bot takes than the bid simulation's play-outs credit it with, on real deals.

The bid simulation (``strong.bid_values``) plays every seat, the bidder's own included, as the heuristic
does.  A search bot plays its own cards better than that, so the simulation under-counts its tricks.  In
the first four deals of a match this plays the bot under test at one seat against three heuristics, then
replays each deal's real hands with every seat playing the heuristic's way (``playout.play_out``, the
simulation's play, same bids) and prints the distribution of the difference ``tricks the bot took - tricks
the play-out gives it``, overall and by the bot's bid.

    .venv/bin/python bench/bid_calibration.py --matches 100 --bot strong --jobs 2 --seed cal
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from multiprocessing import Pool

import ab_deals  # noqa: F401  (registers the search bot's variants by name)

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.playout import play_out
from engine.bots.strong import UNKNOWN


def play_match(job: tuple[str, str, int]) -> list[tuple[int, int, int, int]]:
    """(bid, tricks taken, tricks the heuristic play-out gives, deal number) for ``bot`` at ``seat``, deals 1-4
    (the fifth is played for the match win, not for the deal's score)."""
    bot, seed, seat = job
    state = new_match(seed)
    rows = []
    dealt: list[int] | None = None
    while len(state.completed) < 4:
        s = state.turn
        assert s is not None
        if dealt is None and state.phase == "playing":
            dealt = list(state.hands)
        done = len(state.completed)
        state = apply(state, decide(bot if s == seat else "heuristic", player_view(state, s), seed))
        if len(state.completed) > done:
            assert dealt is not None
            d = state.completed[-1]
            bids = list(d.bids)
            simulated = play_out(dealt, UNKNOWN, (d.dealer + 1) % 4, [], [0, 0, 0, 0], bids, True)[seat]
            rows.append((bids[seat], d.tricks_won[seat], simulated, len(state.completed)))
            dealt = None
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=50, help="each played at every seat, 4 deals each")
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--seed", default="cal")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    jobs = [(a.bot, f"{a.seed}-{i}", seat) for i in range(a.matches) for seat in range(4)]
    with Pool(a.jobs) as pool:
        rows = [r for rs in pool.map(play_match, jobs, chunksize=2) for r in rs]
    groups = {"all": rows, "bid 1-2": [r for r in rows if r[0] <= 2], "bid 3-4": [r for r in rows if 3 <= r[0] <= 4],
              "bid 5+": [r for r in rows if r[0] >= 5]}
    print(f"{a.bot}, {len(rows)} deals: shift = tricks taken - heuristic play-out's tricks (same hands, same bids)")
    for name, rs in groups.items():
        if not rs:
            continue
        shifts = Counter(max(-2, min(3, t - s)) for _, t, s, _ in rs)
        made = sum(t >= b for b, t, _, _ in rs) / len(rs)
        sim_made = sum(s >= b for b, _, s, _ in rs) / len(rs)
        dist = "  ".join(f"{k:+d}: {shifts[k] / len(rs):.3f}" for k in range(-2, 4))
        print(f"{name:8s} n={len(rs):4d}  mean {statistics.fmean(t - s for _, t, s, _ in rs):+.3f}  {dist}"
              f"  made {made:.1%} (play-out {sim_made:.1%})")
    for name, rs in (("play-out short of the bid", [r for r in rows if r[2] < r[0]]),
                     ("play-out makes the bid", [r for r in rows if r[2] >= r[0]])):
        if rs:
            shifts = Counter(max(-2, min(3, t - s)) for _, t, s, _ in rs)
            dist = "  ".join(f"{k:+d}: {shifts[k] / len(rs):.3f}" for k in range(-2, 4))
            made = sum(t >= b for b, t, _, _ in rs) / len(rs)
            print(f"{name}: n={len(rs)}, the bot made {made:.1%}; shift {dist}")
    for short in (1, 2, 3):
        rs = [r for r in rows if (r[0] - r[2] >= 3 if short == 3 else r[0] - r[2] == short)]
        if rs:
            made = sum(t >= b for b, t, _, _ in rs) / len(rs)
            print(f"play-out {short}{'+' if short == 3 else ''} short: n={len(rs)}, the bot made {made:.1%}")


if __name__ == "__main__":
    main()
