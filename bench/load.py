"""The crowd benchmark: N people each play a 5-deal match against three bots, at once, as the site's
users do: sign up, start a match over the REST API, listen on the match WebSocket, and answer each turn
with a legal bid or card after a think time drawn uniformly from ``--think`` seconds.

It measures what a person feels:
- a person's action: from a bid or card sent until its answer (``--via socket``, the default, as the table page
  sends it: on the match's socket, until ``accepted``; ``--via rest``, as API clients do: a POST until its answer);
- the bots' reply: from that answer until the socket shows the person's turn again (or the end);
- human actions a second and all actions a second (with the bots'), over the whole run;
- errors (any answer but 2xx), sockets closed by the server (with their codes), reconnects;
- CPU per component (web, worker, beat, PostgreSQL, Redis) while it ran, from /proc;
- and, with ``--start``, the server's own histograms over the same minutes (``/metrics`` of the web processes and
  the worker's): its time per action and the bots' reply, beside the client's figures.

``--start`` brings up the real stack on loopback first and takes it down after: a fresh PostgreSQL
database and Redis database, ``make serve``'s server (gunicorn with ``--web`` Uvicorn processes,
DEBUG off, BOT_DELAY_SECONDS 0), a Celery worker with ``--workers`` processes and beat. Without
``--start`` it plays against ``--url`` (a stack you run). Traffic goes to loopback only; every loop is
bounded in count and in time (``--timeout``), and the run stops by itself.

    .venv/bin/python bench/load.py --start --matches 50 --think 0-5

``--burst`` is a flash crowd: the N people sign up and start their match all at the same moment (without it,
eight at a time), and the run reports each one's sign-up and start (p50 / p95 / slowest), how long until the
last of them was in, and the errors of that moment apart; then they play as usual until ``--timeout``.

    .venv/bin/python bench/load.py --start --burst --matches 200 --timeout 60

``--quick N`` is *Play online*: N people sign up (eight at a time) and open their account socket (``/ws/me/``),
then all press *Play online* (``POST /api/quick-match/``, live, unrated) at the same moment. Each one's time from
the press until ``{"type": "matched"}`` arrives (or the answer says ``matched`` already) is measured; every one
must be seated within ``QUICK_MATCH_BOTS_AFTER`` (``--bots-after``, 20 s) plus 5 s. The report gives the time to
a seat (p50 / p95 / slowest), how many tables were made and how many people sat at each, and the machine's load.

    .venv/bin/python bench/load.py --start --quick 100

``--cluster`` (instead of ``--start``) runs any of them through HAProxy in front of two web nodes of ``--web``/2
processes each, PgBouncer, a bots' worker node, an analyses' one and beat (``bench/cluster.py``); the CPU table
then names each node, and the server's histograms add up every node's /metrics.

    .venv/bin/python bench/load.py --cluster --matches 10 --think 0 --rounds 8

``--arena N`` is an arena tournament: N people sign up and open their account socket, then all join one running
arena (made on the stack's database with ``--start``; else ``--arena-id``) at the same moment and play in it for
``--seconds`` at ``--think``: seated whenever free (bots after ``TOURNAMENT_BOTS_AFTER``). It reports the time from
"free" (joined, or one's match ended) to "seated" (p50 / p95 / slowest), the standings' delay after a match ends (on
the arena's standings socket), the errors and the machine's load.

    .venv/bin/python bench/load.py --start --arena 200 --think 0-5 --seconds 300

The work is split by job: ``load_stack`` (the stack started), ``load_players`` (the people), ``load_metrics`` (CPU
and the server's histograms), ``load_crowd`` (the crowd run and its table), ``load_quick`` (the quick-match run),
``load_arena`` (the arena run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any
from urllib.parse import urlparse

from cluster import Cluster
from load_arena import arena_table, run_arena
from load_crowd import run, table
from load_quick import quick_table, run_quick
from load_stack import Stack


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10, help="concurrent matches (people), 1..500")
    parser.add_argument("--think", default="0", help="think time in seconds, a value or a range LO-HI")
    parser.add_argument("--start", action="store_true", help="start the real stack on loopback, stop it after")
    parser.add_argument("--cluster", action="store_true",
                        help="start the cluster (bench/cluster.py: two web nodes of --web/2 processes behind HAProxy,"
                             " PgBouncer, two worker nodes, beat) and play through the balancer")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site, without --start (loopback only)")
    parser.add_argument("--web", type=int, default=os.cpu_count() or 1, help="web processes (with --start)")
    parser.add_argument("--workers", type=int, default=4 * (os.cpu_count() or 1),
                        help="Celery worker processes (with --start; the default is the settings')")
    parser.add_argument("--rounds", type=int, default=1,
                        help="matches each person plays one after the other (a longer steady run)")
    parser.add_argument("--timeout", type=float, default=900, help="stop playing after this many seconds")
    parser.add_argument("--bot", default="normal", choices=["easy", "normal", "hard"],
                        help="the three bots' level (the site's default is normal)")
    parser.add_argument("--seed", default="load", help="the players' choices are drawn from this seed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--keep-db", action="store_true", help="keep the database after the run (to study it)")
    parser.add_argument("--via", default="socket", choices=["socket", "rest"],
                        help="send the bids and cards on the match socket (as the table page does) or by POST")
    parser.add_argument("--burst", action="store_true",
                        help="everyone signs up and starts at the same moment (a flash crowd)")
    parser.add_argument("--quick", type=int, default=0,
                        help="instead of playing: this many people press Play online at once (1..500)")
    parser.add_argument("--bots-after", type=float, default=20.0,
                        help="QUICK_MATCH_BOTS_AFTER of the stack started (with --start; else say the site's)")
    parser.add_argument("--arena", type=int, default=0,
                        help="instead of playing matches of one's own: this many people join one arena (1..500)")
    parser.add_argument("--arena-id", type=int, default=0, help="the running arena to join (without --start)")
    parser.add_argument("--seconds", type=float, default=180.0, help="how long the --arena run plays")
    args = parser.parse_args()
    if not 1 <= args.matches <= 500:
        parser.error("--matches is 1..500")
    if args.quick and not 1 <= args.quick <= 500:
        parser.error("--quick is 1..500")
    if args.arena and not 1 <= args.arena <= 500:
        parser.error("--arena is 1..500")
    if args.arena:
        os.environ.setdefault("TOURNAMENT_SCHEDULE", "0")  # the stack makes no arena but the run's
    stack: Any = None  # the stack or the cluster: the crowd reads its processes and metrics the same way
    base = args.url.rstrip("/")
    if args.cluster:
        stack = Cluster(web_processes=max(1, args.web // 2), bot_workers=args.workers,
                        extra_env={"QUICK_MATCH_BOTS_AFTER": str(args.bots_after)})
        stack.start()
        base = stack.url
    elif args.start:
        stack = Stack(web=args.web, workers=args.workers, bots_after=args.bots_after)
        stack.start()
        base = stack.url
    elif urlparse(base).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("--url must be on this machine (loopback)")
    try:
        result = asyncio.run((run_arena if args.arena else run_quick if args.quick else run)(args, base, stack))
    finally:
        if stack is not None:
            stack.stop(args.keep_db)
    print(arena_table(result) if args.arena else quick_table(result) if args.quick else table(result))
    if args.json:
        print(json.dumps(result))
    if args.arena:
        return 0 if not result["errors"] else 1
    if args.quick:
        return 0 if result["within_limit"] == result["quick"] and not result["errors"] else 1
    return 0 if not result["errors"] and not result["closed_by_server"] else 1


if __name__ == "__main__":
    sys.exit(main())
