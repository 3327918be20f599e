"""The chaos soak: people play against bots on the real stack while its processes are killed, and nothing a person
was told is lost, no match stays stuck, and nobody waits long for their turn.

It starts the real stack on loopback as ``bench/load.py --start`` does (its ``Stack``: a fresh PostgreSQL database
on the machine's PostgreSQL, ``make serve``'s gunicorn with ``--web`` Uvicorn processes, a Celery worker with
``--workers`` processes under ``bin/supervise``, and beat), but with a Redis server of its own on a free port (the
soak kills that one; never the machine's). ``--people`` simulated people (``bench/load.py``'s players, on the
match socket) play one match after another against bots (``--bots``, one level a person, in turn) for
``--minutes``. Every 20 to 60 seconds (``--fault-every``, drawn from ``--seed``: the same seed, the same faults at
the same moments) one fault strikes:

- ``web``: SIGKILL of one gunicorn worker process (the master starts another);
- ``worker``: SIGKILL of the Celery worker's main process (``bin/supervise`` starts it again);
- ``worker-child``: SIGKILL of one of its pool processes (the main process replaces it);
- ``database``: ``pg_terminate_backend`` of every session of the soak's database;
- ``redis``: SIGKILL of its Redis server, started again at once on the same port (empty: queues and groups lost).

At the end it reports, and exits non-zero unless every goal holds (marked *):

- the actions the server acknowledged, and of them those lost* or changed* (each must be in the match's log, as
  sent, made by the player);
- the finished matches' replays that verify* (``python -m engine verify`` on each, as downloaded by its player);
- matches stuck*: a match whose turn has not moved for more than 60 s at the end (a bot's turn, or a person
  still playing it);
- answers 5xx*, and the other failed requests and socket actions (a killed process's connections);
- the wait for one's turn (from a bid or card sent until the turn came back, or the action failed) around a
  fault, from the fault until 20 s after it: the slowest* (< 15 s) and the 95th percentile;
- the worker alive* at the end (its processes there, ``/readyz`` 200: the database, Redis and a worker answer);
- the load average.

    .venv/bin/python bench/soak.py --minutes 3
    .venv/bin/python bench/soak.py                # 15 minutes, 20 people

Traffic goes to loopback only; every loop is bounded in time and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_metrics import pct as _pct  # noqa: E402
from load_players import Figures, Player  # noqa: E402
from load_stack import BIN, ROOT, Stack  # noqa: E402
from load_stack import free_port as _free_port

FAULTS = ("web", "worker", "worker-child", "database", "redis")
STUCK_SECONDS = 60
AFTER_FAULT_SECONDS = 20
WAIT_GOAL_SECONDS = 15


# --- processes -------------------------------------------------------------------------------------

def children(pid: int) -> list[int]:
    """The processes ``pid`` started (none if it is gone)."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


# --- a Redis server of the soak's own ---------------------------------------------------------------

