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
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
PASSWORD = "load-test-password-9"


# --- the stack ----------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stack:
    """The real stack on loopback, started and stopped by this script."""

    web: int
    workers: int
    pg_admin: str = "postgres://postgres@127.0.0.1:5432/postgres"
    redis_base: str = "redis://127.0.0.1:6379"
    port: int = field(default_factory=_free_port)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    db_name: str = field(default_factory=lambda: f"callbreak_load_{os.getpid()}")
    redis_db: int = field(default_factory=lambda: int(os.environ.get("LOAD_REDIS_DB", "15")))
    logs: Path = field(default_factory=lambda: Path(f"/tmp/callbreak-load-{os.getpid()}"))
    worker_metrics_port: int = field(default_factory=_free_port)
    bots_after: float = 20.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        base = self.pg_admin.rsplit("/", 1)[0]
        return {
            "QUICK_MATCH_BOTS_AFTER": str(self.bots_after),
            **os.environ,
            "DATABASE_URL": f"{base}/{self.db_name}",
            "REDIS_URL": f"{self.redis_base}/{self.redis_db}",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "BOT_DELAY_SECONDS": "0",
            "HTTPS": "0",
            # every simulated person signs up from 127.0.0.1: the per-address sign-up limit is for the internet
            "RATE_LIMIT_SIGNUP": "100000/hour",
            # at think time 0 a simulated person acts faster than any person can (8 a second and more): the
            # per-person limits on actions and API calls (5 a second sustained) would throttle the benchmark itself
            "RATE_LIMIT_ACTION": "1000/s",
            "RATE_LIMIT_ACTION_SUSTAINED": "100000/min",
            "RATE_LIMIT_API": "100000/min",
            "WEB_CONCURRENCY": str(self.web),
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "LOG_LEVEL": "WARNING",
            "WORKER_METRICS_PORT": str(self.worker_metrics_port),
        }

    def _psql(self, sql: str) -> None:
        subprocess.run(["psql", self.pg_admin, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True,
                       stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}"')
        self._psql(f'CREATE DATABASE "{self.db_name}"')
        subprocess.run(["redis-cli", "-n", str(self.redis_db), "FLUSHDB"], check=True, stdout=subprocess.DEVNULL)
        env = self.env()
        subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        subprocess.run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                       env=env, check=True)
        commands = {
            "web": [str(BIN / "gunicorn"), "-c", "callbreak_site/gunicorn_conf.py", "callbreak_site.asgi:application"],
            "worker": [str(BIN / "celery"), "-A", "callbreak_site", "worker", "-l", "warning",
                       "-c", str(self.workers), "-n", f"load{os.getpid()}@%h"],
            "beat": [str(BIN / "celery"), "-A", "callbreak_site", "beat", "-l", "warning",
                     "--schedule", str(self.logs / "beat-schedule")],
        }
        for name, cmd in commands.items():
            log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
            metrics_dir = self.logs / f"metrics-{name}"  # each process tree adds up its processes' samples
            shutil.rmtree(metrics_dir, ignore_errors=True)
            metrics_dir.mkdir()
            proc_env = {**env, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
            self.procs[name] = subprocess.Popen(cmd, cwd=ROOT, env=proc_env, stdout=log, stderr=subprocess.STDOUT,
                                                start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/leaderboard/", timeout=2).status_code in (200, 401, 403):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise SystemExit(f"the server did not come up; see {self.logs}/web.log")

    def stop(self, keep_db: bool = False) -> None:
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        if keep_db:
            print(f"database kept: {self.db_name}", file=sys.stderr)
            return
        try:
            self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        except subprocess.CalledProcessError:
            print(f"could not drop the database {self.db_name}", file=sys.stderr)


# --- CPU per component ----------------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _proc_table() -> dict[int, tuple[int, str, float]]:
    """pid -> (parent pid, command name, CPU seconds so far)."""
    table: dict[int, tuple[int, str, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2:].split()
        table[int(entry)] = (int(fields[1]), name, (int(fields[11]) + int(fields[12])) / TICKS)
    return table


def _tree(table: dict[int, tuple[int, str, float]], root: int) -> set[int]:
    members, changed = {root}, True
    while changed:
        changed = False
        for pid, (ppid, _, _) in table.items():
            if ppid in members and pid not in members:
                members.add(pid)
                changed = True
    return members


def cpu_by_component(stack: Stack | None) -> dict[str, float]:
    """CPU seconds used so far by each component (process trees of the stack; the database and Redis
    servers by process name)."""
    table = _proc_table()
    out: dict[str, float] = {}
    if stack is not None:
        for name, proc in stack.procs.items():
            out[name] = sum(table[p][2] for p in _tree(table, proc.pid) if p in table)
    out["postgres"] = sum(t for _, n, t in table.values() if n.startswith("postgres"))
    out["redis"] = sum(t for _, n, t in table.values() if n.startswith("redis-server"))
    me = table.get(os.getpid())
    out["load client"] = me[2] if me else 0.0
    return out


# --- the players ----------------------------------------------------------------------------------

@dataclass
class Figures:
    action_ms: list[float] = field(default_factory=list)
    reply_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    closed_by_server: Counter[int] = field(default_factory=Counter)
    reconnects: int = 0
    human_actions: int = 0
    all_actions: int = 0
    finished: int = 0
    signup_ms: list[float] = field(default_factory=list)
    start_ms: list[float] = field(default_factory=list)


class Player:
    """One person: sign up, start a match, play it to the end on the match socket (or by REST, ``via``)."""

    def __init__(self, index: int, run: str, base: str, http: httpx.AsyncClient, think: tuple[float, float],
                 figures: Figures, rng: random.Random, bot: str = "normal", via: str = "socket") -> None:
        self.name = f"load{run}x{index}"
        self.via = via
        self.ws: Any = None  # the open match socket, when there is one
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}  # my actions on the socket, by ref
        self.next_ref = 1
        self.bot = bot
        self.base = base
        self.http = http
        self.think = think
        self.figures = figures
        self.rng = rng
        self.token = ""
        self.match_id = 0
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.done = False

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}"}

    async def _call(self, method: str, path: str, body: Any = None) -> httpx.Response | None:
        try:
            r = await self.http.request(method, f"{self.base}{path}", json=body,
                                        headers=self.headers if self.token else None)
        except httpx.HTTPError as err:
            self.figures.errors[type(err).__name__] += 1
            return None
        if r.status_code >= 300:
            code = r.json().get("code", "?") if r.headers.get("content-type", "").startswith("application/json") \
                else "?"
            self.figures.errors[f"{r.status_code} {code}"] += 1
        return r

    def _take(self, view: dict[str, Any]) -> None:
        if not self.view or view["seq"] >= self.view["seq"]:
            self.view = view
            self.changed.set()

    async def sign_up(self) -> bool:
        t0 = time.monotonic()
        r = await self._call("POST", "/api/auth/signup/", {"username": self.name, "password": PASSWORD})
        if r is None or r.status_code != 201:
            return False
        self.figures.signup_ms.append((time.monotonic() - t0) * 1000)
        self.token = r.json()["token"]
        return True

    async def start(self) -> bool:
        t0 = time.monotonic()
        r = await self._call("POST", "/api/matches/", {"opponents": "bots", "bot": self.bot})
        if r is None or r.status_code != 201:
            return False
        self.figures.start_ms.append((time.monotonic() - t0) * 1000)
        view = r.json()
        self.match_id = view["id"]
        self.view = {}  # a new match: its views start again at seq 0
        self._take(view)
        return True

    async def listen(self) -> None:
        """The match socket: every view it sends; reconnect and resync when the server closes it."""
        ws_url = self.base.replace("http", "ws", 1) + f"/ws/matches/{self.match_id}/?token={self.token}"
        origin = self.base
        while not self.done:
            try:
                async with websockets.connect(ws_url, origin=origin, open_timeout=20,  # type: ignore[arg-type]
                                              max_size=2**20) as ws:
                    self.ws = ws
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg.get("type") == "match":
                            self._take(msg["match"])
                        elif msg.get("ref") in self.answers:
                            future = self.answers.pop(msg["ref"])
                            if not future.done():
                                future.set_result(msg)
                        if self.done:
                            return
            except websockets.ConnectionClosed as closed:
                if self.done:
                    return
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                self.figures.closed_by_server[code] += 1
            except (TimeoutError, OSError, websockets.InvalidHandshake) as err:
                self.figures.errors[f"socket {type(err).__name__}"] += 1
            self.ws = None
            for future in self.answers.values():  # no answer comes on a closed socket
                if not future.done():
                    future.set_result({"type": "error", "code": "socket closed"})
            self.answers.clear()
            if self.done:
                return
            self.figures.reconnects += 1
            await asyncio.sleep(0.5)
            r = await self._call("GET", f"/api/matches/{self.match_id}/")  # resync by seq
            if r is not None and r.status_code == 200:
                self._take(r.json())

    def _choose(self) -> dict[str, Any]:
        legal = self.view["legal"]
        if self.view["phase"] == "bidding":
            return {"seq": self.view["seq"], "bid": self.rng.choice([b for b in legal if b <= 5] or legal)}
        return {"seq": self.view["seq"], "card": self.rng.choice(legal)}

    async def _act_by_post(self, body: dict[str, Any]) -> bool:
        r = await self._call("POST", f"/api/matches/{self.match_id}/actions/", body)
        if r is None or r.status_code != 200:
            return False
        self._take(r.json())
        return True

    async def _act_on_socket(self, body: dict[str, Any]) -> bool:
        """Send on the match socket, as the table page does; True once ``accepted`` (its view follows)."""
        ref = self.next_ref
        self.next_ref += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[ref] = future
        try:
            await self.ws.send(json.dumps({**body, "ref": ref}))
            answer = await asyncio.wait_for(future, timeout=30)
        except (TimeoutError, websockets.ConnectionClosed, AttributeError) as err:
            self.answers.pop(ref, None)
            self.figures.errors[f"socket action {type(err).__name__}"] += 1
            return False
        if answer.get("type") != "accepted":
            self.figures.errors[f"socket {answer.get('code', '?')}"] += 1
            return False
        while self.view.get("seq", -1) < answer["seq"]:  # its view is the socket's next message
            self.changed.clear()
            if self.view.get("seq", -1) >= answer["seq"]:
                break
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=30)
            except TimeoutError:
                self.figures.errors["socket view after accepted"] += 1
                return False
        return True

    async def play(self, deadline: float, rounds: int = 1) -> None:
        """Play ``rounds`` matches one after the other (a new one started as soon as the last ends)."""
        for round_ in range(rounds):
            if round_ and (time.monotonic() >= deadline or not await self.start()):
                return
            self.done = False
            await self.play_one(deadline)

    async def play_one(self, deadline: float) -> None:
        self.ws = None
        listener = asyncio.create_task(self.listen())
        if self.via == "socket":  # wait for the socket before the first action, as the page shows the table
            for _ in range(200):
                if self.ws is not None:
                    break
                await asyncio.sleep(0.05)
        try:
            while time.monotonic() < deadline:
                view = self.view
                if view.get("phase") == "finished" or view.get("status") != "active":
                    self.figures.finished += view.get("phase") == "finished"
                    self.figures.all_actions += view.get("seq", 0)
                    return
                if not view.get("your_turn"):
                    self.changed.clear()
                    try:
                        await asyncio.wait_for(self.changed.wait(), timeout=15)
                    except TimeoutError:  # silent socket: resync by seq
                        r = await self._call("GET", f"/api/matches/{self.match_id}/")
                        if r is not None and r.status_code == 200:
                            self._take(r.json())
                    continue
                await asyncio.sleep(self.rng.uniform(*self.think))
                body = self._choose()
                t0 = time.monotonic()
                ok = await (self._act_on_socket(body) if self.via == "socket" and self.ws is not None
                            else self._act_by_post(body))
                t1 = time.monotonic()
                if not ok:
                    r2 = await self._call("GET", f"/api/matches/{self.match_id}/")
                    if r2 is not None and r2.status_code == 200:
                        self._take(r2.json())
                    continue
                self.figures.action_ms.append((t1 - t0) * 1000)
                self.figures.human_actions += 1
                # the bots' reply: until the socket (or the answer) shows my turn again, or the end
                while not (self.view.get("your_turn") or self.view.get("phase") == "finished"):
                    self.changed.clear()
                    if self.view.get("your_turn") or self.view.get("phase") == "finished":
                        break
                    try:
                        await asyncio.wait_for(self.changed.wait(), timeout=max(0.1, deadline - time.monotonic()))
                    except TimeoutError:
                        break
                self.figures.reply_ms.append((time.monotonic() - t1) * 1000)
            # the deadline came first: the actions of the match so far count too (a think-time run ends mid-match)
            self.figures.all_actions += self.view.get("seq", 0)
        finally:
            self.done = True
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # its end is not a result
                await listener


