"""The match socket /ws/matches/<id>/: each connected seat gets its own view after every action, and nothing
else; authentication and refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from site_helpers import PASSWORD, assert_no_leak, choose, token_for

import engine
from callbreak_site.asgi import application
from games.accounts import commands as account_commands
from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.models import Match
from games.platform import groups

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


async def connect(match_id: int, *, token: str | None = None, cookie: str | None = None) -> WebsocketCommunicator:
    headers = [ORIGIN]
    path = f"/ws/matches/{match_id}/"
    if token:
        path += f"?token={token}"
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect()
    assert connected, code
    return comm


async def expect_view(comm: WebsocketCommunicator) -> dict[str, Any]:
    msg = await comm.receive_json_from(timeout=10)
    assert msg["type"] == "match"
    return msg["match"]


def view_of_turn(match_id: int) -> dict[str, Any]:
    match = Match.objects.get(pk=match_id)
    return presenters.match_view(match, match.turn)


def state_at(match_id: int, seq: int) -> engine.MatchState:
    return store.state_of(Match.objects.get(pk=match_id), upto=seq)


async def test_four_people_each_see_their_own_view_after_every_action(make_user: Any) -> None:
    users = [await database_sync_to_async(make_user)() for _ in range(4)]
    match = await database_sync_to_async(commands.create_match)(seats=[SeatSpec(user=u) for u in users])
    seed = match.seed
    tokens = [await database_sync_to_async(token_for)(u) for u in users]
    comms = [await connect(match.pk, token=t) for t in tokens]
    views = [await expect_view(c) for c in comms]
    assert [v["seat"] for v in views] == [0, 1, 2, 3]
    assert all(v["seq"] == 0 for v in views)
    rng = random.Random(11)
    # Two whole deals: 2 x (4 bids + 52 cards), every seat checked after every action.
    for _ in range(2 * 56):
        turn = views[0]["turn"]
        body = choose(views[turn], rng)
        await database_sync_to_async(commands.submit_action)(user=users[turn], match_id=match.pk, payload=body)
        new_views = [await expect_view(c) for c in comms]
        state = await database_sync_to_async(state_at)(match.pk, body["seq"] + 1)
        for seat, view in enumerate(new_views):
            assert view["seat"] == seat
            assert view["seq"] == body["seq"] + 1
            assert view == selectors_view(state, seat, view)
            assert_no_leak(view, state, seat, seed)
        views = new_views
    for c in comms:
        assert await c.receive_nothing(timeout=0.1)
        await c.disconnect()


def selectors_view(state: engine.MatchState, seat: int, sent: dict[str, Any]) -> dict[str, Any]:
    """The engine's view of ``seat`` with the site fields copied from what was sent."""
    expected = engine.player_view(state, seat).to_json()
    return {**sent, **expected}


async def test_a_burst_of_bot_moves_arrives_as_the_newest_view(make_user: Any) -> None:
    """A person's bid and the bots' replies, played at once, reach the socket as the newest view only
    (never an older one after it), and that view is the engine's view at its seq."""
    user = await database_sync_to_async(make_user)()
    match = await database_sync_to_async(commands.create_bot_match)(user)
    comm = await connect(match.pk, token=await database_sync_to_async(token_for)(user))
    view = await expect_view(comm)
    assert view["your_turn"]
    start = view["seq"]
    await database_sync_to_async(commands.submit_action)(
        user=user, match_id=match.pk, payload={"seq": start, "bid": 2})
    seqs = []
    while True:
        view = await expect_view(comm)
        seqs.append(view["seq"])
        state = await database_sync_to_async(state_at)(match.pk, view["seq"])
        assert view == selectors_view(state, 0, view)
        if view["your_turn"]:
            break
    final = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).seq)()
    assert seqs == sorted(set(seqs)) and seqs[-1] == final > start + 1
    assert len(seqs) < final - start, "the bots' moves were coalesced, not sent one view each"
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


async def test_socket_messages_carry_the_actions_that_lead_to_their_view(make_user: Any) -> None:
    """After actions the message holds ``since`` and the bids and cards played from there to the view's seq
    (the page animates them), through deal ends and the match's end (read from the database); a view sent
    on connect or on resync holds none."""
    user = await database_sync_to_async(make_user)()
    match = await database_sync_to_async(commands.create_bot_match)(user)
    comm = await connect(match.pk, token=await database_sync_to_async(token_for)(user))
    first = await comm.receive_json_from(timeout=10)
    assert "actions" not in first and "since" not in first
    shown = first["match"]
    rng = random.Random(5)
    carried = deals_crossed = 0
    while shown["phase"] != "finished":
        if not shown["your_turn"]:
            msg = await comm.receive_json_from(timeout=10)
        else:
            await database_sync_to_async(commands.submit_action)(
                user=user, match_id=match.pk, payload=choose(shown, rng))
            msg = await comm.receive_json_from(timeout=10)
        view, since, actions = msg["match"], msg["since"], msg["actions"]
        assert since <= shown["seq"] < view["seq"] == since + len(actions)
        state = await database_sync_to_async(state_at)(match.pk, view["seq"])
        assert actions == [a.to_json() for a in state.actions[since:]]
        carried += len(actions[shown["seq"] - since:])
        deals_crossed += view["deal_number"] != shown["deal_number"]
        shown = view
    assert shown["seq"] == 280 and carried == 280 - first["match"]["seq"] and deals_crossed == 4
    await comm.send_json_to({"type": "resync"})
    again = await comm.receive_json_from(timeout=10)
    assert again["match"]["seq"] == 280 and "actions" not in again
    await comm.disconnect()


