"""The styles the opponent models fit to a table: each seat's heuristic share after some deals of one bot.

``opponents.table_trust`` reads a table as heuristic at a mean share of 0.9 and as foreign at 0.6; this prints
what tables of each bot really fit at (docs/bots.md, *The bid's trick bonus by the table*):

    .venv/bin/python bench/table_fit.py --bot ismcts --matches 8
"""

from __future__ import annotations

import argparse
import statistics

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.opponents import fit_styles, table_trust


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bot", default="heuristic", help="the bot at every seat")
    ap.add_argument("--matches", type=int, default=8)
    ap.add_argument("--deals", type=int, default=2, help="finished deals the fit reads")
    a = ap.parse_args()
    shares: list[float] = []
    trusts: list[float] = []
    for i in range(a.matches):
        seed = f"fit-{a.bot}-{i}"
        state = new_match(seed)
        while len(state.completed) < a.deals:
            seat = state.turn
            assert seat is not None
            state = apply(state, decide(a.bot, player_view(state, seat), seed))
        styles = fit_styles(player_view(state, 0))
        shares += [st.heuristic for st in styles.values()]
        trusts.append(table_trust(styles))
        print(f"{seed}: heuristic shares {[round(st.heuristic, 2) for st in styles.values()]}, "
              f"trust {trusts[-1]:.2f}", flush=True)
    print(f"{a.bot}: heuristic share mean {statistics.mean(shares):.2f} (from {min(shares):.2f} to "
          f"{max(shares):.2f}), trust mean {statistics.mean(trusts):.2f}")


if __name__ == "__main__":
    main()