# --- the server's own histograms (games.metrics), read from /metrics before and after the play ------

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _parse(text: str) -> Samples:
    out: Samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        name, _, rest = head.partition("{")
        labels = tuple(sorted(tuple(kv.split("=", 1)) for kv in rest.rstrip("}").split('",') if kv)) if rest else ()
        labels = tuple((k, v.strip('"')) for k, v in labels)
        out[(name, labels)] = out.get((name, labels), 0.0) + float(value)
    return out


async def server_samples(http: httpx.AsyncClient, base: str, stack: Stack | None) -> Samples:
    """The web processes' and (with ``--start``) the worker's metrics now; empty when they do not answer."""
    out: Samples = {}
    urls = [f"{base}/metrics"] + ([f"http://127.0.0.1:{stack.worker_metrics_port}/"] if stack else [])
    for url in urls:
        try:
            r = await http.get(url, timeout=10)
        except httpx.HTTPError:
            continue
        if r.status_code == 200:
            for key, value in _parse(r.text).items():
                out[key] = out.get(key, 0.0) + value
    return out


def _histogram_pct(before: Samples, after: Samples, name: str, q: float, **labels: str) -> float:
    """The ``q`` quantile of a histogram's observations between two scrapes (the upper bound of its bucket)."""
    buckets: dict[float, float] = {}
    for (metric, labs), value in after.items():
        if metric != f"{name}_bucket":
            continue
        lab = dict(labs)
        if any(lab.get(k) != v for k, v in labels.items()):
            continue
        le = float("inf") if lab["le"] == "+Inf" else float(lab["le"])
        buckets[le] = buckets.get(le, 0.0) + value - before.get((metric, labs), 0.0)
    if not buckets or buckets[max(buckets)] <= 0:
        return float("nan")
    total = buckets[max(buckets)]
    for le in sorted(buckets):
        if buckets[le] >= q * total:
            return le
    return float("inf")


