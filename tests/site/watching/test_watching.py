"""Watching: ``/ws/watch/{id}/`` shows a match one trick behind (never a hand, never the seed before the end), a
private table's match has no watchers, watchers cannot chat, and the table shows how many watch."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from site_helpers import ORIGIN, browser, cards_in, choose, client_for, next_of, token_for, ws

import engine
from callbreak_site.asgi import application
from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.matches.seatview import WATCH_BEHIND, WatcherView
from games.models import Match
from games.tables import commands as table_commands

pytestmark = pytest.mark.django_db(transaction=True)


def four_people(make_user: Any) -> tuple[list[Any], Match]:
    users = [make_user() for _ in range(4)]
    return users, commands.create_match(seats=[SeatSpec(user=u) for u in users])


def live_state(match_id: int) -> engine.MatchState:
    return store.state_of(Match.objects.get(pk=match_id))


def play_one(users: list[Any], match_id: int, rng: random.Random) -> engine.MatchState:
    """The seat to act plays a random legal action; the state after it."""
    match = Match.objects.get(pk=match_id)
    view = presenters.match_view(match, match.turn)
    commands.submit_action(user=users[match.turn], match_id=match_id, payload=choose(view, rng))
    return live_state(match_id)


def assert_public_only(message: dict[str, Any], live: engine.MatchState, seed: str) -> None:
    """A watcher's message: no hand, the state a trick behind, no card still in a hand of the state it shows (the
    previous deal's last trick aside, as for players), and no seed before the end."""
    view = message["match"]
    assert "hand" not in view and "legal" not in view and "locked" not in view
    shown = engine.replay(seed, live.actions[:view["seq"]])
    if live.is_finished:
        assert view["seq"] == live.version and view["seed"] == seed
    else:
        assert view["seq"] == max(0, live.version - WATCH_BEHIND)
        assert seed not in json.dumps(message) and view["seed"] is None
    held = set()
    for seat in range(4):
        held |= set(engine.player_view(shown, seat).to_json()["hand"])
    in_message = dict(view)
    last = in_message.pop("last_trick")  # the deal's newest trick, or the previous deal's before one is done
    if view["tricks"]:
        assert last == view["tricks"][-1]
    assert not cards_in(in_message) & held
    assert view == {**view, **{k: v for k, v in engine.spectator_view(shown).to_json().items()
                               if k not in ("hand", "legal", "locked", "seat")}}


async def watch(match_id: int, user: Any) -> WebsocketCommunicator:
    return await ws(f"/ws/watch/{match_id}/", user)


async def next_watch(comm: WebsocketCommunicator) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = await comm.receive_json_from(timeout=10)
        if msg["type"] == "watch":
            return msg


async def test_a_watcher_sees_the_match_one_trick_behind_and_never_a_hand(make_user: Any) -> None:
    users, match = await database_sync_to_async(four_people)(make_user)
    watcher = await database_sync_to_async(make_user)("watcher")
    comm = await watch(match.pk, watcher)
    first = await next_watch(comm)
    assert first["match"]["seq"] == 0 and first["match"]["behind"] == 0
    rng = random.Random(5)
    for _ in range(2 * 56 + 10):  # two whole deals and the start of a third: deal boundaries included
        live = await database_sync_to_async(play_one)(users, match.pk, rng)
        if live.version <= WATCH_BEHIND:
            continue  # nothing new to show until a trick's worth has been made
        message = await next_watch(comm)
        assert_public_only(message, live, match.seed)
        assert message["match"]["behind"] == WATCH_BEHIND
    await comm.disconnect()


async def test_a_whole_match_watched_message_by_message_never_shows_a_hand(make_user: Any) -> None:
    users, match = await database_sync_to_async(four_people)(make_user)
    watcher = await database_sync_to_async(make_user)("watcher")
    comm = await watch(match.pk, watcher)
    await next_watch(comm)
    rng = random.Random(9)
    live = await database_sync_to_async(live_state)(match.pk)
    seen = 0
    while not live.is_finished:
        live = await database_sync_to_async(play_one)(users, match.pk, rng)
        if live.version > WATCH_BEHIND:
            message = await next_watch(comm)
            assert_public_only(message, live, match.seed)
            seen += 1
    # the end shows everything at once, the seed with it
    assert message["match"]["status"] == "finished" and message["match"]["seed"] == match.seed
    assert seen == live.version - WATCH_BEHIND
    await comm.disconnect()