async def test_session_cookie_auth_and_refusals(make_user: Any) -> None:
    alice = await database_sync_to_async(make_user)("alice")
    mallory = await database_sync_to_async(make_user)("mallory")
    match = await database_sync_to_async(commands.create_bot_match)(alice)

    def login_cookie(username: str) -> str:
        client = Client()
        assert client.login(username=username, password=PASSWORD)
        return f"sessionid={client.cookies['sessionid'].value}"

    cookie = await database_sync_to_async(login_cookie)("alice")
    comm = await connect(match.pk, cookie=cookie)
    view = await expect_view(comm)
    assert view["id"] == match.pk and view["seat"] == 0
    await comm.send_json_to({"type": "resync"})
    assert (await expect_view(comm))["seq"] == view["seq"]
    await comm.send_json_to({"type": "play", "card": "AS"})
    assert (await comm.receive_json_from())["code"] == "bad_message"
    for junk in ("{not json", "[1, 2]", "null"):
        await comm.send_to(text_data=junk)
        assert (await comm.receive_json_from())["type"] == "error"
    await comm.send_to(bytes_data=b"\xff\xfe")
    assert (await comm.receive_json_from())["code"] == "bad_json"
    await comm.send_json_to({"type": "resync"})  # still alive
    assert (await expect_view(comm))["seq"] == view["seq"]
    await comm.disconnect()

    # Anonymous, a bad token, a foreign match, an unknown match: all refused.
    bad = [
        (f"/ws/matches/{match.pk}/", []),
        (f"/ws/matches/{match.pk}/?token=nope", []),
        (f"/ws/matches/{match.pk}/?token={await database_sync_to_async(token_for)(mallory)}", []),
        (f"/ws/matches/999999/?token={await database_sync_to_async(token_for)(alice)}", []),
    ]
    for path, extra in bad:
        comm = WebsocketCommunicator(application, path, headers=[ORIGIN, *extra])
        connected, code = await comm.connect()
        assert not connected, path
        assert code in (4401, 4404), (path, code)


async def test_group_messages_carry_only_what_every_seat_sees(make_user: Any) -> None:
    """Ids, seq, the actions just made and the turn's deadline: never a hand, never the seed."""
    from channels.layers import get_channel_layer

    users = [await database_sync_to_async(make_user)() for _ in range(4)]
    match = await database_sync_to_async(commands.create_match)(seats=[SeatSpec(user=u) for u in users])
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(groups.match_group(match.pk), channel)
    view = await database_sync_to_async(presenters.match_view)(match, match.turn)
    bid = view["legal"][0]
    await database_sync_to_async(commands.submit_action)(
        user=users[match.turn], match_id=match.pk, payload={"seq": 0, "bid": bid})
    message = await layer.receive(channel)
    assert message == {"type": "match.updated", "match_id": match.pk, "seq": 1, "since": 0,
                       "actions": [{"seat": match.turn, "bid": bid}], "deadline": None}
    rng = random.Random(3)
    for seq in range(1, 12):  # the bids, then cards: each message holds the one card played, public to all
        view = await database_sync_to_async(view_of_turn)(match.pk)
        body = choose(view, rng)
        await database_sync_to_async(commands.submit_action)(user=users[view["seat"]], match_id=match.pk,
                                                             payload=body)
        message = await layer.receive(channel)
        played = {"seat": view["seat"], **{k: v for k, v in body.items() if k != "seq"}}
        assert message == {"type": "match.updated", "match_id": match.pk, "seq": seq + 1, "since": seq,
                           "actions": [played], "deadline": None}
        assert match.seed not in str(message)


async def test_a_deactivated_users_socket_is_closed(make_user: Any) -> None:
    users = [await database_sync_to_async(make_user)() for _ in range(4)]
    match = await database_sync_to_async(commands.create_match)(seats=[SeatSpec(user=u) for u in users])
    comm = await connect(match.pk, token=await database_sync_to_async(token_for)(users[1]))
    await expect_view(comm)
    await database_sync_to_async(account_commands.deactivate_user)(users[1])
    # The socket follows the account: it closes as unauthenticated (tests/site/hardening has the rest).
    out = await comm.receive_output(timeout=5)
    while out["type"] == "websocket.send":
        out = await comm.receive_output(timeout=5)
    assert out == {"type": "websocket.close", "code": 4401}
