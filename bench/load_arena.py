"""The arena run (``bench/load.py --arena N``): N people join one running arena at the same moment and play in it
for ``--seconds`` at ``--think``; the arena seats them as they come free (bots after its wait). It measures each
time from "free" (joined, or one's match just ended) to "seated" (``/ws/me/`` says ``arena_seated``), which holds
the rules' own waits (a fourth person free, never the same four twice in a row, bots only after the wait), and the
server's part of it (its ``callbreak_arena_seat_delay_seconds``: from the moment the rules let a group sit), the
standings' delay after a match ends (from the first finished view a player sees on the match socket until the
standings socket of a few watchers shows that match counted), errors, and the machine's load."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import subprocess
import time
from collections import Counter
from typing import Any

import httpx
import websockets
from load_metrics import cpu_by_component, histogram_pct, pct, server_samples
from load_players import Figures, Player
from load_stack import BIN, ROOT, Stack

#: Standings sockets watching the arena (as people keep its page open), each timing every match counted.
WATCHERS = 4
#: A person free this long with no word of a seat asks the arena where they sit (the page follows the standings).
RESYNC_AFTER = 40.0

MAKE_ARENA = """
from datetime import timedelta
from django.utils import timezone
from games.models import Tournament
t = Tournament.objects.create(name="Load Arena", starts_at=timezone.now() - timedelta(seconds=1), minutes=%d,
                              rated=False)
