"""What ``strong``'s opponent models (:mod:`engine.bots.opponents`) learn of each sparring style: the style fitted to
each of three seats of the style after the match's five deals, as ``strong`` would read them from seat 0.

Seat 0 plays ``--seat0`` (the heuristic by default: cheap, and the fit reads the other seats' own actions only).
Per style: the mean over ``--matches`` matches and the three seats of the fitted heuristic, greedy and uniform
shares of its cards, its bids' shift from the heuristic's bid and the belief's bid-miss factor, and the table
trust (1 = read as heuristic players, 0 = foreign) that sets ``strong``'s bid bonus.

    nice -n 19 .venv/bin/python bench/league_fit.py --matches 4
"""

from __future__ import annotations

import argparse
import statistics

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.league import STYLES
from engine.bots.opponents import fit_styles, table_trust


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--styles", default=",".join((*STYLES, "ismcts", "heuristic", "strong-v2")))
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--seat0", default="heuristic")
    ap.add_argument("--seed", default="fit")
    a = ap.parse_args()
    print("| style | heuristic share | greedy share | uniform share | bid shift | bid miss | table trust |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for style in a.styles.split(","):
        rows = []
        trust = []
        for m in range(a.matches):
            seats = [a.seat0, style, style, style]
            state = new_match(f"{a.seed}-{m}")
            while not state.is_finished:
                seat = state.turn
                assert seat is not None
                state = apply(state, decide(seats[seat], player_view(state, seat), f"{a.seed}-{style}-{m}"))
            styles = fit_styles(player_view(state, 0))
            rows.extend(styles.values())
            trust.append(table_trust(styles))

        fields = ("heuristic", "greedy", "shift", "bid_miss")
        mean = {f: statistics.fmean(getattr(st, f) for st in rows) for f in fields}
        uniform = 1 - mean["heuristic"] - mean["greedy"]
        print(f"| {style} | {mean['heuristic']:.2f} | {mean['greedy']:.2f} | {uniform:.2f} | {mean['shift']:+.2f} |"
              f" {mean['bid_miss']:.2f} | {statistics.fmean(trust):.2f} |")


if __name__ == "__main__":
    main()