async def test_the_delay_in_seconds_when_set(make_user: Any, settings: Any) -> None:
    settings.SPECTATOR_DELAY_SECONDS = 3600.0
    users, match = await database_sync_to_async(four_people)(make_user)
    rng = random.Random(3)
    for _ in range(8):
        await database_sync_to_async(play_one)(users, match.pk, rng)
    view = await database_sync_to_async(WatcherView(match.pk).read)()
    assert view is not None and view["seq"] == 0 and view["behind"] == 8


def private_match(make_user: Any) -> tuple[Any, Match]:
    host, friend = make_user("hostess"), make_user("friend")
    table = table_commands.create_table(host, visibility="private", rated=False)
    table_commands.join_table(friend, table.pk, code=table.invite_code)
    table_commands.fill_bots(host, table.pk, bot="random")
    return host, table_commands.start_table(host, table.pk)


async def test_a_private_table_has_no_watchers(make_user: Any) -> None:
    host, match = await database_sync_to_async(private_match)(make_user)
    stranger = await database_sync_to_async(make_user)("stranger")
    key = await database_sync_to_async(token_for)(stranger)
    comm = WebsocketCommunicator(application, f"/ws/watch/{match.pk}/?token={key}", headers=[ORIGIN])
    connected, code = await comm.connect()
    assert not connected and code == 4403
    api = await database_sync_to_async(client_for)(stranger)
    answer = await database_sync_to_async(api.get)(f"/api/watch/{match.pk}/")
    assert answer.status_code == 403 and answer.json()["code"] == "private_match"
    page = await database_sync_to_async(lambda: browser(stranger).get(f"/watch/{match.pk}/"))()
    assert page.status_code == 403
    listed = await database_sync_to_async(api.get)("/api/watch/")
    assert match.pk not in [m["id"] for m in listed.json()["matches"]]


async def test_watchers_cannot_chat_and_the_table_shows_how_many_watch(make_user: Any) -> None:
    users, match = await database_sync_to_async(four_people)(make_user)
    player = await ws(f"/ws/matches/{match.pk}/", users[0])
    assert (await player.receive_json_from(timeout=5))["type"] == "match"
    watcher = await database_sync_to_async(make_user)("watcher")
    comm = await watch(match.pk, watcher)
    await next_watch(comm)
    told = await player.receive_json_from(timeout=5)
    assert told == {"type": "watchers", "count": 1}
    for attempt in ({"type": "chat", "text": "psst, spades"}, {"type": "emote", "emote": "wow"},
                    {"seq": 0, "bid": 3}):
        await comm.send_json_to(attempt)
        assert (await next_of(comm, "error"))["code"] == "watching"
    assert await database_sync_to_async(Match.objects.filter(pk=match.pk, seq=0).exists)()
    await comm.disconnect()
    assert await player.receive_json_from(timeout=5) == {"type": "watchers", "count": 0}
    await player.disconnect()


async def test_the_watch_list_and_page(make_user: Any) -> None:
    users, match = await database_sync_to_async(four_people)(make_user)
    viewer = await database_sync_to_async(make_user)("viewer")
    api = await database_sync_to_async(client_for)(viewer)
    listed = (await database_sync_to_async(api.get)("/api/watch/")).json()
    assert [m["id"] for m in listed["matches"]] == [match.pk] and listed["arena_tables"] == []
    assert listed["matches"][0]["watchers"] == 0
    comm = await watch(match.pk, viewer)
    listed = (await database_sync_to_async(api.get)("/api/watch/")).json()
    assert listed["matches"][0]["watchers"] == 1
    await comm.disconnect()
    one = await database_sync_to_async(api.get)(f"/api/watch/{match.pk}/")
    assert one.status_code == 200 and "hand" not in one.json()
    assert (await database_sync_to_async(api.get)("/api/watch/999999/")).status_code == 404
    page = await database_sync_to_async(lambda: browser(viewer).get(f"/watch/{match.pk}/"))()
    assert page.status_code == 200
    assert (await database_sync_to_async(lambda: browser(viewer).get("/watch/"))()).status_code == 200


def test_the_watch_view_has_the_documented_keys(make_user: Any) -> None:
    _users, match = four_people(make_user)
    view = WatcherView(match.pk).read()
    assert view is not None and set(view) == set(presenters.WatchViewSerializer().fields)


def test_the_arenas_hook_lists_their_top_tables(make_user: Any, monkeypatch: Any) -> None:
    from games.watching import reads

    _users, match = four_people(make_user)
    _host, private = private_match(make_user)
    monkeypatch.setattr(reads, "ARENA_TOP_TABLES", [lambda limit: [private.pk, match.pk, 999999]])
    assert [row["id"] for row in reads.arena_tables()] == [match.pk]  # a private one or none at all: left out
