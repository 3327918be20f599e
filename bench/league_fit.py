"""What ``strong``'s opponent models (:mod:`engine.bots.opponents`) learn of each sparring style: the style fitted to
each of three seats of the style after the match's five deals, as ``strong`` would read them from seat 0.

Seat 0 plays ``--seat0`` (the heuristic by default: cheap, and the fit reads the other seats' own actions only).
Per style: the mean over ``--matches`` matches and the three seats of the fitted heuristic, greedy and uniform
shares of its cards, its bids' shift from the heuristic's bid and the belief's bid-miss factor, and the table
trust (1 = read as heuristic players, 0 = foreign) that sets ``strong``'s bid bonus.

    nice -n 19 .venv/bin/python bench/league_fit.py --matches 4
    nice -n 19 .venv/bin/python bench/league_fit.py --matches 4 --named     # the posterior over named styles
    nice -n 19 .venv/bin/python bench/league_fit.py --matches 4 --named --sim-line   # spar-sim's bid by a line

With ``--named``, what :mod:`engine.bots.styles` (``strong``'s models since 2026-12-05) reads instead: per style the
posterior mass on the style itself (the three searches pooled for a search, as their cards are read alike), on the
heuristic and on the searches, at seat 0's bid in the first deal (the earlier bidders' bids only), in the second
(one deal finished) and in the fifth; and the style the posterior most often puts first after four deals.
"""

from __future__ import annotations

import argparse
import statistics

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.league import STYLES
from engine.bots.opponents import Style, fit_styles, table_trust
from engine.bots.styles import NAMED, SEARCHES, seat_posteriors, share
from engine.match import MatchState
from engine.views import PlayerView


def played(seats: list[str], seed: str, tag: str) -> tuple[MatchState, list[PlayerView]]:
    """A finished match and seat 0's view at each of its bids."""
    state = new_match(seed)
    bids: list[PlayerView] = []
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        if seat == 0 and view.legal_bids:
            bids.append(view)
        state = apply(state, decide(seats[seat], view, tag))
    return state, bids


def named(styles: list[str], matches: int, seat0: str, seed: str, sim_line: bool = False) -> None:
    """The named posterior's table (module doc)."""
    print("| style | own mass, deal 1 | deal 2 | deal 5 | heuristic mass, deal 1 / 2 / 5"
          " | searches' mass, deal 1 / 2 / 5 | read first after 4 deals |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for style in styles:
        own = NAMED.index(style) if style in NAMED else -1
        mine = SEARCHES if own in SEARCHES else (own,) if own >= 0 else ()
        by_deal: dict[int, list[tuple[float, float, float]]] = {0: [], 1: [], 4: []}
        modes: list[str] = []
        for m in range(matches):
            _, views = played([seat0, style, style, style], f"{seed}-{m}", f"{seed}-{style}-{m}")
            for d, rows in by_deal.items():
                post = seat_posteriors(views[d], sim_line)
                rows.append((share(post, mine) if mine else float("nan"), share(post, (0,)), share(post, SEARCHES)))
                if d == 4:
                    modes += [NAMED[max(range(len(NAMED)), key=lambda k: ps[k])] for ps in post.values()]
        cols = [[statistics.fmean(r[i] for r in by_deal[d]) for d in (0, 1, 4)] for i in range(3)]
        top = max(set(modes), key=modes.count)
        print(f"| {style} | {cols[0][0]:.2f} | {cols[0][1]:.2f} | {cols[0][2]:.2f} | "
              f"{' / '.join(f'{x:.2f}' for x in cols[1])} | {' / '.join(f'{x:.2f}' for x in cols[2])} | "
              f"{top} ({modes.count(top)} of {len(modes)} seats) |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--styles", default=",".join((*STYLES, "ismcts", "heuristic", "strong-v2")))
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--seat0", default="heuristic")
    ap.add_argument("--seed", default="fit")
    ap.add_argument("--named", action="store_true", help="the posterior over named styles (module doc)")
    ap.add_argument("--sim-line", action="store_true", help="with --named: spar-sim's bids read by sim_line_bid")
    a = ap.parse_args()
    if a.named:
        named(a.styles.split(","), a.matches, a.seat0, a.seed, a.sim_line)
        return
    print("| style | heuristic share | greedy share | uniform share | bid shift | bid miss | table trust |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for style in a.styles.split(","):
        rows: list[Style] = []
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
