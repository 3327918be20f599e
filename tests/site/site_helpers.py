"""Shared helpers: play legal moves, find cards in JSON, check a message leaks nothing, log in a browser or
a socket, start a two-person correspondence match."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.test import Client
from rest_framework.test import APIClient

import engine

if TYPE_CHECKING:
    from channels.testing import WebsocketCommunicator

PASSWORD = "correct-horse-battery-9"
ORIGIN = (b"origin", b"http://testserver")
CARD_RE = re.compile(r"^[2-9TJQKA][SHDC]$")


def cards_in(obj: Any) -> set[str]:
    """Every string in ``obj`` (values and dict keys) that is a card."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, str) and CARD_RE.match(k):
                found.add(k)
            found |= cards_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= cards_in(v)
    elif isinstance(obj, str) and CARD_RE.match(obj):
        found.add(obj)
    return found


def hidden_cards(state: engine.MatchState, seat: int) -> set[str]:
    """The cards another seat still holds in ``state``: what ``seat`` must never be shown."""
    out: set[str] = set()
    for other in range(4):
        if other != seat:
            out |= set(engine.player_view(state, other).to_json()["hand"])
    return out


def _without_previous_deal(message: Any) -> Any:
    """Drop ``last_trick`` where it is the previous deal's, and a socket message's ``actions`` played before
    its view's deal began (their cards are back in play this deal)."""
    if not isinstance(message, dict):
        return message
    out = {k: _without_previous_deal(v) for k, v in message.items()}
    if "last_trick" in out and "tricks" in out:
        if out["tricks"]:
            assert out["last_trick"] == out["tricks"][-1]
        out.pop("last_trick")
    view = out.get("match")
    if isinstance(out.get("actions"), list) and isinstance(view, dict) and view.get("phase") != "finished":
        this_deal = (sum(b is not None for b in view["bids"]) + 4 * len(view["tricks"])
                     + len(view["trick"]["plays"]))
        out["actions"] = out["actions"][len(out["actions"]) - this_deal:] if this_deal else []
    return out


def assert_no_leak(message: Any, state: engine.MatchState, seat: int, seed: str) -> None:
    """``message`` was sent to ``seat`` when the match was at ``state``."""
    leaked = cards_in(_without_previous_deal(message)) & hidden_cards(state, seat)
    assert not leaked, f"seat {seat} was shown other seats' cards {sorted(leaked)}"
    if not state.is_finished:
        assert seed not in json.dumps(message), "the seed was shown before the end"


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action for the seat whose view this is, as an API body."""
    legal = view["legal"]
    assert legal, "asked to move when nothing is legal"
    move = rng.choice(legal)
    key = "bid" if view["phase"] == "bidding" else "card"
    return {"seq": view["seq"], key: move}


def token_for(user: Any) -> str:
    """A new API token of ``user`` (one more client), its key."""
    from games.accounts.commands import issue_token

    return issue_token(user, "tests")[1]


def client_for(user: Any) -> APIClient:
    """An API client authenticated by a token of its own."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def browser(user: Any, lang: str = "en") -> Client:
    """A Django test client logged in as ``user`` with ``lang`` chosen."""
    c = Client()
    assert c.login(username=user.username, password=PASSWORD)
    c.cookies["django_language"] = lang
    return c


async def ws(path: str, user: Any) -> WebsocketCommunicator:
    """A WebSocket on ``path`` authenticated by the user's token, connected."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from callbreak_site.asgi import application

    key = await database_sync_to_async(token_for)(user)
    comm = WebsocketCommunicator(application, f"{path}?token={key}", headers=[ORIGIN])
    connected, code = await comm.connect()
    assert connected, code
    return comm


async def next_of(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    """The next message of ``kind`` on a socket (views and the like in between are skipped)."""
    while True:
        msg: dict[str, Any] = await comm.receive_json_from(timeout=timeout)
        if msg.get("type") == kind:
            return msg


async def nothing_of(comm: WebsocketCommunicator, kind: str) -> bool:
    """True when no message of ``kind`` waits before a resync's view: the in-memory layer delivers in order, so
    a group message sent before the probe reaches the socket before the probe's answer (messages a resync sends
    after its view, such as the chat history, are read off here too)."""
    await comm.send_json_to({"type": "resync"})
    while True:
        msg = await comm.receive_json_from(timeout=5)
        if msg.get("type") == kind:
            return False
        if msg.get("type") == "match":
            return True


def two_people(make_user: Any, move_seconds: int = 3600) -> tuple[Any, Any, Any]:
    """A correspondence match of amy (seat 0) and bo (seat 2) with two random bots."""
    from games.matches import commands

    a, b = make_user("amy", email="amy@example.com"), make_user("bo", email="bo@example.com")
    match = commands.create_match(
        seats=[commands.SeatSpec(user=a), commands.SeatSpec(bot="random"), commands.SeatSpec(user=b),
               commands.SeatSpec(bot="random")],
        move_seconds=move_seconds,
    )
    match.refresh_from_db()
    return match, a, b


def race(n: int, run: Callable[[], list[int]]) -> tuple[list[list[int]], list[BaseException]]:
    """``run`` (a pairing run) ``n`` times at once, in threads started together, each with its own database
    connection: what each returned, and what any raised."""
    from django.db import connections

    barrier = threading.Barrier(n)
    made: list[list[int]] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            barrier.wait()
            made.append(run())
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return made, errors
