"""The bots' play-out from dealt hands: the pure-Python one against the C kernel (engine/bots/_kernel.c).

    .venv/bin/python bench/playout_speed.py

Best of 3 passes over 500 random deals, process time, bids of 3 each; prints µs a deal for each.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.bots import playout
from engine.bots.playout import py_play_out
from engine.cards import FULL_DECK

PlayOut = Callable[[Sequence[int], Sequence[int], int, Sequence[int], Sequence[int], Sequence[int], bool], list[int]]


def per_deal(fn: PlayOut, deals: list[list[int]]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for hands in deals:
            fn(hands, [FULL_DECK] * 4, 0, [], [0] * 4, [3, 3, 3, 3], True)
        best = min(best, time.process_time() - start)
    return best / len(deals) * 1e6


def main() -> None:
    rng = random.Random(1)
    deals = []
    for _ in range(500):
        cards = list(range(52))
        rng.shuffle(cards)
        deals.append([sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)])
    py = per_deal(py_play_out, deals)
    print(f"python play-out: {py:6.1f} µs a deal")
    if playout.KERNEL:
        c = per_deal(playout.play_out, deals)
        print(f"C kernel:        {c:6.1f} µs a deal  ({py / c:.0f} times faster)")
    else:
        print("C kernel: not built (no C compiler at install)")


if __name__ == "__main__":
    main()