def server_figures(before: Samples, after: Samples, via: str) -> dict[str, Any]:
    """The server's time per action (socket actions, or the REST action route) and the bots' reply, in ms."""
    if via == "socket":
        action = ("callbreak_socket_action_seconds", {"outcome": "accepted"})
    else:
        action = ("callbreak_http_request_seconds", {"route": "api/matches/<int:match_id>/actions/",
                                                      "status": "2xx"})
    out: dict[str, Any] = {}
    for key, (name, labels) in {"action_ms": action, "reply_ms": ("callbreak_bot_reply_seconds", {})}.items():
        out[key] = {f"p{int(q * 100)}": 1000 * _histogram_pct(before, after, name, q, **labels)
                    for q in (0.5, 0.95, 0.99)}
    return out


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace, base: str, stack: Stack | None) -> dict[str, Any]:
    lo, hi = (float(x) for x in (args.think.split("-") + [args.think])[:2])
    figures = Figures()
    load_before = os.getloadavg()[0]
    run_id = secrets.token_hex(3)
    limits = httpx.Limits(max_connections=args.matches + 20, max_keepalive_connections=args.matches + 20)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(30.0)) as http:
        players = [Player(i, run_id, base, http, (lo, hi), figures, random.Random(f"{args.seed}-{i}"),
                          args.bot, args.via)
                   for i in range(args.matches)]
        # sign up and start: a few at a time, or (--burst) everyone at the same moment
        sem = asyncio.Semaphore(len(players) if args.burst else 8)
        go = asyncio.Event()

        async def setup(p: Player) -> bool:
            await go.wait()
            async with sem:
                return await p.sign_up() and await p.start()

        tasks = [asyncio.create_task(setup(p)) for p in players]
        await asyncio.sleep(0.1)  # every task waits at the line
        burst_t0 = time.monotonic()
        go.set()
        ok = await asyncio.gather(*tasks)
        burst_s = time.monotonic() - burst_t0
        burst_errors = dict(figures.errors)
        ready = [p for p, good in zip(players, ok, strict=True) if good]
        server0 = await server_samples(http, base, stack)
        cpu0, t0 = cpu_by_component(stack), time.monotonic()
        deadline = t0 + args.timeout
        await asyncio.gather(*(p.play(deadline, args.rounds) for p in ready))
        wall = time.monotonic() - t0
        cpu1 = cpu_by_component(stack)
        server1 = await server_samples(http, base, stack)
    cpu = {name: round(100 * (cpu1[name] - cpu0.get(name, 0.0)) / wall) for name in cpu1}
    server_cpu_s = sum(cpu1[name] - cpu0.get(name, 0.0) for name in cpu1 if name not in ("load client",))
    return {
        "via": args.via, "server": server_figures(server0, server1, args.via),
        "matches": args.matches, "bot": args.bot, "started": len(ready), "finished": figures.finished,
        "think": args.think, "rounds": args.rounds, "web": args.web, "workers": args.workers, "seconds": round(wall, 1),
        "action_ms": {"p50": _pct(figures.action_ms, 0.5), "p95": _pct(figures.action_ms, 0.95),
                      "p99": _pct(figures.action_ms, 0.99), "n": len(figures.action_ms)},
        "reply_ms": {"p50": _pct(figures.reply_ms, 0.5), "p95": _pct(figures.reply_ms, 0.95),
                     "p99": _pct(figures.reply_ms, 0.99), "n": len(figures.reply_ms)},
        "human_actions_per_s": round(figures.human_actions / wall, 1),
        # every process of the site (web, worker, beat, PostgreSQL, Redis) per person's action, bots' answers included
        "cpu_ms_per_human_action": round(1000 * server_cpu_s / figures.human_actions, 1) if figures.human_actions
        else None,
        "all_actions_per_s": round(figures.all_actions / wall, 1),
        "errors": dict(figures.errors), "closed_by_server": dict(figures.closed_by_server),
        "reconnects": figures.reconnects, "cpu_pct_of_a_core": cpu,
        "mean_action_ms": round(statistics.fmean(figures.action_ms), 1) if figures.action_ms else None,
        "load_average": os.getloadavg()[0], "load_average_before": load_before,
        "burst": args.burst, "all_in_s": round(burst_s, 1), "setup_errors": burst_errors,
        "signup_ms": {"p50": _pct(figures.signup_ms, 0.5), "p95": _pct(figures.signup_ms, 0.95),
                      "max": max(figures.signup_ms, default=float("nan")), "n": len(figures.signup_ms)},
        "start_ms": {"p50": _pct(figures.start_ms, 0.5), "p95": _pct(figures.start_ms, 0.95),
                     "max": max(figures.start_ms, default=float("nan")), "n": len(figures.start_ms)},
    }


