"""The bot ladder on the real stack: two outside bots play rated matches in the bots' quick-match pool, the
house bots (``heuristic``, ``strong``) filling the empty seats, and the run reports the ratings before and after
and the stalls.

It signs up two accounts, turns them into bot accounts, and starts two processes of the repository's client
(``python -m callbreak_client ladder``), each with one of the engine's bots (``--bots``, default
``heuristic,random``) and ``--matches`` matches to play: each seeks in the bots' pool, plays the match it is seated
at, and seeks again. The two seek at the same moments (they finish the same match), so they are nearly always
seated together, with two house bots drawn from ``--house`` (the stack's ``BOT_LADDER_HOUSE_BOTS``); the run
prints the distinct matches played. Meanwhile it watches every ladder match the bots are in (their match lists,
every ``--poll`` seconds) and counts a **stall** each time an active match has not moved (its ``seq``) for
``--stall`` seconds. At the end: each bot account's rating before and after (mu, sigma, the shown rating), the
house bots' (frozen: the bot ladder's yardstick), the matches' lengths, the seats the autopilot took, the wall
time and the load average.

``--start`` brings up the real stack on loopback first, as ``bench/load.py --start`` does (a fresh PostgreSQL
database and Redis database, ``make serve``'s gunicorn, a Celery worker and beat), with
``QUICK_MATCH_BOT_POOL_AFTER`` ``--wait`` seconds, and takes it down after. Without it, it plays against ``--url``
(loopback only; the site's own settings then apply). Every loop is bounded by ``--timeout``.

    nice -n 10 .venv/bin/python bench/ladder.py --start --matches 20
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import PASSWORD, ROOT, Stack  # noqa: E402  (the stack as the crowd benchmark starts it)

BIN = ROOT / ".venv" / "bin"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def sign_up_bot(http: httpx.Client, name: str) -> str:
    r = http.post("/api/auth/signup/", json={"username": name, "password": PASSWORD})
    r.raise_for_status()
    token = str(r.json()["token"])
    up = http.post("/api/bot/account/upgrade/", headers=_auth(token))
    if up.status_code not in (200, 201):
        raise SystemExit(f"upgrade of {name} refused: {up.status_code} {up.text}")
    return token


def rating_of(http: httpx.Client, token: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = http.get(f"/api/players/{name}/", headers=_auth(token)).json()
    return data


def board(http: httpx.Client, token: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = http.get("/api/leaderboard/", params={"board": "bots"}, headers=_auth(token)).json()
    return rows


def start_client(url: str, token: str, bot: str, matches: int, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'clients' / 'python'}{os.pathsep}{ROOT}")
    return subprocess.Popen([str(BIN / "python"), "-m", "callbreak_client", "ladder", "--url", url, "--token", token,
                             "--bot", bot, "--matches", str(matches)], cwd=ROOT, env=env,
                            stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)


class Watch:
    """Every match of the bots' lists: its seq, when it last moved, and the stalls (a pause of ``stall`` s)."""

    def __init__(self, stall: float) -> None:
        self.stall = stall
        self.matches: dict[int, dict[str, Any]] = {}
        self.moved: dict[int, tuple[int, float]] = {}
        self.stalled: set[int] = set()
        self.stalls: list[tuple[int, int, float]] = []  # (match, seq, seconds still)
        self.longest = 0.0

    def see(self, rows: list[dict[str, Any]], now: float) -> None:
        for row in rows:
            mid = int(row["id"])
            self.matches[mid] = row
            seq = int(row["seq"])
            last = self.moved.get(mid)
            if last is None or last[0] != seq:
                self.moved[mid] = (seq, now)
                self.stalled.discard(mid)
                continue
            still = now - last[1]
            if row["status"] == "active":
                self.longest = max(self.longest, still)
                if still >= self.stall and mid not in self.stalled:
                    self.stalled.add(mid)
                    self.stalls.append((mid, seq, still))
                    print(f"  stall: match {mid} at seq {seq} for {still:.0f} s", flush=True)


def _shown(r: dict[str, Any]) -> str:
    return f"{r['shown']} (mu {r['mu']:.2f}, sigma {r['sigma']:.2f}, {r['games']} games)"


def _duration(row: dict[str, Any]) -> float | None:
    if not row.get("finished_at"):
        return None
    start = datetime.fromisoformat(row["created_at"])
    return (datetime.fromisoformat(row["finished_at"]) - start).total_seconds()