class OwnRedis:
    """``redis-server`` on a free loopback port, without persistence: killed and started again by the soak."""

    def __init__(self, folder: Path) -> None:
        self.port = _free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not installed")
        self.proc = subprocess.Popen([binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.folder)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("redis-server did not start") from None
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class SoakStack(Stack):
    """``bench/load.py``'s stack with the worker under ``bin/supervise``, as ``make worker`` runs it."""

    def commands(self) -> dict[str, list[str]]:
        cmds = super().commands()
        cmds["worker"] = [str(ROOT / "bin" / "supervise"), *cmds["worker"]]
        return cmds

    def worker_main(self) -> int | None:
        """The Celery worker's main process (none while ``bin/supervise`` waits to start it again)."""
        for pid in children(self.procs["worker"].pid):
            try:
                if b"celery" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
            except OSError:
                continue
        return None


# --- the faults -------------------------------------------------------------------------------------

def fault_schedule(seed: str, seconds: float, every: tuple[float, float],
                   kinds: tuple[str, ...] = FAULTS) -> list[tuple[float, str]]:
    """When (seconds from the start) and which fault strikes: one every ``every`` seconds (drawn uniformly), the
    kind drawn among ``kinds``; the same arguments give the same schedule."""
    rng = random.Random(f"{seed}-faults")
    out: list[tuple[float, str]] = []
    t = 0.0
    while True:
        t += rng.uniform(*every)
        if t >= seconds:
            return out
        out.append((round(t, 1), rng.choice(kinds)))


@dataclass
class Fault:
    at: float  # time.monotonic() when it struck
    kind: str
    detail: str


@dataclass
class Chaos:
    stack: SoakStack
    redis: OwnRedis
    rng: random.Random
    done: list[Fault] = field(default_factory=list)
    t0: float = 0.0  # when the people started playing

    def strike(self, kind: str) -> None:
        at = time.monotonic()
        detail = getattr(self, "_" + kind.replace("-", "_"))()
        self.done.append(Fault(at, kind, detail))
        print(f"soak: fault {kind}: {detail}", file=sys.stderr, flush=True)

    def _kill(self, pids: list[int], what: str) -> str:
        if not pids:
            return f"no {what} running: nothing killed"
        pid = self.rng.choice(sorted(pids))
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return f"SIGKILL {what} {pid}"

    def _web(self) -> str:
        return self._kill(children(self.stack.procs["web"].pid), "web process")

    def _worker(self) -> str:
        main = self.stack.worker_main()
        return self._kill([main] if main else [], "worker main process")

    def _worker_child(self) -> str:
        main = self.stack.worker_main()
        return self._kill(children(main) if main else [], "worker pool process")

    def _database(self) -> str:
        import psycopg

        with psycopg.connect(self.stack.pg_admin, autocommit=True) as conn:
            row = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s "
                               "AND pid <> pg_backend_pid()", [self.stack.db_name]).fetchone()
        return f"pg_terminate_backend of {row[0] if row else 0} sessions"

    def _redis(self) -> str:
        self.redis.kill()
        self.redis.start()
        return f"SIGKILL redis-server, started again on port {self.redis.port}"


# --- the people -------------------------------------------------------------------------------------

