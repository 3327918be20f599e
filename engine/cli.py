"""``python -m engine``: simulate bot matches, verify replays, benchmark the core, analyse a seat's play."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from .analysis import DEFAULT_BUDGET, PREVIEW_BUDGET, Analysis, analyze_deal, analyze_seat
from .bench import measure
from .bots import bot_names
from .errors import EngineError
from .replays import verify_replay
from .tournament import MatchResult, format_table, match_specs, play_match, summarize, team_margins


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Call Break (叫墩牌) engine tools: bot matches, the public replay verifier, benchmarks, "
                    "post-game analysis.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play bot-only matches and write one replay JSON each")
    sim.add_argument("--matches", type=int, default=100, help="number of matches (default 100)")
    sim.add_argument("--seats", default="random,random,random,random",
                     help=f"four bot names, comma-separated, seat 0 first (bots: {', '.join(bot_names())})")
    sim.add_argument("--seed", default="sim", help="seed prefix: match i is dealt from PREFIX-i")
    sim.add_argument("--out", type=Path, help="directory for the replay files (none written if omitted)")
    sim.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    sim.add_argument("--duplicate", action="store_true",
                     help="play every seed once per rotation of the seats, so card luck cancels out")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")

    ver = sub.add_parser("verify", help="check finished-match replays completely (callbreak-replay/1)")
    ver.add_argument("paths", nargs="+", type=Path, metavar="FILE_OR_DIR")

    bench = sub.add_parser("bench", help="measure playouts/s, legal-move calls/s, deal and replay times")
    bench.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    bench.add_argument("--seconds", type=float, default=0.5, help="length of one run (default 0.5 s)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")

    ana = sub.add_parser("analyze", help="review every decision of one seat of a finished match (the strong bot's "
                                        "evaluation: expected points of every choice, the best one, the loss)")
    ana.add_argument("replay", type=Path, metavar="REPLAY.json")
    ana.add_argument("--seat", type=int, required=True, help="the seat to review, 0..3")
    ana.add_argument("--json", action="store_true", help="print the callbreak-analysis/1 document")
    ana.add_argument("--budget", type=int, default=None,
                     help=f"sampled deals per decision (default {DEFAULT_BUDGET}; {PREVIEW_BUDGET} with --deal)")
    ana.add_argument("--deal", type=int, default=None, help="only this deal (1..5): the quick one-deal preview")
    ana.add_argument("--seed", default="0", help="analysis seed (default 0): same replay, seat, seed, budget, "
                                                 "same analysis")

    args = parser.parse_args(argv)
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "verify":
        return _verify(args.paths)
    if args.command == "analyze":
        return _analyze(args)
    return _bench(args)


# --- simulate ---------------------------------------------------------------------------------

def _simulate(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.seats.split(",")]
    if len(bots) != 4:
        print("--seats needs exactly four bot names, e.g. random,random,random,random", file=sys.stderr)
        return 2
    if args.matches < 1 or args.jobs < 1:
        print("--matches and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        specs = match_specs(args.matches, bots, args.seed, args.duplicate)
    except EngineError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    out: Path | None = args.out
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    results: list[MatchResult] = []
    progress = _Progress(len(specs), enabled=not args.quiet)
    for result in _run(specs, args.jobs, out):
        results.append(result)
        progress.step()
    progress.close()
    results.sort(key=lambda r: r.spec.match_id)
    print(format_table(summarize(results, bots), len(results), team_margins(results, bots)))
    if out is not None:
        print(f"replays written to {out}/")
    return 0


def _play_and_write(job: tuple[object, Path | None]) -> MatchResult:
    spec, out = job
    result = play_match(spec, keep_replay=out is not None)  # type: ignore[arg-type]
    if out is not None:
        (out / f"{result.spec.match_id}.json").write_text(json.dumps(result.replay, indent=1))
        result.replay = None
    return result


def _run(specs: Sequence[object], jobs: int, out: Path | None) -> Iterator[MatchResult]:
    work = [(spec, out) for spec in specs]
    if jobs == 1:
        yield from map(_play_and_write, work)
        return
    with Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_and_write, work, chunksize=1)


class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.enabled = total, 0, enabled
        self.start = time.monotonic()
        self.tty = sys.stderr.isatty()

    def step(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        if not self.tty and self.done not in (self.total,) and self.done % max(1, self.total // 10):
            return
        width = 30
        filled = width * self.done // self.total
        elapsed = time.monotonic() - self.start
        bar = "#" * filled + "-" * (width - filled)
        end = "\r" if self.tty else "\n"
        print(f"[{bar}] {self.done}/{self.total} matches {elapsed:6.1f}s", end=end, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.enabled and self.tty:
            print(file=sys.stderr)


# --- verify -----------------------------------------------------------------------------------

def _replay_files(paths: Sequence[Path]) -> Iterator[Path]:
    for p in paths:
        if p.is_dir():
            yield from sorted(p.glob("*.json"))
        else:
            yield p


def _verify(paths: Sequence[Path]) -> int:
    """One line per file; non-zero exit on any violation, naming the first one."""
    failures = checked = 0
    for path in _replay_files(paths):
        checked += 1
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            state = verify_replay(doc)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            failures += 1
            print(f"FAIL {path}: cannot read a JSON replay: {err}")
            continue
        except EngineError as err:
            failures += 1
            print(f"FAIL {path}: {err}")
            continue
        totals = " ".join(f"{t / 10:.1f}" for t in state.totals)
        print(f"OK   {path}: seed matches its commitment, 5 deals verified, totals {totals}, "
              f"winners {list(state.winners)}")
    if checked == 0:
        print("no replay files found", file=sys.stderr)
        return 2
    print(f"{checked - failures} verified, {failures} failed", file=sys.stderr)
    return 1 if failures else 0


# --- bench ------------------------------------------------------------------------------------

def _bench(args: argparse.Namespace) -> int:
    runs = max(1, args.runs)
    figures, actions = measure(runs, args.seconds)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    print(f"python {sys.version.split()[0]}, one core (process CPU time), median of {runs} runs of {args.seconds} s")
    playouts_s = figures['random_playouts_per_s']
    print(f"random full-deal playouts from dealt hands: {playouts_s:>10,.0f} /s   (goal >= 40,000)")
    print(f"legal-move calls:                           {figures['legal_move_calls_per_s']:>10,.0f} /s")
    print(f"seeded deal (SHA-256 shuffle + dealing):    {figures['seeded_deal_us']:>10.1f} us  (goal <= 25)")
    print(f"replay of a whole 5-deal match ({actions} actions): {figures['match_replay_ms']:>6.2f} ms  (goal <= 2)")
    print(f"memory held by a finished match state:      {figures['finished_match_state_kib']:>10.1f} KiB")
    return 0


# --- analyze ----------------------------------------------------------------------------------

def _analyze(args: argparse.Namespace) -> int:
    if args.seat not in (0, 1, 2, 3):
        print(f"error: --seat must be 0, 1, 2 or 3, not {args.seat}", file=sys.stderr)
        return 2
    if args.deal is not None and args.deal not in (1, 2, 3, 4, 5):
        print(f"error: --deal must be 1..5, not {args.deal}", file=sys.stderr)
        return 2
    budget = args.budget if args.budget is not None else DEFAULT_BUDGET if args.deal is None else PREVIEW_BUDGET
    if budget < 1:
        print(f"error: --budget must be at least 1, not {budget}", file=sys.stderr)
        return 2
    try:
        doc = json.loads(args.replay.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        print(f"error: cannot read a JSON replay from {args.replay}: {err}", file=sys.stderr)
        return 2
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            end = "\n" if done == total else "\r"
            print(f"analysing: {done}/{total} decisions", end=end, file=sys.stderr, flush=True)

    try:
        if args.deal is not None:
            analysis = analyze_deal(doc, args.seat, args.deal, budget=budget, seed=args.seed)
        else:
            analysis = analyze_seat(doc, args.seat, budget=budget, seed=args.seed, progress=progress)
    except ValueError as err:  # EngineError (a replay that does not verify) is one too
        print(f"error: {args.replay}: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(analysis.to_json(), indent=1, ensure_ascii=False))
    else:
        print(format_analysis(analysis, doc))
    return 0


#: Choices listed per decision in the table, best first (the one played is always listed).
_SHOWN = 6


def _choices(d: Mapping[str, Any]) -> str:
    """The values of a decision's choices, best first: ``AC 1.9, 6H=7H 1.8, …``."""
    equivalent = d["equivalent"]
    items = sorted(d["values"].items(), key=lambda kv: -kv[1])
    shown = [kv for i, kv in enumerate(items) if i < _SHOWN or kv[0] == str(d["played"])]
    more = f", … {len(items) - len(shown)} more" if len(shown) < len(items) else ""
    return ", ".join(f"{'='.join([k, *equivalent.get(k, [])])} {v:.1f}" for k, v in shown) + more


