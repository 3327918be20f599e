"""Friends and watching on the real stack (PostgreSQL, Redis as channel layer and broker): a whole match, watched
over Redis message by message, never shows a hand nor the seed before the end and stays a trick behind; a
friend's challenge arrives as a notice on the friend's open tab; a blocked
person is refused at each door (a seat, the room code, the invitation, a challenge, a follow, the chat)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from site_helpers import cards_in, choose, client_for, next_of, token_for

import engine
from callbreak_site.asgi import application
from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.matches.seatview import WATCH_BEHIND
from games.models import Match
from games.tables import commands as tables

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

ORIGIN = (b"origin", b"http://testserver")


async def socket(path: str, user: Any) -> WebsocketCommunicator:
    key = await database_sync_to_async(token_for)(user)
    comm = WebsocketCommunicator(application, f"{path}?token={key}", headers=[ORIGIN])
    connected, code = await comm.connect()
    assert connected, code
    return comm


def test_the_real_stack() -> None:
    assert connection.vendor == "postgresql" and settings.CELERY_TASK_ALWAYS_EAGER is False
    assert "redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"].lower() or settings.REDIS_URL


def _play_one(users: list[Any], match_id: int, rng: random.Random) -> engine.MatchState:
    match = Match.objects.get(pk=match_id)
    view = presenters.match_view(match, match.turn)
    commands.submit_action(user=users[match.turn], match_id=match_id, payload=choose(view, rng))
    return store.state_of(Match.objects.get(pk=match_id))


async def test_a_whole_match_watched_message_by_message_never_shows_a_hand(make_user: Any) -> None:
    """Four people play a whole match (280 bids and cards, each its own write); the watcher's socket, fed through
    Redis, gets one message per action from the fifth on, each checked: the match exactly a trick behind, no
    hand, no card still held in the state shown, no seed until the end."""
    users = [await database_sync_to_async(make_user)(f"p{i}") for i in range(4)]
    watcher = await database_sync_to_async(make_user)("watcher")
    match = await database_sync_to_async(commands.create_match)(seats=[SeatSpec(user=u) for u in users])
    seed = match.seed
    comm = await socket(f"/ws/watch/{match.pk}/", watcher)
    assert (await next_of(comm, "watch", timeout=10))["match"]["seq"] == 0
    rng = random.Random(41)
    live = await database_sync_to_async(lambda: store.state_of(Match.objects.get(pk=match.pk)))()
    checked = 0
    while not live.is_finished:
        live = await database_sync_to_async(_play_one)(users, match.pk, rng)
        if live.version <= WATCH_BEHIND:
            continue
        msg = await next_of(comm, "watch", timeout=10)
        view = msg["match"]
        assert "hand" not in view and "legal" not in view and "locked" not in view
        shown = engine.replay(seed, live.actions[:view["seq"]])
        held = set()
        for seat in range(4):
            held |= set(engine.player_view(shown, seat).to_json()["hand"])
        public = {k: v for k, v in view.items() if k != "last_trick"}  # the previous deal's, between deals
        assert not cards_in(public) & held, f"a hand was shown at seq {view['seq']}"
        if live.is_finished:
            assert view["seq"] == 280 and view["seed"] == seed and view["status"] == "finished"
        else:
            assert view["seq"] == live.version - WATCH_BEHIND and view["behind"] == WATCH_BEHIND
            assert seed not in json.dumps(msg) and view["seed"] is None
        checked += 1
    assert checked == 280 - WATCH_BEHIND
    await comm.disconnect()


async def test_a_friends_challenge_arrives_as_a_notice(make_user: Any) -> None:
    amy, bo = [await database_sync_to_async(make_user)(n) for n in ("amy", "bo")]
    tab = await socket("/ws/me/", bo)
    api = await database_sync_to_async(client_for)(amy)
    assert (await database_sync_to_async(api.put)("/api/friends/bo/")).status_code == 200
    r = await database_sync_to_async(lambda: api.post("/api/friends/bo/challenge/", {}, format="json"))()
    assert r.status_code == 201, r.content
    notice = await next_of(tab, "notice", timeout=10)
    assert notice["kind"] == "challenge" and notice["table_id"] == r.json()["id"] and notice["asked_by"] == "amy"
    await tab.disconnect()


def _refused(response: Any) -> bool:
    return bool(response.status_code == 403 and response.json()["code"] == "blocked")


async def test_a_blocked_person_is_refused_at_each_door(make_user: Any) -> None:
    amy, bo, cy = [await database_sync_to_async(make_user)(n) for n in ("amy", "bo", "cy")]

    def doors() -> None:
        amy_api, bo_api = client_for(amy), client_for(bo)
        table = amy_api.post("/api/tables/", {"visibility": "private", "rated": False}, format="json").json()
        # bo sits at amy's table first; then amy blocks bo, who is refused everywhere after
        assert bo_api.post(f"/api/tables/{table['id']}/join/", {"code": table["invite_code"]},
                           format="json").status_code == 200
        amy_api.post(f"/api/tables/{table['id']}/bots/", {"bot": "random"}, format="json")
        assert amy_api.post(f"/api/tables/{table['id']}/start/").status_code == 201
        assert amy_api.put("/api/blocks/bo/").status_code == 200
        other = amy_api.post("/api/tables/", {"visibility": "private", "rated": False}, format="json").json()
        assert _refused(bo_api.post(f"/api/tables/{other['id']}/join/", {"seat": 1, "code": other["invite_code"]},
                                    format="json"))
        assert _refused(bo_api.post("/api/tables/join-by-code/", {"code": other["room_code"]}, format="json"))
        assert _refused(bo_api.post("/api/friends/amy/challenge/", {}, format="json"))
        assert _refused(bo_api.put("/api/friends/amy/"))
        cys = tables.create_table(cy, visibility="private", rated=False)
        tables.invite_person(cy, cys.pk, 1, amy)
        assert _refused(bo_api.post(f"/api/tables/{cys.pk}/join/", {"code": cys.invite_code}, format="json"))

    await database_sync_to_async(doors)()
    match = await database_sync_to_async(lambda: Match.objects.get(seats__user=bo))()
    sock = await socket(f"/ws/matches/{match.pk}/", bo)
    await sock.send_json_to({"type": "chat", "text": "let me talk"})
    refusal = await next_of(sock, "error", timeout=10)
    assert refusal["about"] == "chat" and refusal["code"] == "blocked"
    await sock.disconnect()
