"""Emotes at the table: a fixed set, relayed over the match socket to every seat (the sender's too), never
to a person who muted the sender, at most EMOTE_LIMIT per EMOTE_WINDOW seconds per person and match."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from site_helpers import next_of, nothing_of, two_people, ws

from games.models import Mute

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _limit(settings: Any) -> None:
    settings.EMOTE_LIMIT = 3
    settings.EMOTE_WINDOW = 10


async def opened(path: str, user: Any) -> WebsocketCommunicator:
    comm = await ws(path, user)
    await next_of(comm, "match")
    return comm


async def test_emotes_reach_every_seat_and_respect_mute_and_limit(make_user: Any, time_machine: Any) -> None:
    match, amy, bo = await database_sync_to_async(two_people)(make_user)
    path = f"/ws/matches/{match.pk}/"
    a, b = await opened(path, amy), await opened(path, bo)
    await a.send_json_to({"type": "emote", "emote": "wow"})
    assert await next_of(b, "emote") == {"type": "emote", "seat": 0, "emote": "wow"}
    assert await next_of(a, "emote") == {"type": "emote", "seat": 0, "emote": "wow"}  # beside my own seat too
    # only the fixed set
    await a.send_json_to({"type": "emote", "emote": "<b>hi</b>"})
    err = await next_of(a, "error")
    assert err["code"] == "bad_emote" and "wow" in err["emotes"]
    assert await nothing_of(b, "emote")
    # the limit: three in the window (one spent above), then refused
    for word in ("hello", "thanks"):
        await a.send_json_to({"type": "emote", "emote": word})
        assert (await next_of(b, "emote"))["emote"] == word
    await a.send_json_to({"type": "emote", "emote": "oops"})
    err = await next_of(a, "error")
    assert err["code"] == "throttled" and err["retry_after"] >= 1
    assert await nothing_of(b, "emote")
    # Bo mutes Amy: her emotes no longer reach him, his still reach her
    await b.send_json_to({"type": "mute", "seat": 0, "muted": True})
    assert await next_of(b, "mutes") == {"type": "mutes", "seats": [0]}
    assert await database_sync_to_async(Mute.objects.filter(user=bo, muted=amy).exists)()
    await b.send_json_to({"type": "emote", "emote": "well_played"})
    assert await next_of(a, "emote") == {"type": "emote", "seat": 2, "emote": "well_played"}
    await b.disconnect()
    b = await ws(path, bo)  # the mute is kept: said again on connect
    assert await next_of(b, "mutes") == {"type": "mutes", "seats": [0]}
    time_machine.move_to(time.time() + 10)  # the limit's window (EMOTE_WINDOW) is over
    await a.send_json_to({"type": "emote", "emote": "thinking"})
    assert (await next_of(a, "emote"))["emote"] == "thinking"
    assert await nothing_of(b, "emote")
    # unmuted: they reach him again; a bot's seat or one's own cannot be muted
    await b.send_json_to({"type": "mute", "seat": 0, "muted": False})
    assert await next_of(b, "mutes") == {"type": "mutes", "seats": []}
    await a.send_json_to({"type": "emote", "emote": "hello"})
    assert (await next_of(b, "emote"))["emote"] == "hello"
    for seat in (1, 2, 7):
        await b.send_json_to({"type": "mute", "seat": seat})
        assert (await next_of(b, "error"))["code"] == "bad_seat"
    await asyncio.gather(a.disconnect(), b.disconnect())