def format_analysis(analysis: Analysis, replay_doc: Mapping[str, Any]) -> str:
    """The analysis as a readable table, one line per decision, deal by deal, and the summaries."""
    doc = analysis.to_json()
    players = replay_doc.get("players") or []
    name = players[analysis.seat].get("name", "") if len(players) == 4 else ""
    summary = doc["summary"]
    lines = [
        f"Analysis of seat {analysis.seat}{f' ({name})' if name else ''}, match {doc['match_id'] or '?'}: "
        f"{analysis.budget} sampled deals per decision, seed {analysis.seed!r}",
        "Values and losses in points of the final score (deal 5: chance of winning the match "
        f"x {doc['win_scale']:.1f} points); '=' joins equivalent cards.",
    ]
    per_deal = {s["deal"]: s for s in summary["deals"]}
    for n, deal in per_deal.items():
        score = f", scored {deal['score']:.1f}" if "score" in deal else ""
        lines.append("")
        lines.append(f"Deal {n}{score}: {_summary_line(deal)}")
        lines.append(f"  {'#':>2}  {'kind':<4} {'trick':>5}  {'played':>6}  {'best':>4}  {'loss':>5}  "
                     f"{'label':<10}  choices (expected points)")
        for d in doc["decisions"]:
            if d["deal"] != n:
                continue
            trick = "" if d["trick"] is None else str(d["trick"])
            label = d["label"] or "forced"
            if d["forced"]:
                lines.append(f"  {d['index'] + 1:>2}  {d['kind']:<4} {trick:>5}  {d['played']!s:>6}  {'':>4}  "
                             f"{'':>5}  {label}")
                continue
            choices = _choices(d)
            if d["win_chance"] is not None:
                wins = d["win_chance"]
                choices += f"  [win chance: played {100 * wins[str(d['played'])]:.0f}%, " \
                           f"best {100 * wins[str(d['best'])]:.0f}%]"
            lines.append(f"  {d['index'] + 1:>2}  {d['kind']:<4} {trick:>5}  {d['played']!s:>6}  {d['best']!s:>4}  "
                         f"{d['loss']:>5.1f}  {label:<10}  {choices}")
    lines.append("")
    lines.append(f"{'Match' if len(per_deal) == 5 else 'Total'}: {_summary_line(summary)}")
    labels = summary["labels"]
    lines.append("Labels: " + ", ".join(f"{k} {v}" for k, v in labels.items()) + f"; forced {summary['forced']}")
    return "\n".join(lines)


def _summary_line(s: Mapping[str, Any]) -> str:
    acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}%"
    loss = s["loss"]
    return (f"accuracy {acc} of {s['rated']} rated decisions, points lost {loss['total']:.1f} "
            f"(bids {loss['bids']:.1f}, cards {loss['cards']:.1f})")
