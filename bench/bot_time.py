"""Time one bot's decisions on fixed positions, and fingerprint them: a speed change must keep the same cards.

The views of seat 0 are collected from ``--matches`` matches in which seat 0 plays ``--bot`` and the others
``--others``; the bot then decides each of them again (seed ``x``), timed one by one on this process's clock.  The
digest of the actions is the same before and after a change that is only faster.

    .venv/bin/python bench/bot_time.py --bot strong --matches 3
    .venv/bin/python bench/bot_time.py --bot strong --matches 3 --profile   # cProfile, by own time
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import statistics
import time

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.views import PlayerView


def views_of(bot: str, others: str, matches: int) -> list[PlayerView]:
    out: list[PlayerView] = []
    for m in range(matches):
        state = new_match(f"prof-{m}")
        while state.turn is not None:
            seat = state.turn
            view = player_view(state, seat)
            if seat == 0:
                out.append(view)
            state = apply(state, decide(bot if seat == 0 else others, view, f"p{m}:{seat}"))
    return out


def _q(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--others", default="heuristic")
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    views = views_of(a.bot, a.others, a.matches)
    prof = cProfile.Profile() if a.profile else None
    times: list[tuple[bool, float]] = []
    actions = []
    for v in views:
        t = time.perf_counter()
        if prof:
            prof.enable()
        actions.append(decide(a.bot, v, "x"))
        if prof:
            prof.disable()
        times.append((bool(v.legal_bids), time.perf_counter() - t))
    for label, bids in (("cards", False), ("bids", True)):
        xs = [t * 1000 for b, t in times if b == bids]
        if xs:
            print(f"{label}: {len(xs)}  mean {statistics.fmean(xs):.1f} ms  p50 {_q(xs, 0.5):.1f}"
                  f"  p95 {_q(xs, 0.95):.1f}  total {sum(xs) / 1000:.2f} s")
    print("actions digest", hashlib.sha256(repr(actions).encode()).hexdigest()[:16])
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
