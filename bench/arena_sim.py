"""The arena's waits under its rules alone: ``bench/load.py --arena`` with a server that costs nothing.

A discrete-event simulation of one arena: N people join at once, matches of 70 actions a person at think
``--think`` seconds each, the site's own pairing (``games.tournaments.scoring.groups``: closest in points, never the
same four twice in a row, bots after ``--bots-after`` seconds) run the moment anyone is free, places drawn at
random. It reports what the load bench reports, free -> seated p50 / p95 / slowest, first seats and seats after a
match apart, so a run of the real stack can be read against the floor the rules set.

    PYTHONPATH=. .venv/bin/python bench/arena_sim.py --people 200 --first-wave 3 --seconds 840 --seeds 30
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
from datetime import datetime, timedelta

from load_metrics import pct as quantile  # bench/, beside this file: the load bench's own percentile

from engine.deal import DEALS_PER_MATCH
from engine.rules import TRICKS_PER_DEAL
from games.tournaments import scoring

ACTIONS_PER_PERSON = DEALS_PER_MATCH * (1 + TRICKS_PER_DEAL)  # a bid and a card a trick, every deal


def run(people: int, seconds: float, think: tuple[float, float], bots_after: float, first_wave: float,
        delay: float, seed: int) -> dict[str, list[float]]:
    """One arena; the waits of its seatings, split into first seats and seats after a match. The pairing sees a
    person ``delay`` seconds after they are free (the server's share: counting the match, the run, the socket)."""
    rng = random.Random(seed)
    epoch = datetime(2026, 1, 1)
    points = dict.fromkeys(range(people), 0)
    streak = dict.fromkeys(range(people), 0)
    last_four = dict.fromkeys(range(people), "")
    free_since: dict[int, float] = {p: rng.uniform(0, first_wave) for p in range(people)}
    first = set(range(people))
    waits: dict[str, list[float]] = {"first": [], "again": []}
    ends: list[tuple[float, int, tuple[int, ...]]] = []
    serial = 0
    # the moments something changes: someone is free, a match ends, someone has waited long enough for bots
    clock = 0.0
    while clock <= seconds:
        while ends and ends[0][0] <= clock:  # matches that ended: places, points, their people free
            _, _, ids = heapq.heappop(ends)
            for p, (place, share) in zip(ids, scoring.places([rng.randrange(-100, 400) for _ in ids]), strict=True):
                got, streak[p], _ = scoring.award(share, place, streak[p])
                points[p] += got
                free_since[p] = clock
        ready = {p: t for p, t in free_since.items() if t + delay <= clock + 1e-9}
        if ready:
            free = [scoring.Free(p, points[p], epoch + timedelta(seconds=t), last_four[p]) for p, t in ready.items()]
            for group in scoring.groups(free, {p: p for p in ready}, epoch + timedelta(seconds=clock), bots_after):
                ids = tuple(f.entry_id for f in group)
                key = scoring.four_key(ids)
                for p in ids:
                    since = free_since.pop(p)
                    if p in first:  # from the click that joined, at 0: the join's own answer counts
                        waits["first"].append(clock)
                        first.discard(p)
                    else:
                        waits["again"].append(clock - since)
                    last_four[p] = key
                duration = sum(rng.uniform(*think) for _ in range(ACTIONS_PER_PERSON * len(ids)))
                serial += 1
                heapq.heappush(ends, (clock + duration, serial, ids))
        # the next moment something changes: someone joins, a match ends, someone has waited long enough for bots
        upcoming = [t + delay for t in free_since.values() if t + delay > clock + 1e-9]
        upcoming += [t + bots_after for t in free_since.values() if t + bots_after > clock]
        if ends:
            upcoming.append(ends[0][0])
        if not upcoming:
            break
        clock = min(upcoming)
    return waits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--people", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=840.0)
    ap.add_argument("--think", default="0-5", help="seconds a person thinks, LOW-HIGH")
    ap.add_argument("--bots-after", type=float, default=30.0)
    ap.add_argument("--first-wave", type=float, default=0.0,
                    help="everyone clicks Join at 0; the answers come over this many seconds (0: at once)")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="seconds from a person's free moment until the pairing sees them (the server's share)")
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    low, _, high = args.think.partition("-")
    think = (float(low), float(high or low))
    print("seed  all p50 / p95 / slowest      first p95   again p50 / p95 / slowest   seatings")
    p95s = []
    for seed in range(args.seeds):
        w = run(args.people, args.seconds, think, args.bots_after, args.first_wave, args.delay, seed)
        everything = w["first"] + w["again"]
        p95s.append(quantile(everything, 0.95))
        print(f"{seed:4d}  {quantile(everything, 0.5):5.1f} / {p95s[-1]:5.1f} / {max(everything):5.1f} s"
              f"   {quantile(w['first'], 0.95):5.1f} s"
              f"   {quantile(w['again'], 0.5):5.1f} / {quantile(w['again'], 0.95):5.1f} / "
              f"{max(w['again'], default=float('nan')):5.1f} s   {len(everything)}")
    met = sum(1 for p in p95s if p <= 5.0)
    print(f"all-seatings p95: median {statistics.median(p95s):.1f} s, min {min(p95s):.1f}, max {max(p95s):.1f}; "
          f"<= 5 s in {met} of {len(p95s)} seeds")


if __name__ == "__main__":
    main()