# --- quick match: N people press Play online at once ------------------------------------------------

class Seeker:
    """One person: sign up, open /ws/me/, press Play online, wait for ``matched``."""

    def __init__(self, index: int, run: str, base: str, http: httpx.AsyncClient, errors: Counter[str]) -> None:
        self.name = f"quick{run}x{index}"
        self.base, self.http, self.errors = base, http, errors
        self.token = ""
        self.socket_open = asyncio.Event()
        self.matched = asyncio.Event()
        self.match_id = 0
        self.pressed = 0.0
        self.seated_s = float("nan")

    async def sign_up(self) -> bool:
        try:
            r = await self.http.post(f"{self.base}/api/auth/signup/", json={"username": self.name,
                                                                            "password": PASSWORD})
        except httpx.HTTPError as err:
            self.errors[f"sign-up {type(err).__name__}"] += 1
            return False
        if r.status_code != 201:
            self.errors[f"sign-up {r.status_code}"] += 1
            return False
        self.token = r.json()["token"]
        return True

    def _seated(self, match_id: int) -> None:
        if not self.matched.is_set():
            self.match_id = match_id
            self.seated_s = time.monotonic() - self.pressed
            self.matched.set()

    async def listen(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/me/?token={self.token}"
        try:
            async with websockets.connect(url, origin=self.base, open_timeout=20) as ws:  # type: ignore[arg-type]
                self.socket_open.set()
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "matched" and self.pressed:
                        self._seated(int(msg["match_id"]))
                        return
        except (websockets.ConnectionClosed, TimeoutError, OSError, websockets.InvalidHandshake) as err:
            self.errors[f"socket {type(err).__name__}"] += 1
            self.socket_open.set()

    async def press(self) -> None:
        self.pressed = time.monotonic()
        try:
            r = await self.http.post(f"{self.base}/api/quick-match/", json={"pace": "live", "rated": False},
                                     headers={"Authorization": f"Token {self.token}"})
        except httpx.HTTPError as err:
            self.errors[f"press {type(err).__name__}"] += 1
            return
        if r.status_code != 201:
            self.errors[f"press {r.status_code}"] += 1
            return
        seek = r.json()
        if seek["status"] == "matched":
            self._seated(int(seek["match_id"]))


async def run_quick(args: argparse.Namespace, base: str, stack: Stack | None) -> dict[str, Any]:
    errors: Counter[str] = Counter()
    run_id = secrets.token_hex(3)
    limits = httpx.Limits(max_connections=args.quick + 20, max_keepalive_connections=args.quick + 20)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(60.0)) as http:
        people = [Seeker(i, run_id, base, http, errors) for i in range(args.quick)]
        sem = asyncio.Semaphore(8)

        async def setup(p: Seeker) -> bool:
            async with sem:
                return await p.sign_up()

        ready = [p for p, ok in zip(people, await asyncio.gather(*(setup(p) for p in people)), strict=True) if ok]
        listeners = [asyncio.create_task(p.listen()) for p in ready]
        await asyncio.gather(*(p.socket_open.wait() for p in ready))
        load_before = os.getloadavg()
        cpu0, t0 = cpu_by_component(stack), time.monotonic()
        await asyncio.gather(*(p.press() for p in ready))  # everyone at once
        limit = args.bots_after + 5
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(p.matched.wait() for p in ready)), timeout=limit + 30)
        wall = time.monotonic() - t0
        cpu1 = cpu_by_component(stack)
        load_after = os.getloadavg()
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    seated = [p.seated_s for p in ready if p.matched.is_set()]
    tables = Counter(p.match_id for p in ready if p.matched.is_set())
    return {
        "quick": args.quick, "signed_up": len(ready), "seated": len(seated), "bots_after": args.bots_after,
        "within_limit": sum(1 for s in seated if s <= limit), "limit_s": limit,
        "seat_s": {"p50": _pct(seated, 0.5), "p95": _pct(seated, 0.95), "max": max(seated, default=float("nan"))},
        "tables": len(tables), "people_per_table": dict(sorted(Counter(tables.values()).items())),
        "errors": dict(errors), "seconds": round(wall, 1), "web": args.web, "workers": args.workers,
        "cpu_pct_of_a_core": {k: round(100 * (cpu1[k] - cpu0.get(k, 0.0)) / wall) for k in cpu1},
        "load_average_before": load_before, "load_average": load_after,
    }