class SoakPlayer(Player):
    """``bench/load.py``'s player, keeping what the server acknowledged and the matches it played."""

    def __init__(self, *args: Any, ledger: list[tuple[int, int, dict[str, Any]]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ledger = ledger
        self.matches: list[int] = []

    def acknowledged(self, body: dict[str, Any]) -> None:
        self.ledger.append((self.match_id, body["seq"], body))

    async def start(self) -> bool:
        for _ in range(5):  # a fault may strike the start too: try again, as a person would
            if await super().start():
                self.matches.append(self.match_id)
                return True
            await asyncio.sleep(1)
        return False


async def play(args: argparse.Namespace, stack: SoakStack, chaos: Chaos) -> dict[str, Any]:
    lo, hi = (float(x) for x in (args.think.split("-") + [args.think])[:2])
    figures, ledger = Figures(), []  # type: ignore[var-annotated]
    run_id = secrets.token_hex(3)
    bots = args.bots.split(",")
    seconds = args.minutes * 60
    schedule = fault_schedule(args.seed, seconds, args.fault_every, args.faults)
    limits = httpx.Limits(max_connections=args.people + 20, max_keepalive_connections=args.people + 20)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(30.0)) as http:
        players = [SoakPlayer(i, run_id, stack.url, http, (lo, hi), figures, random.Random(f"{args.seed}-{i}"),
                              bots[i % len(bots)], "socket", ledger=ledger) for i in range(args.people)]
        sem = asyncio.Semaphore(8)

        async def setup(p: SoakPlayer) -> bool:
            async with sem:
                return await p.sign_up() and await p.start()

        ready = [p for p, ok in zip(players, await asyncio.gather(*(setup(p) for p in players)), strict=True) if ok]
        t0 = chaos.t0 = time.monotonic()
        deadline = t0 + seconds

        async def faults() -> None:
            for at, kind in schedule:
                await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
                await asyncio.to_thread(chaos.strike, kind)

        striking = asyncio.create_task(faults())
        await asyncio.gather(*(p.play(deadline, rounds=10_000) for p in ready))
        striking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await striking
        wall = time.monotonic() - t0
        await asyncio.sleep(5)  # the bots' answers to the last cards
        replays = await _replays(http, stack.url, ready)
        ready_status = await _readyz(http, stack.url)
    return {"players": ready, "figures": figures, "ledger": ledger, "wall": wall, "replays": replays,
            "readyz": ready_status, "signed_up": len(ready)}


async def _replays(http: httpx.AsyncClient, base: str, players: list[SoakPlayer]) -> list[tuple[int, Any]]:
    """The replay of every finished match, as its player downloads it."""
    out = []
    for p in players:
        for match_id in p.matches:
            with contextlib.suppress(httpx.HTTPError):
                r = await http.get(f"{base}/api/matches/{match_id}/replay/", headers=p.headers)
                if r.status_code == 200:
                    out.append((match_id, r.json()))
    return out


async def _readyz(http: httpx.AsyncClient, base: str) -> int:
    """``/readyz`` (the database, Redis and a worker answer), asked for up to 30 s after the last fault."""
    status = 0
    for _ in range(30):
        with contextlib.suppress(httpx.HTTPError):
            status = (await http.get(f"{base}/readyz", timeout=10)).status_code
            if status == 200:
                return status
        await asyncio.sleep(1)
    return status


# --- the checks at the end --------------------------------------------------------------------------

def check_log(stack: SoakStack, ledger: list[tuple[int, int, dict[str, Any]]],
              current: list[int]) -> dict[str, Any]:
    """Every acknowledged action in the log as sent (lost: missing; changed: another action or not the player's);
    the matches whose turn has not moved for ``STUCK_SECONDS`` (a bot's turn anywhere, or a person's still played)."""
    import psycopg

    base = stack.pg_admin.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/{stack.db_name}") as conn:
        rows = conn.execute("SELECT a.match_id, a.seq, a.bid, a.card, a.made_by FROM games_action a").fetchall()
        stuck = conn.execute(
            "SELECT m.id FROM games_match m JOIN games_seat s ON s.match_id = m.id AND s.index = m.turn "
            "WHERE m.status = 'active' AND m.updated_at < now() - make_interval(secs => %s) "
            "AND (s.kind = 'bot' OR s.autopilot OR m.id = ANY(%s))", [STUCK_SECONDS, current]).fetchall()
    log = {(m, seq): (bid, card, made_by) for m, seq, bid, card, made_by in rows}
    lost = changed = 0
    for match_id, seq, body in ledger:
        found = log.get((match_id, seq))
        if found is None:
            lost += 1
        elif found != (body.get("bid"), body.get("card", ""), "player"):
            changed += 1
    return {"acknowledged": len(ledger), "lost": lost, "changed": changed, "stuck": sorted(r[0] for r in stuck)}


def verify(replays: list[tuple[int, Any]], folder: Path) -> dict[str, int]:
    """``python -m engine verify`` on every finished match's replay."""
    if not replays:
        return {"finished": 0, "verified": 0}
    for match_id, doc in replays:
        (folder / f"match-{match_id}.json").write_text(json.dumps(doc))
    done = subprocess.run([str(BIN / "python"), "-m", "engine", "verify", str(folder)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    return {"finished": len(replays), "verified": sum(line.startswith("OK") for line in done.stdout.splitlines())}


def waits_after_faults(waits: list[tuple[float, float, int]],
                       faults: list[Fault]) -> list[tuple[float, float, int, Fault]]:
    """The waits for one's turn that overlap a fault's first ``AFTER_FAULT_SECONDS``, each with the first such
    fault (the one it met)."""
    out = []
    for start, end, match_id in waits:
        near = [f for f in faults if start <= f.at + AFTER_FAULT_SECONDS and end >= f.at]
        if near:
            out.append((start, end, match_id, near[0]))
    return out


def report(args: argparse.Namespace, stack: SoakStack, chaos: Chaos, played: dict[str, Any],
           folder: Path) -> dict[str, Any]:
    figures: Figures = played["figures"]
    current = [p.match_id for p in played["players"] if p.match_id]
    logged = check_log(stack, played["ledger"], current)
    verified = verify(played["replays"], folder)
    around = waits_after_faults(figures.waits, chaos.done)
    after = [end - start for start, end, _, _ in around]
    levels = {m: p.bot for p in played["players"] for m in p.matches}
    slowest = sorted(around, key=lambda w: w[0] - w[1])[:3]
    errors_5xx = sum(n for key, n in figures.errors.items() if key[:1] == "5")
    worker_main = stack.worker_main()
    alive = (stack.procs["worker"].poll() is None and worker_main is not None and bool(children(worker_main))
             and played["readyz"] == 200)
    result = {
        "minutes": args.minutes, "people": played["signed_up"], "seed": args.seed, "seconds": round(played["wall"]),
        "faults": Counter(f.kind for f in chaos.done),
        "fault_log": [(round(f.at - chaos.t0, 1), f.kind, f.detail) for f in chaos.done],
        "slowest_after_fault": [
            {"seconds": round(end - start, 1), "from": round(start - chaos.t0, 1), "match": match_id,
             "bots": levels.get(match_id, "?"), "fault": fault.kind, "fault_at": round(fault.at - chaos.t0, 1)}
            for start, end, match_id, fault in slowest],
        **logged, "stuck": len(logged["stuck"]), "stuck_matches": logged["stuck"], **verified,
        "answers_5xx": errors_5xx, "other_errors": {k: n for k, n in figures.errors.items() if k[:1] != "5"},
        "closed_by_server": dict(figures.closed_by_server), "reconnects": figures.reconnects,
        "wait_after_fault_s": {"max": round(max(after, default=0.0), 2), "p95": round(_pct(after, 0.95), 2)
                               if after else 0.0, "n": len(after)},
        "wait_s": {"max": round(max((e - s for s, e, _ in figures.waits), default=0.0), 2),
                   "p95": round(_pct([e - s for s, e, _ in figures.waits], 0.95), 2) if figures.waits else 0.0},
        "worker_alive": alive, "readyz": played["readyz"], "load_average": os.getloadavg(),
    }
    result["goals"] = {
        "0 lost": result["lost"] == 0 and result["changed"] == 0,
        "0 stuck": result["stuck"] == 0,
        "0 5xx": errors_5xx == 0,
        "replays verify": result["verified"] == result["finished"],
        f"wait after a fault < {WAIT_GOAL_SECONDS} s": result["wait_after_fault_s"]["max"] < WAIT_GOAL_SECONDS,
        "worker alive": alive,
        "people played": result["people"] == args.people and result["acknowledged"] > 0,
    }
    return result


def text(result: dict[str, Any]) -> str:
    w, wa = result["wait_s"], result["wait_after_fault_s"]
    lines = [
        f"{result['people']} people for {result['seconds']} s (seed {result['seed']}); faults: "
        + (", ".join(f"{k} {n}" for k, n in sorted(result["faults"].items())) or "none"),
        f"acknowledged actions {result['acknowledged']}: lost {result['lost']}, changed {result['changed']}",
        f"finished matches {result['finished']}: replays verified {result['verified']}",
        f"matches stuck (turn unmoved > {STUCK_SECONDS} s): {result['stuck']} {result['stuck_matches'] or ''}",
        f"answers 5xx: {result['answers_5xx']}; other failed requests and socket actions: "
        f"{sum(result['other_errors'].values())} {result['other_errors'] or ''}; sockets closed by the server: "
        f"{sum(result['closed_by_server'].values())}, reconnects {result['reconnects']}",
        f"wait for one's turn around a fault: slowest {wa['max']:.1f} s, p95 {wa['p95']:.1f} s ({wa['n']} waits); "
        f"all: slowest {w['max']:.1f} s, p95 {w['p95']:.1f} s",
        f"worker alive at the end: {result['worker_alive']} (/readyz {result['readyz']}); load average "
        + " ".join(f"{x:.2f}" for x in result["load_average"]) + f" on {os.cpu_count()} CPUs",
    ]
    lines += [f"  {w['seconds']:.1f} s from {w['from']} s on match {w['match']} ({w['bots']} bots), after the "
              f"{w['fault']} fault at {w['fault_at']} s" for w in result["slowest_after_fault"]]
    lines += ["faults (seconds from the start):"]
    lines += [f"  {at:>6} s  {kind:<12} {detail}" for at, kind, detail in result["fault_log"]]
    lines += [f"{'ok  ' if ok else 'FAIL'} {goal}" for goal, ok in result["goals"].items()]
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=15.0, help="how long the people play (0.5..120)")
    parser.add_argument("--people", type=int, default=20, help="simulated people, each at a match of its own")
    parser.add_argument("--bots", default="normal,normal,normal,hard",
                        help="the bots' level of each person's matches, in turn (normal: the web's bot lane; hard: "
                             "the worker)")
    parser.add_argument("--think", default="0.5-2", help="a person's think time in seconds, a value or LO-HI")
    parser.add_argument("--fault-every", default="20-60", help="seconds between faults, LO-HI (drawn uniformly)")
    parser.add_argument("--faults", default=",".join(FAULTS), help="the kinds of fault drawn from, comma-separated")
    parser.add_argument("--seed", default="soak", help="the faults and the people's choices are drawn from it")
    parser.add_argument("--web", type=int, default=2, help="web processes")
    parser.add_argument("--workers", type=int, default=4, help="Celery worker processes")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--keep-db", action="store_true", help="keep the database after the run (to study it)")
    args = parser.parse_args(argv)
    if not 0.5 <= args.minutes <= 120:
        parser.error("--minutes is 0.5..120")
    if not 1 <= args.people <= 200:
        parser.error("--people is 1..200")
    try:
        lo, hi = (float(x) for x in args.fault_every.split("-"))
    except ValueError:
        parser.error("--fault-every is LO-HI, in seconds")
    if not 1 <= lo <= hi:
        parser.error("--fault-every: 1 <= LO <= HI")
    args.fault_every = (lo, hi)
    args.faults = tuple(args.faults.split(","))
    if not args.faults or not set(args.faults) <= set(FAULTS):
        parser.error(f"--faults: a comma-separated list of {', '.join(FAULTS)}")
    levels = {"easy", "normal", "hard"}
    if not set(args.bots.split(",")) <= levels:
        parser.error(f"--bots: a comma-separated list of {', '.join(sorted(levels))}")
    return args


def main() -> int:
    args = parse()
    folder = Path(tempfile.mkdtemp(prefix="callbreak-soak-"))
    redis = OwnRedis(folder)
    redis.start()
    stack = SoakStack(web=args.web, workers=args.workers, redis_base=redis.url, redis_db=0,
                      db_name=f"callbreak_soak_{os.getpid()}", logs=folder / "logs")
    chaos = Chaos(stack, redis, random.Random(f"{args.seed}-victims"))
    try:
        stack.start()
        print(f"soak: the stack is up on {stack.url}; logs in {stack.logs}", file=sys.stderr, flush=True)
        played = asyncio.run(play(args, stack, chaos))
        (folder / "replays").mkdir()
        result = report(args, stack, chaos, played, folder / "replays")
    finally:
        stack.stop(keep_db=args.keep_db)
        redis.stop()
    print(text(result))
    if args.json:
        print(json.dumps(result, default=str))
    return 0 if all(result["goals"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