def run(args: argparse.Namespace, url: str) -> int:
    http = httpx.Client(base_url=url, timeout=30)
    tag = secrets.token_hex(3)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    names = [f"ladder_{b}_{tag}"[:30] for b in bots]
    tokens = [sign_up_bot(http, n) for n in names]
    before = {n: rating_of(http, t, n)["rating"] for n, t in zip(names, tokens, strict=True)}
    house_before = {r["name"]: r for r in board(http, tokens[0]) if not r["bot_account"]}
    logs = Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    started = time.monotonic()
    procs = [start_client(url, t, b, args.matches, logs / f"client-{b}.log")
             for t, b in zip(tokens, bots, strict=True)]
    print(f"{len(procs)} clients ({', '.join(f'{n}: --bot {b}' for n, b in zip(names, bots, strict=True))}), "
          f"{args.matches} matches each; logs in {logs}", flush=True)
    watch = Watch(args.stall)
    deadline = started + args.timeout
    loads: list[float] = []
    try:
        while any(p.poll() is None for p in procs):
            if time.monotonic() > deadline:
                print(f"timeout after {args.timeout} s", flush=True)
                break
            now = time.monotonic()
            for token in tokens:
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    watch.see(http.get("/api/matches/", headers=_auth(token)).json(), now)
            loads.append(os.getloadavg()[0])
            if len(loads) % max(1, round(30 / args.poll)) == 0:
                done = sum(1 for m in watch.matches.values() if m["status"] == "finished")
                print(f"  {time.monotonic() - started:6.0f} s: {done} matches finished, "
                      f"{len(watch.matches) - done} going, {len(watch.stalls)} stalls", flush=True)
            time.sleep(args.poll)
    finally:
        for p in procs:
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, 15)
    wall = time.monotonic() - started
    codes = [p.wait(timeout=30) for p in procs]
    for token in tokens:  # the matches as they ended
        watch.see(http.get("/api/matches/", headers=_auth(token)).json(), time.monotonic())
    # the last match's rating is a task: wait for every finished match to be in the bots' histories
    finished = {mid for mid, m in watch.matches.items() if m["status"] == "finished"}
    for _ in range(60):
        rated = set()
        for n, t in zip(names, tokens, strict=True):
            rated |= {h["match_id"] for h in rating_of(http, t, n)["history"]}
        if finished <= rated:
            break
        time.sleep(0.5)
    after = {n: rating_of(http, t, n)["rating"] for n, t in zip(names, tokens, strict=True)}
    house_after = {r["name"]: r for r in board(http, tokens[0]) if not r["bot_account"]}
    seats = [s for m in watch.matches.values() for s in m["seats"]]
    drawn: dict[str, int] = {}
    for s in seats:
        if s["kind"] == "bot":
            drawn[s["bot"]] = drawn.get(s["bot"], 0) + 1
    autopilot = sum(1 for s in seats if s["kind"] == "human" and s["autopilot"])
    durations = [d for d in (_duration(m) for m in watch.matches.values()) if d is not None]
    both = sum(1 for m in watch.matches.values() if sum(s["kind"] == "human" for s in m["seats"]) == 2)

    print("\n== Bot ladder ==")
    print(f"matches: {len(finished)} finished and rated {len(finished & rated)} "
          f"({both} with both outside bots), {len(watch.matches) - len(finished)} unfinished; "
          f"clients' exit codes {codes}")
    print(f"house bots seated: {', '.join(f'{k} x{v}' for k, v in sorted(drawn.items())) or 'none'}")
    for n, b in zip(names, bots, strict=True):
        print(f"  {n} (--bot {b}): {_shown(before[n])} -> {_shown(after[n])}")
    for name in sorted(set(house_before) | set(house_after)):
        was = house_before.get(name)
        print(f"  {name} (house, fixed): {_shown(was) if was else 'no row yet'} -> "
              f"{_shown(house_after[name]) if name in house_after else 'not seated'}")
    if durations:
        print(f"match length: median {statistics.median(durations):.0f} s, longest {max(durations):.0f} s")
    print(f"stalls (an active match not moving for {args.stall:.0f} s): {len(watch.stalls)}; longest pause seen "
          f"{watch.longest:.1f} s; seats the autopilot took: {autopilot}")
    print(f"wall time {wall:.0f} s; load average before {load_before[0]:.2f}, during (mean of 1-min) "
          f"{statistics.mean(loads) if loads else 0:.2f}, after {os.getloadavg()[0]:.2f}")
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    ok = len(finished & rated) >= args.matches and not watch.stalls and not any(codes)
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", action="store_true", help="start the real stack on loopback, stop it after")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site, without --start (loopback only)")
    parser.add_argument("--matches", type=int, default=20, help="matches each outside bot plays (default 20)")
    parser.add_argument("--bots", default="heuristic,random", help="the engine bots of the two outside bots")
    parser.add_argument("--house", default="heuristic,strong",
                        help="BOT_LADDER_HOUSE_BOTS of the stack started (with --start)")
    parser.add_argument("--wait", type=float, default=3.0,
                        help="QUICK_MATCH_BOT_POOL_AFTER of the stack started (with --start)")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes (with --start)")
    parser.add_argument("--web", type=int, default=2, help="web processes (with --start)")
    parser.add_argument("--stall", type=float, default=20.0, help="seconds without a move that make a stall")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks at the matches")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds the whole run may take")
    parser.add_argument("--redis-db", type=int, default=14, help="the Redis database of the stack (with --start)")
    parser.add_argument("--logs", default=f"/tmp/callbreak-ladder-{os.getpid()}", help="the clients' logs")
    args = parser.parse_args()
    if not args.start:
        if urlparse(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("--url must be on loopback")
        return run(args, args.url)
    os.environ.update(QUICK_MATCH_BOT_POOL_AFTER=str(args.wait), BOT_LADDER_HOUSE_BOTS=args.house)
    stack = Stack(web=args.web, workers=args.workers, db_name=f"callbreak_ladder_{os.getpid()}",
                  redis_db=args.redis_db, logs=Path(args.logs) / "stack")
    stack.start()
    try:
        return run(args, stack.url)
    finally:
        stack.stop()


if __name__ == "__main__":
    sys.exit(main())
