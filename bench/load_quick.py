"""The quick-match run (``bench/load.py --quick N``): N people press *Play online* at the same moment; each one's
time until seated, the tables made and the machine's load, and the table printed of them."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import time
from collections import Counter
from typing import Any

import httpx
import websockets
from load_metrics import cpu_by_component, pct
from load_players import PASSWORD
from load_stack import Stack


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
        "seat_s": {"p50": pct(seated, 0.5), "p95": pct(seated, 0.95), "max": max(seated, default=float("nan"))},
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