def quick_table(result: dict[str, Any]) -> str:
    s = result["seat_s"]
    per = ", ".join(f"{n} at {k} people" for k, n in result["people_per_table"].items())
    return "\n".join([
        "| people pressing at once | web × worker processes | bots after | seated | within the wait + 5 s "
        "| time to a seat p50 / p95 / slowest | tables | errors |",
        "|---|---|---|---|---|---|---|---|",
        f"| {result['quick']} | {result['web']} × {result['workers']} | {result['bots_after']:g} s "
        f"| {result['seated']}/{result['signed_up']} | {result['within_limit']}/{result['signed_up']} "
        f"| {s['p50']:.1f} / {s['p95']:.1f} / {s['max']:.1f} s | {result['tables']} ({per}) "
        f"| {sum(result['errors'].values())} {result['errors'] or ''} |",
        "",
        "CPU, % of one core: " + ", ".join(f"{k} {v}" for k, v in result["cpu_pct_of_a_core"].items())
        + "; load average (1, 5, 15 min) before: " + " ".join(f"{x:.2f}" for x in result["load_average_before"])
        + ", after: " + " ".join(f"{x:.2f}" for x in result["load_average"]) + f" on {os.cpu_count()} CPUs",
    ])


def _ms(value: float) -> str:
    return "?" if value != value else f"{value:.0f}"  # NaN: nothing observed


