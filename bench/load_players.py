"""The crowd benchmark's people: a ``Player`` signs up, starts a match against three bots and plays it on the
match socket (or by REST), answering each turn after a think time; ``Figures`` gathers what they measured."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

PASSWORD = "load-test-password-9"


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
    # each wait for one's turn (monotonic start, end, the match): from a bid or card sent until the turn came back,
    # or until the action failed
    waits: list[tuple[float, float, int]] = field(default_factory=list)


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

    def acknowledged(self, body: dict[str, Any]) -> None:
        """The server took the action ``body`` (accepted on the socket, 200 on a POST): a hook for a subclass."""

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
        self.acknowledged(body)
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
        self.acknowledged(body)
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
                    self.figures.waits.append((t0, t1, self.match_id))
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
                self.figures.waits.append((t0, time.monotonic(), self.match_id))
            # the deadline came first: the actions of the match so far count too (a think-time run ends mid-match)
            self.figures.all_actions += self.view.get("seq", 0)
        finally:
            self.done = True
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # its end is not a result
                await listener
