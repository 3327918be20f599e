"""Your-turn notices over /ws/me/ to every open tab; no email while the match page is open;
lobby updates; bot levels rated as their own identities; admin abort leaves a match unrated."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import mail
from rest_framework.authtoken.models import Token
from site_helpers import choose, client_for

from callbreak_site.asgi import application
from games import correspondence, notifications, services
from games.models import Match, Notice, Presence, Rating, RatingChange
from games.services import SeatSpec

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


async def ws(path: str, user: Any) -> WebsocketCommunicator:
    key = (await database_sync_to_async(Token.objects.get_or_create)(user=user))[0].key
    comm = WebsocketCommunicator(application, f"{path}?token={key}", headers=[ORIGIN])
    connected, code = await comm.connect()
    assert connected, code
    return comm


def _move_until_turn_of(match_id: int, mover: Any, target_seat: int) -> None:
    """``mover`` plays legal moves (bots answer at once) until it is ``target_seat``'s turn."""
    rng = random.Random(3)
    client = client_for(mover)
    while Match.objects.get(pk=match_id).turn != target_seat:
        view = client.get(f"/api/matches/{match_id}/").json()
        assert view["your_turn"], view["turn"]
        assert client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json").status_code == 200


async def test_your_turn_reaches_every_tab_and_no_email_while_on_the_match_page(make_user: Any) -> None:
    a = await database_sync_to_async(make_user)("ann", email="ann@example.com")
    b = await database_sync_to_async(make_user)("ben", email="ben@example.com")
    match = await database_sync_to_async(services.create_match)(
        seats=[SeatSpec(user=a), SeatSpec(user=b), SeatSpec(bot="random"), SeatSpec(bot="random")],
        move_seconds=86400,
    )
    # get to ben's turn (ann moves if she must)
    await database_sync_to_async(_move_until_turn_of)(match.pk, a, 1)
    tab1, tab2 = await ws("/ws/me/", a), await ws("/ws/me/", a)
    page = await ws(f"/ws/matches/{match.pk}/", a)
    first = await page.receive_json_from()
    assert first["type"] == "match"
    assert await database_sync_to_async(Presence.objects.filter(user=a, match_id=match.pk).count)() == 1
    mail.outbox.clear()
    await database_sync_to_async(_move_until_turn_of)(match.pk, b, 0)
    seq = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).seq
    for tab in (tab1, tab2):
        msg = await tab.receive_json_from(timeout=3)
        while msg["type"] != "notice":
            msg = await tab.receive_json_from(timeout=3)
        assert msg == {"type": "notice", "kind": "your_turn", "match_id": match.pk, "seq": seq,
                       "deadline": msg["deadline"]}
        assert msg["deadline"]
    notice = await database_sync_to_async(Notice.objects.get)(user=a, match_id=match.pk, seq=seq, kind="your_turn")
    assert not notice.emailed
    assert not [m for m in mail.outbox if "ann@example.com" in m.to], "no email while on the match page"
    # the page closes: presence is gone, and the next notice is emailed
    await page.disconnect()
    assert await database_sync_to_async(Presence.objects.filter(user=a).count)() == 0
    await database_sync_to_async(notifications.notice)(a.pk, match.pk, seq, "reminder")
    assert [m.subject for m in mail.outbox if "ann@example.com" in m.to] == [
        f"Call Break reminder: your move in match {match.pk} is due soon"]
    # the same notice again sends nothing
    await database_sync_to_async(notifications.notice)(a.pk, match.pk, seq, "reminder")
    assert len([m for m in mail.outbox if "ann@example.com" in m.to]) == 1
    for tab in (tab1, tab2):
        await tab.disconnect()


async def test_lobby_updates_over_the_user_socket(make_user: Any) -> None:
    host = await database_sync_to_async(make_user)("host")
    watcher = await database_sync_to_async(make_user)("watcher")
    tab = await ws("/ws/me/", watcher)
    def create() -> Any:
        return client_for(host).post("/api/tables/", {"visibility": "public", "move_seconds": 60}, format="json")

    r = await database_sync_to_async(create)()
    assert r.status_code == 201
    assert await tab.receive_json_from(timeout=3) == {"type": "lobby", "table_id": r.json()["id"]}
    # a private table is told to its members only
    host_tab = await ws("/ws/me/", host)

    def create_private() -> Any:
        return client_for(host).post("/api/tables/", {"visibility": "private"}, format="json")

    private = await database_sync_to_async(create_private)()
    assert await host_tab.receive_json_from(timeout=3) == {"type": "lobby", "table_id": private.json()["id"]}
    assert await tab.receive_nothing(timeout=0.5)
    await host_tab.disconnect()
    await tab.disconnect()
    anon = WebsocketCommunicator(application, "/ws/me/", headers=[ORIGIN])
    connected, code = await anon.connect()
    assert not connected and code == 4401


def test_bot_levels_are_rated_identities_and_aborted_matches_are_not_rated(make_user: Any) -> None:
    alice = make_user("alice2")
    client = client_for(alice)
    t = client.post("/api/tables/", {"visibility": "private", "move_seconds": 86400, "rated": True},
                    format="json").json()
    client.post(f"/api/tables/{t['id']}/bots/", {"bot": "normal"}, format="json")
    match_id = client.post(f"/api/tables/{t['id']}/start/").json()["match_id"]
    rng = random.Random(5)
    while True:
        view = client.get(f"/api/matches/{match_id}/").json()
        if view["status"] == "finished":
            break
        assert client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json").status_code == 200
    bot = Rating.objects.get(bot="normal")
    assert bot.games == 1 and bot.user is None
    assert Rating.objects.get(user=alice).games == 1
    assert RatingChange.objects.filter(match_id=match_id).count() == 2  # one identity per bot level
    rows = client.get("/api/leaderboard/").json()
    assert {r["kind"] for r in rows} == {"human", "bot"}
    assert [r["kind"] for r in client.get("/api/leaderboard/?bots=0").json()] == ["human"]
    assert rows == sorted(rows, key=lambda r: -r["conservative"])

    # an aborted match: nobody rated, no more actions
    t2 = client.post("/api/tables/", {"visibility": "private", "move_seconds": 86400}, format="json").json()
    client.post(f"/api/tables/{t2['id']}/bots/", {"bot": "normal"}, format="json")
    m2 = Match.objects.get(pk=client.post(f"/api/tables/{t2['id']}/start/").json()["match_id"])
    assert correspondence.abort_match(m2)
    m2.refresh_from_db()
    assert m2.status == "aborted" and m2.deadline is None
    view = client.get(f"/api/matches/{m2.pk}/").json()
    assert view["status"] == "aborted"
    r = client.post(f"/api/matches/{m2.pk}/actions/", {"seq": m2.seq, "bid": 3}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "aborted"
    from games.ratings import rate_match

    assert rate_match(m2.pk) is False
    assert not RatingChange.objects.filter(match=m2).exists()
    assert Rating.objects.get(user=alice).games == 1