def table(result: dict[str, Any]) -> str:
    a, r = result["action_ms"], result["reply_ms"]
    sa, sr = result["server"]["action_ms"], result["server"]["reply_ms"]
    lines = [
        "| concurrent matches | think time | web × worker processes | action p50 / p95 / p99 "
        "| bots' reply p50 / p95 / p99 | human actions/s | all actions/s | finished | errors | closed by server |",
        "|---|---|---|---|---|---|---|---|---|---|",
        f"| {result['matches']} | {result['think']} s | {result['web']} × {result['workers']} "
        f"| {a['p50']:.0f} / {a['p95']:.0f} / {a['p99']:.0f} ms "
        f"| {r['p50'] / 1000:.2f} / {r['p95'] / 1000:.2f} / {r['p99'] / 1000:.2f} s "
        f"| {result['human_actions_per_s']} | {result['all_actions_per_s']} "
        f"| {result['finished']}/{result['matches'] * result['rounds']} | {sum(result['errors'].values())} "
        f"| {sum(result['closed_by_server'].values())} |",
        "",
        f"actions sent by {result['via']}; the server's own histograms (upper bounds of their buckets): action "
        f"p50 / p95 / p99 <= {_ms(sa['p50'])} / {_ms(sa['p95'])} / {_ms(sa['p99'])} ms, bots' reply <= "
        f"{_ms(sr['p50'])} / {_ms(sr['p95'])} / {_ms(sr['p99'])} ms",
        "",
        "CPU, % of one core: " + ", ".join(f"{k} {v}" for k, v in result["cpu_pct_of_a_core"].items())
        + f"; machine load average before / at the end: {result['load_average_before']:.1f} / "
        f"{result['load_average']:.1f} on {os.cpu_count()} CPUs",
        f"CPU of the whole site (web, worker, beat, PostgreSQL, Redis) per person's action, its bots' answers "
        f"included: {result['cpu_ms_per_human_action']} ms",
    ]
    su, st = result["signup_ms"], result["start_ms"]
    lines += [
        "",
        f"{'burst (all at once)' if result['burst'] else 'eight at a time'}: {result['started']}/{result['matches']}"
        f" signed up and started, the last {result['all_in_s']} s after the first began; sign-up p50 / p95 / "
        f"slowest {su['p50']:.0f} / {su['p95']:.0f} / {su['max']:.0f} ms; start {st['p50']:.0f} / {st['p95']:.0f} / "
        f"{st['max']:.0f} ms; errors then: {sum(result['setup_errors'].values())} {result['setup_errors'] or ''}",
    ]
    if result["errors"] or result["closed_by_server"]:
        lines.append(f"errors: {result['errors']}; closed by server: {result['closed_by_server']}; "
                     f"reconnects: {result['reconnects']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10, help="concurrent matches (people), 1..500")
    parser.add_argument("--think", default="0", help="think time in seconds, a value or a range LO-HI")
    parser.add_argument("--start", action="store_true", help="start the real stack on loopback, stop it after")
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
    args = parser.parse_args()
    if not 1 <= args.matches <= 500:
        parser.error("--matches is 1..500")
    if args.quick and not 1 <= args.quick <= 500:
        parser.error("--quick is 1..500")
    stack = None
    base = args.url.rstrip("/")
    if args.start:
        stack = Stack(web=args.web, workers=args.workers, bots_after=args.bots_after)
        stack.start()
        base = stack.url
    elif urlparse(base).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("--url must be on this machine (loopback)")
    try:
        result = asyncio.run((run_quick if args.quick else run)(args, base, stack))
    finally:
        if stack is not None:
            stack.stop(keep_db=args.keep_db)
    print(quick_table(result) if args.quick else table(result))
    if args.json:
        print(json.dumps(result))
    if args.quick:
        return 0 if result["within_limit"] == result["quick"] and not result["errors"] else 1
    return 0 if not result["errors"] and not result["closed_by_server"] else 1


if __name__ == "__main__":
    sys.exit(main())
