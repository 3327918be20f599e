"""The league: each bot of ``--bots`` against three seats of each sparring style, in duplicate matches.

For every style and every seed ``PREFIX-i`` the match is played in the four rotations of the seats (the bot holds
each hand once), by each bot of ``--bots`` in turn, with the same decision seeds for the style's seats, so the bots'
figures are paired match by match.  Every match runs through the engine's state machine (``apply`` refuses an
illegal action) and its replay is checked by ``verify_replay``; the run counts the violations.

    nice -n 19 .venv/bin/python bench/league.py --bots strong,strong-v2 --seeds 10 --seed league-a --jobs 2 \
        --out /tmp/league-a.jsonl
    .venv/bin/python bench/league.py --report /tmp/league-a.jsonl          # the table again, or of a partial run

Each match is one line of ``--out`` (JSON) as it ends; a run started again with the same ``--out`` skips the
matches already there, and ``--report`` counts only seeds whose four rotations every bot has played (a partial
run is still a duplicate comparison).  The table, per style and bot: the margin a match (the bot's total minus the
mean of the three others, points) ± the half-width of its 95% interval (every match a sample), the share of the
match wins (ties shared), bids made, and the fifth deal's margin (its deal score minus the others' mean); then
the first bot's margin minus each other bot's on the same matches.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from engine import verify_replay
from engine.bots.league import STYLES
from engine.errors import EngineError
from engine.tournament import MatchSpec, mean_ci, play_match

DEFAULT_STYLES = ",".join((*STYLES, "ismcts", "heuristic"))

Task = tuple[str, str, int, int, str]  # bot, style, seed index, rotation, prefix


def spec_of(task: Task) -> MatchSpec:
    """The bot at seat ``r``, the style at the three others; the match id names the style, seed and rotation but
    not the bot, so the style's seats draw the same random numbers against every bot."""
    bot, style, i, r, prefix = task
    bots = tuple(bot if s == r else style for s in range(4))
    return MatchSpec(f"{prefix}-{style}-{i}-r{r}", f"{prefix}-{i}", bots, tuple(0 if s == r else 1 for s in range(4)))


def play(task: Task) -> dict[str, Any]:
    bot, style, i, r, prefix = task
    start = time.process_time()
    result = play_match(spec_of(task))
    assert result.replay is not None
    try:
        verify_replay(result.replay)
        violation = ""
    except EngineError as err:
        violation = str(err)
    deals = result.replay["deals"]
    assert isinstance(deals, list)
    return {
        "bot": bot, "style": style, "seed": i, "rotation": r, "prefix": prefix, "seat": r,
        "totals": list(result.totals), "winners": list(result.winners),
        "bids": [[b["bid"] for b in sorted(d["bids"], key=lambda b: b["seat"])] for d in deals],
        "won": [d["tricks_won"] for d in deals], "scores": [d["scores"] for d in deals],
        "violation": violation, "cpu": time.process_time() - start,
    }


def tasks(bots: list[str], styles: list[str], seeds: int, prefix: str) -> Iterator[Task]:
    """Seed by seed, so a run stopped early has every style at about the same number of seeds."""
    for i in range(seeds):
        for style in styles:
            for bot in bots:
                for r in range(4):
                    yield bot, style, i, r, prefix


def _key(row: dict[str, Any]) -> tuple[str, str, int, int, str]:
    return row["bot"], row["style"], row["seed"], row["rotation"], row["prefix"]


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def margin(row: dict[str, Any]) -> float:
    totals, me = row["totals"], row["seat"]
    return float(totals[me] - statistics.fmean(t for s, t in enumerate(totals) if s != me)) / 10


def _ci(values: list[float], scale: float = 1.0, fmt: str = "+.2f", unit: str = "") -> str:
    m, half = mean_ci(values)
    digits = "." + fmt[-2:]
    return f"{m * scale:{fmt}}{unit} ± {half * scale:{digits}}"