print(t.pk)
"""


def make_arena(stack: Stack, minutes: int) -> int:
    """Staff's part: a running arena on the stack's database (``manage.py shell``)."""
    done = subprocess.run([str(BIN / "python"), "manage.py", "shell", "-c", MAKE_ARENA % minutes], cwd=ROOT,
                          env=stack.env(), check=True, capture_output=True, text=True)
    return int(done.stdout.split()[-1])


class Arena:
    """What the players and watchers share: when each match was first seen finished, and counted."""

    def __init__(self, arena_id: int) -> None:
        self.id = arena_id
        self.ended: dict[int, float] = {}
        self.counted: dict[int, float] = {}

    def saw_counted(self, standings: dict[str, Any]) -> None:
        now = time.monotonic()
        for row in standings.get("standings", []):
            for r in row["results"]:
                self.counted.setdefault(int(r["match_id"]), now)

    def delays(self) -> list[float]:
        return [self.counted[m] - t for m, t in self.ended.items() if m in self.counted]


class ArenaPlayer(Player):
    """One person: sign up, open ``/ws/me/``, join the arena, play each match it is seated at, until the end."""

    def __init__(self, arena: Arena, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arena = arena
        self.socket_open = asyncio.Event()
        self.seated = asyncio.Event()
        self.free_since = 0.0
        self.free_to_seated: list[float] = []  # the first from the join, the rest from a match's end
        self.join_seconds = float("nan")  # the join's own answer
        self.in_match = False  # playing one now (its end not seen yet on the match socket)
        self.next_match = 0  # the match the arena seated me at, not played yet
        self.seen: set[int] = set()
        self.by_resync = 0  # seats learnt by asking, not from /ws/me/

    def _seat(self, match_id: int) -> None:
        """The arena seated me (``/ws/me/``, or the join's answer). It may say so before my match socket showed my
        last match's end (the server counted it and seated me again first): that wait counts as none."""
        if not match_id or match_id in self.seen:
            return
        self.seen.add(match_id)
        self.free_to_seated.append(0.0 if self.in_match else time.monotonic() - self.free_since)
        self.next_match = match_id
        self.seated.set()

    async def account_socket(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/me/?token={self.token}"
        try:
            async with websockets.connect(url, origin=self.base, open_timeout=20) as ws:  # type: ignore[arg-type]
                self.socket_open.set()
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "arena_seated" and msg.get("tournament_id") == self.arena.id:
                        self._seat(int(msg["match_id"]))
            # a clean close ends the loop without an exception: no seat would come any more, so say so
            self.figures.errors["account socket closed by the server"] += 1
        except (websockets.ConnectionClosed, TimeoutError, OSError, websockets.InvalidHandshake) as err:
            self.figures.errors[f"account socket {type(err).__name__}"] += 1
            self.socket_open.set()

    async def join(self) -> None:
        self.free_since = time.monotonic()
        r = await self._call("POST", f"/api/tournaments/{self.arena.id}/join/")
        self.join_seconds = time.monotonic() - self.free_since
        if r is not None and r.status_code == 200:
            me = r.json().get("me") or {}
            if me.get("playing"):
                self._seat(int(me["playing"]))

    async def resync(self) -> None:
        """As the arena page does from its standings: ask where I sit now. A seat found this way was told on
        ``/ws/me/`` late or never: counted apart (``seated_by_resync``)."""
        r = await self._call("GET", f"/api/tournaments/{self.arena.id}/")
        if r is not None and r.status_code == 200:
            playing = (r.json().get("me") or {}).get("playing")
            if playing and int(playing) not in self.seen:
                self.by_resync += 1
                self._seat(int(playing))

    async def play_arena(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            try:  # seated within RESYNC_AFTER (bots come after 30 s), else ask, as the page's standings would
                await asyncio.wait_for(self.seated.wait(), timeout=max(0.1, min(RESYNC_AFTER,
                                                                                 deadline - time.monotonic())))
            except TimeoutError:
                if time.monotonic() >= deadline:
                    return
                await self.resync()
                continue
            self.seated.clear()
            self.match_id, self.view, self.done, self.in_match = self.next_match, {}, False, True
            r = await self._call("GET", f"/api/matches/{self.match_id}/")  # the table's first view, as the page
            if r is None or r.status_code != 200:
                return
            self._take(r.json())
            await self.play_one(deadline)
            if self.view.get("phase") == "finished":
                self.arena.ended.setdefault(self.match_id, time.monotonic())
            self.in_match = False
            self.free_since = time.monotonic()


async def watch(base: str, arena: Arena, errors: Counter[str], stop: asyncio.Event) -> None:
    url = base.replace("http", "ws", 1) + f"/ws/tournaments/{arena.id}/"
    try:
        async with websockets.connect(url, origin=base, open_timeout=20, max_size=2**24) as ws:  # type: ignore[arg-type]
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                if msg.get("type") == "standings":
                    arena.saw_counted(msg["tournament"])
    except (websockets.ConnectionClosed, OSError, websockets.InvalidHandshake) as err:
        errors[f"standings socket {type(err).__name__}"] += 1


async def run_arena(args: argparse.Namespace, base: str, stack: Stack | None) -> dict[str, Any]:
    if stack is None and not args.arena_id:
        raise SystemExit("--arena needs --start, or --arena-id of a running arena on --url")
    arena = Arena(args.arena_id)
    figures = Figures()
    lo, hi = (float(x) for x in (args.think.split("-") + [args.think])[:2])
    run_id = secrets.token_hex(3)
    limits = httpx.Limits(max_connections=args.arena + 20, max_keepalive_connections=args.arena + 20)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(60.0)) as http:
        people = [ArenaPlayer(arena, i, run_id, base, http, (lo, hi), figures, random.Random(f"{args.seed}-{i}"),
                              via=args.via) for i in range(args.arena)]
        sem = asyncio.Semaphore(8)

        async def setup(p: ArenaPlayer) -> bool:
            async with sem:
                return await p.sign_up()

        ready = [p for p, ok in zip(people, await asyncio.gather(*(setup(p) for p in people)), strict=True) if ok]
        if stack is not None:  # made once everyone has signed up, so its clock outlasts the run
            arena.id = make_arena(stack, max(15, int(args.seconds // 60) + 5))
        sockets = [asyncio.create_task(p.account_socket()) for p in ready]
        await asyncio.gather(*(p.socket_open.wait() for p in ready))
        stop = asyncio.Event()
        watchers = [asyncio.create_task(watch(base, arena, figures.errors, stop)) for _ in range(WATCHERS)]
        load_before = os.getloadavg()
        server0 = await server_samples(http, base, stack)
        cpu0, t0 = cpu_by_component(stack), time.monotonic()
        deadline = t0 + args.seconds
        await asyncio.gather(*(p.join() for p in ready))  # everyone at once
        await asyncio.gather(*(p.play_arena(deadline) for p in ready), return_exceptions=True)
        await asyncio.sleep(2)  # the last matches' standings
        wall = time.monotonic() - t0
        cpu1 = cpu_by_component(stack)
        load_after = os.getloadavg()
        server1 = await server_samples(http, base, stack)
        stop.set()
        for task in sockets:
            task.cancel()
        await asyncio.gather(*sockets, *watchers, return_exceptions=True)
    waits = [w for p in ready for w in p.free_to_seated]
    first = [p.free_to_seated[0] for p in ready if p.free_to_seated]
    again = [w for p in ready for w in p.free_to_seated[1:]]
    joins = [p.join_seconds for p in ready if p.join_seconds == p.join_seconds]
    delays = arena.delays()
    return {
        "arena": args.arena, "signed_up": len(ready), "seconds": round(wall, 1), "think": [lo, hi],
        "seatings": len(waits), "seated_by_resync": sum(p.by_resync for p in ready),
        "matches_ended": len(arena.ended), "matches_counted_seen": len(delays),
        "free_to_seated_s": {"p50": pct(waits, 0.5), "p95": pct(waits, 0.95), "max": max(waits, default=float("nan"))},
        "first_seat_s": {"p50": pct(first, 0.5), "p95": pct(first, 0.95), "max": max(first, default=float("nan"))},
        "seated_again_s": {"p50": pct(again, 0.5), "p95": pct(again, 0.95), "max": max(again, default=float("nan"))},
        "join_answer_s": {"p50": pct(joins, 0.5), "p95": pct(joins, 0.95), "max": max(joins, default=float("nan"))},
        "standings_delay_s": {"p50": pct(delays, 0.5), "p95": pct(delays, 0.95),
                              "max": max(delays, default=float("nan"))},
        # the server's own: from the moment the rules let a group sit until seated (the bucket's upper bound)
        "seatable_to_seated_s": {f"p{int(q * 100)}": histogram_pct(server0, server1,
                                                                   "callbreak_arena_seat_delay_seconds", q)
                                 for q in (0.5, 0.95, 0.99)},
        "human_actions": figures.human_actions, "errors": dict(figures.errors),
        "closed_by_server": dict(figures.closed_by_server), "web": args.web, "workers": args.workers,
        "cpu_pct_of_a_core": {k: round(100 * (cpu1[k] - cpu0.get(k, 0.0)) / wall) for k in cpu1},
        "load_average_before": load_before, "load_average": load_after,
    }


def _ppm(f: dict[str, float]) -> str:
    return f"{f['p50']:.1f} / {f['p95']:.1f} / {f['max']:.1f} s"


def arena_table(result: dict[str, Any]) -> str:
    s, d = result["free_to_seated_s"], result["standings_delay_s"]
    return "\n".join([
        "| people in one arena | web × worker processes | seconds, think | seatings "
        "| free → seated p50 / p95 / slowest | seats learnt by asking | matches ended "
        "| standings after a match's end p50 / p95 / slowest | errors |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {result['arena']} | {result['web']} × {result['workers']} | {result['seconds']:g}, "
        f"{result['think'][0]:g}–{result['think'][1]:g} s | {result['seatings']} "
        f"| {s['p50']:.1f} / {s['p95']:.1f} / {s['max']:.1f} s | {result['seated_by_resync']} "
        f"| {result['matches_ended']} "
        f"| {d['p50']:.2f} / {d['p95']:.2f} / {d['max']:.2f} s "
        f"| {sum(result['errors'].values())} {result['errors'] or ''} |",
        "",
        "Of those: the first seat, from the join's click (the join's own answer "
        + _ppm(result["join_answer_s"]) + "): " + _ppm(result["first_seat_s"]) + "; seated again after a match, "
        "from its end seen: " + _ppm(result["seated_again_s"]) + " (p50 / p95 / slowest)",
        "",
        "The server's own seat delay (from the moment the rules let a group sit: its fourth person free, or its "
        "first one's wait for bots over) p50 / p95 / p99: "
        + " / ".join(f"≤ {v:g}" for v in result["seatable_to_seated_s"].values()) + " s",
        "",
        "CPU, % of one core: " + ", ".join(f"{k} {v}" for k, v in result["cpu_pct_of_a_core"].items())
        + "; load average (1, 5, 15 min) before: " + " ".join(f"{x:.2f}" for x in result["load_average_before"])
        + ", after: " + " ".join(f"{x:.2f}" for x in result["load_average"]) + f" on {os.cpu_count()} CPUs",
    ])

