"""How well cheap rules predict ``spar-sim``'s bid (48 sampled play-outs, :func:`.league.simulated_bid`).

The posterior over named styles (engine/bots/styles.py) cannot afford the simulation for every hand it weighs, so it
reads ``spar-sim``'s bid through a stand-in.  This plays the first deal's bids of ``--hands`` / 4 matches, asks
``spar-sim`` for its bid on each seat's hand, and prints for each stand-in how often it is exact, one off, further;
then the least-squares line of the bid on the sure tricks and the spades, rounded, as a stand-in of its own.

    nice -n 19 .venv/bin/python bench/sim_bid_fit.py --hands 800 --seed simfit
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Callable

from engine import new_match, player_view
from engine.bots.evaluation import careful_bid, estimate_tricks
from engine.bots.league import simulated_bid
from engine.bots.spar_rules import length_bid
from engine.cards import SPADES_MASK


def _clamp(b: int) -> int:
    return max(1, min(13, b))


STAND_INS: dict[str, Callable[[int], int]] = {
    "sure tricks (today's)": lambda h: _clamp(int(estimate_tricks(h) + 0.5)),
    "careful bid": lambda h: careful_bid(estimate_tricks(h)),
    "length table": length_bid,
    "sure tricks + 1": lambda h: _clamp(int(estimate_tricks(h) + 1.5)),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", default="simfit")
    a = ap.parse_args()
    rows: list[tuple[int, int]] = []  # (hand, spar-sim's bid)
    for m in range(a.hands // 4):
        state = new_match(f"{a.seed}-{m}")
        for seat in range(4):
            view = player_view(state, seat)
            rows.append((view.hand, simulated_bid(view, random.Random(f"{a.seed}-{m}-{seat}"))))
    n = len(rows)
    print(f"{n} hands; spar-sim's bids: {sorted(Counter(b for _, b in rows).items())}")
    # least squares of the bid on (1, sure tricks, spades)
    xs = [(1.0, estimate_tricks(h), float((h & SPADES_MASK).bit_count())) for h, _ in rows]
    ys = [float(b) for _, b in rows]
    xtx = [[sum(x[i] * x[j] for x in xs) for j in range(3)] for i in range(3)]
    xty = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(3)]
    coef = _solve(xtx, xty)
    print(f"least squares: bid = {coef[0]:+.3f} {coef[1]:+.3f} x sure tricks {coef[2]:+.3f} x spades")
    fitted = dict(STAND_INS)
    fitted["the line, rounded"] = lambda h: _clamp(
        round(coef[0] + coef[1] * estimate_tricks(h) + coef[2] * (h & SPADES_MASK).bit_count())
    )
    print("| stand-in | exact | one off | further | mean (bid − stand-in) |\n|---|---:|---:|---:|---:|")
    for name, rule in fitted.items():
        d = [b - rule(h) for h, b in rows]
        print(
            f"| {name} | {sum(x == 0 for x in d) / n:.1%} | {sum(abs(x) == 1 for x in d) / n:.1%} | "
            f"{sum(abs(x) > 1 for x in d) / n:.1%} | {sum(d) / n:+.2f} |"
        )


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a 3 x 3 system)."""
    m = [row[:] + [v] for row, v in zip(a, b, strict=True)]
    k = len(m)
    for i in range(k):
        p = max(range(i, k), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(k):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * y for x, y in zip(m[r], m[i], strict=True)]
    return [m[i][k] / m[i][i] for i in range(k)]


if __name__ == "__main__":
    main()