def report(rows: list[dict[str, Any]], bots: list[str] | None = None) -> str:
    """The league table (markdown) of complete seeds: every bot has played all four rotations of the seed.  A last
    row pools the ``spar-*`` styles (the league proper) when more than one of them was played."""
    bots = bots or list(dict.fromkeys(r["bot"] for r in rows))
    styles = list(dict.fromkeys(r["style"] for r in rows))
    by: dict[tuple[str, str, int, int, str], dict[str, Any]] = {_key(r): r for r in rows}
    games: dict[str, dict[str, list[dict[str, Any]]]] = {}  # style -> bot -> matches, in the same order per bot
    for style in styles:
        seeds = sorted({(r["prefix"], r["seed"]) for r in rows if r["style"] == style})
        complete = [(p, i) for p, i in seeds if all((b, style, i, rot, p) in by for b in bots for rot in range(4))]
        if complete:
            games[style] = {b: [by[(b, style, i, rot, p)] for p, i in complete for rot in range(4)] for b in bots}
    league = [st for st in games if st.startswith("spar-")]
    if len(league) > 1:
        games[f"league ({len(league)} spar styles pooled)"] = {
            b: [g for st in league for g in games[st][b]] for b in bots}
    out = ["| style | matches | " + " | ".join(
        f"`{b}` margin | `{b}` win share | `{b}` bids made | `{b}` 5th deal" for b in bots) + " |",
        "|---|---:|" + "---:|" * (4 * len(bots))]
    diffs: list[str] = []
    bid_rows: list[str] = []
    for style, per_bot in games.items():
        cells = []
        for b in bots:
            gs = per_bot[b]
            wins = [1 / len(g["winners"]) if g["seat"] in g["winners"] else 0.0 for g in gs]
            made = [float(g["won"][d][g["seat"]] >= g["bids"][d][g["seat"]]) for g in gs for d in range(5)]
            fifth = [g["scores"][4][g["seat"]] - statistics.fmean(
                sc for s, sc in enumerate(g["scores"][4]) if s != g["seat"]) for g in gs]  # points
            gaps = [g["won"][d][g["seat"]] - g["bids"][d][g["seat"]] for g in gs for d in range(5)]
            mean_bid = statistics.fmean(g["bids"][d][g["seat"]] for g in gs for d in range(5))
            bid_rows.append(f"| {style} | `{b}` | {mean_bid:.2f}"
                            f" | {_ci([float(x) for x in gaps])} | {sum(x == -1 for x in gaps) / len(gaps):.1%}"
                            f" | {sum(x <= -2 for x in gaps) / len(gaps):.1%} |")
            cells.append(f"{_ci([margin(g) for g in gs])} | {_ci(wins, 100, '.1f', '%')} | "
                         f"{_ci(made, 100, '.1f', '%')} | {_ci(fifth)}")
        out.append(f"| {style} | {len(per_bot[bots[0]])} | " + " | ".join(cells) + " |")
        for b in bots[1:]:
            d = [margin(x) - margin(y) for x, y in zip(per_bot[bots[0]], per_bot[b], strict=True)]
            diffs.append(f"| {style} | `{bots[0]}` − `{b}` | {len(d)} | {_ci(d)} |")
    text = "\n".join(out)
    if bid_rows:
        text += ("\n\n| style | bot | mean bid | tricks − bid | missed by 1 | missed by 2+ |\n"
                 "|---|---|---:|---:|---:|---:|\n" + "\n".join(bid_rows))
    if diffs:
        text += "\n\n| style | paired difference | matches | margin a match |\n|---|---|---:|---:|\n" + "\n".join(diffs)
    violations = sum(1 for r in rows if r["violation"])
    return text + f"\n\nreplays verified: {len(rows)}, violations: {violations}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="strong,strong-v2", help="the bots measured, the first against the others")
    ap.add_argument("--styles", default=DEFAULT_STYLES, help="the opponents, three seats of each")
    ap.add_argument("--seeds", type=int, default=10, help="seeds per style (four matches each per bot)")
    ap.add_argument("--seed", default="league", help="the seeds' prefix")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, help="the matches as JSON lines (a run again skips those already there)")
    ap.add_argument("--report", type=Path, nargs="*", help="print the table of these files and stop")
    a = ap.parse_args()
    bots = a.bots.split(",")
    if a.report:
        print(report([r for p in a.report for r in load(p)], bots))
        return
    done = {_key(r) for r in load(a.out)} if a.out else set()
    todo = [t for t in tasks(bots, a.styles.split(","), a.seeds, a.seed) if t not in done]
    rows = load(a.out) if a.out else []
    start = time.monotonic()
    with Pool(a.jobs) as pool:
        sink = a.out.open("a") if a.out else None
        for n, row in enumerate(pool.imap_unordered(play, todo, chunksize=1), 1):
            rows.append(row)
            if sink:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            if n % 16 == 0 or n == len(todo):
                print(f"{n}/{len(todo)} matches  {time.monotonic() - start:.0f}s", file=sys.stderr, flush=True)
        if sink:
            sink.close()
    print(report(rows, bots))
    print(f"\nload average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
