"""Quick match loop for bots (before/besides ``python -m engine simulate``).

    .venv/bin/python bench/bots_duel.py --seats heuristic,random,random,random --matches 100
"""

from __future__ import annotations

import argparse
import time

from engine import Phase, apply, new_match, player_view
from engine.bots import decide


def play_match(seed: str, seats: list[str]) -> tuple[tuple[int, ...], list[list[float]], list[int], list[int]]:
    state = new_match(seed)
    times: list[list[float]] = [[], [], [], []]
    made = [0, 0, 0, 0]
    bids = [0, 0, 0, 0]
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        t0 = time.perf_counter()
        action = decide(seats[seat], view, seed)
        dt = time.perf_counter() - t0
        times[seat].append(dt if state.phase == Phase.PLAYING else -dt)
        state = apply(state, action)
    for d in state.completed:
        for s in range(4):
            bids[s] += 1
            made[s] += d.tricks_won[s] >= d.bids[s]
    return state.totals, times, made, bids


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", required=True)
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--seed", default="duel")
    ap.add_argument("--rotate", action="store_true", help="rotate seats over the same deals (duplicate)")
    a = ap.parse_args()
    names = a.seats.split(",")
    share: dict[str, float] = {}
    games: dict[str, int] = {}
    margin: dict[str, float] = {}
    madec: dict[str, int] = {}
    bidc: dict[str, int] = {}
    dts: dict[str, list[float]] = {}
    rots = 4 if a.rotate else 1
    for m in range(a.matches):
        for r in range(rots):
            seats = names[r:] + names[:r]
            totals, times, made, bids = play_match(f"{a.seed}-{m}", seats)
            best = max(totals)
            win = [s for s in range(4) if totals[s] == best]
            for s, n in enumerate(seats):
                share[n] = share.get(n, 0) + (1 / len(win) if s in win else 0)
                games[n] = games.get(n, 0) + 1
                margin[n] = margin.get(n, 0) + totals[s] - (sum(totals) - totals[s]) / 3
                madec[n] = madec.get(n, 0) + made[s]
                bidc[n] = bidc.get(n, 0) + bids[s]
                dts.setdefault(n, []).extend(times[s])
    for n in games:
        ts = sorted(t for t in dts[n] if t >= 0)
        tb = sorted(-t for t in dts[n] if t < 0)
        print(f"{n:12s} seats={games[n]:5d} win={share[n] / games[n]:.3f} "
              f"margin={margin[n] / games[n] / 10:+.2f} made={madec[n] / bidc[n]:.3f} "
              f"t50={ts[len(ts) // 2] * 1000:.1f}ms t95={ts[int(len(ts) * 0.95)] * 1000:.1f}ms "
              f"bid50={tb[len(tb) // 2] * 1000:.1f}ms bid95={tb[int(len(tb) * 0.95)] * 1000:.1f}ms", flush=True)


if __name__ == "__main__":
    main()
