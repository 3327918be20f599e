"""``python -m engine``: simulate bot matches, verify replays, benchmark the core."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path

from .bench import measure
from .bots import bot_names
from .errors import EngineError
from .replays import verify_replay
from .tournament import MatchResult, format_table, match_specs, play_match, summarize


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Call Break (叫墩牌) engine tools: bot matches, the public replay verifier, benchmarks.",
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

    args = parser.parse_args(argv)
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "verify":
        return _verify(args.paths)
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
    print(format_table(summarize(results, bots), len(results)))
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
