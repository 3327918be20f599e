"""Friends: follow / unfollow and the list (online now, playing what), a challenge (a private table with the friend
invited, told by a notice), and a block refused at every door: inviting, challenging, chatting, sitting at the
table by its seat, its invitation link or its room code, accepting an invitation, a rematch, and quick match."""

from __future__ import annotations

from typing import Any

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.utils import timezone
from site_helpers import browser, client_for, next_of, ws

from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import Block, Follow, Match, Notice, Seat, Table
from games.platform.errors import Forbidden
from games.quickmatch import commands as quick
from games.tables import commands as tables
from games.tabletalk import commands as talk

pytestmark = pytest.mark.django_db(transaction=True)


def test_follow_unfollow_and_the_list(make_user: Any) -> None:
    amy, bo, _cy = make_user("amy"), make_user("bo"), make_user("cy")
    api = client_for(amy)
    r = api.put("/api/friends/BO/")
    assert r.status_code == 200 and r.json() == {"username": "bo", "following": True, "follows_you": False,
                                                 "blocking": False}
    assert api.put("/api/friends/bo/").status_code == 200  # again: nothing changes
    api.put("/api/friends/cy/")
    client_for(bo).put("/api/friends/amy/")
    friends = api.get("/api/friends/").json()
    assert [f["username"] for f in friends["friends"]] == ["bo", "cy"]
    assert friends["friends"][0]["follows_you"] and not friends["friends"][1]["follows_you"]
    assert not any(f["online"] or f["playing"] for f in friends["friends"]) and friends["blocked"] == []
    assert api.delete("/api/friends/cy/").json()["following"] is False
    assert [f["username"] for f in api.get("/api/friends/").json()["friends"]] == ["bo"]
    assert api.put("/api/friends/nobody/").json()["code"] == "not_found"
    assert api.put("/api/friends/amy/").json()["code"] == "yourself"
    assert Follow.objects.count() == 2


async def test_the_list_says_who_is_online_and_what_they_play(make_user: Any) -> None:
    amy, bo, cy = [await database_sync_to_async(make_user)(n) for n in ("amy", "bo", "cy")]
    api = await database_sync_to_async(client_for)(amy)
    for name in ("bo", "cy"):
        await database_sync_to_async(api.put)(f"/api/friends/{name}/")
    me = await ws("/ws/me/", bo)  # bo has a page of the site open
    match = await database_sync_to_async(match_commands.create_match)(
        seats=[SeatSpec(user=cy), SeatSpec(bot="random"), SeatSpec(bot="random"), SeatSpec(bot="random")])
    rows = {f["username"]: f for f in (await database_sync_to_async(api.get)("/api/friends/")).json()["friends"]}
    assert rows["bo"]["online"] and not rows["bo"]["playing"]
    assert not rows["cy"]["online"]  # playing a correspondence match with no page open
    assert rows["cy"]["playing"] == [{"match_id": match.pk, "live": False, "watch_url": f"/watch/{match.pk}/"}]
    await me.disconnect()
    rows = {f["username"]: f for f in (await database_sync_to_async(api.get)("/api/friends/")).json()["friends"]}
    assert not rows["bo"]["online"]


async def test_a_challenge_opens_a_private_table_with_the_friend_invited_and_tells_them(make_user: Any) -> None:
    amy, bo = [await database_sync_to_async(make_user)(n) for n in ("amy", "bo")]
    bo_tabs = await ws("/ws/me/", bo)
    api = await database_sync_to_async(client_for)(amy)
    r = await database_sync_to_async(api.post)("/api/friends/bo/challenge/", {}, format="json")
    assert r.status_code == 201, r.content
    table = r.json()
    assert table["visibility"] == "private" and table["move_seconds"] == 60 and not table["rated"]
    assert table["seats"][1]["kind"] == "invited" and table["seats"][1]["invited"] == "bo"
    notice = await next_of(bo_tabs, "notice")
    assert notice["kind"] == "challenge" and notice["table_id"] == table["id"] and notice["asked_by"] == "amy"
    assert await database_sync_to_async(
        Notice.objects.filter(user=bo, kind="challenge", table_id=table["id"]).exists)()
    bo_api = await database_sync_to_async(client_for)(bo)
    seen = (await database_sync_to_async(bo_api.get)(f"/api/tables/{table['id']}/")).json()
    assert seen["seats"][1]["invited_you"]
    listed = (await database_sync_to_async(bo_api.get)("/api/me/notices/")).json()
    assert listed[0]["kind"] == "challenge" and listed[0]["table_id"] == table["id"]
    joined = await database_sync_to_async(bo_api.post)(f"/api/tables/{table['id']}/join/", {}, format="json")
    assert joined.status_code == 200 and joined.json()["seats"][1]["you"]
    await database_sync_to_async(api.post)(f"/api/tables/{table['id']}/bots/", {"bot": "random"}, format="json")
    started = await database_sync_to_async(api.post)(f"/api/tables/{table['id']}/start/")
    assert started.status_code == 201
    await bo_tabs.disconnect()


def test_a_challenge_declined_frees_the_seat(make_user: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    table = client_for(amy).post("/api/friends/bo/challenge/", {"move_seconds": 86400}, format="json").json()
    r = client_for(bo).post(f"/api/tables/{table['id']}/invitation/", {"accept": False}, format="json")
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "empty"


def blocked_pair(make_user: Any) -> tuple[Any, Any]:
    """Amy blocks Bo."""
    amy, bo = make_user("amy"), make_user("bo")
    assert client_for(amy).put("/api/blocks/bo/").json()["blocking"]
    return amy, bo


def refused(response: Any) -> bool:
    return bool(response.status_code == 403 and response.json()["code"] == "blocked")


def test_a_block_ends_follows_and_is_refused_at_each_door(make_user: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    client_for(amy).put("/api/friends/bo/")
    client_for(bo).put("/api/friends/amy/")
    assert client_for(amy).put("/api/blocks/bo/").status_code == 200
    assert not Follow.objects.exists() and Block.objects.filter(blocker=amy, blocked=bo).exists()
    bo_api, amy_api = client_for(bo), client_for(amy)
    # following and challenging, either way
    assert refused(bo_api.put("/api/friends/amy/")) and refused(amy_api.put("/api/friends/bo/"))
    assert refused(bo_api.post("/api/friends/amy/challenge/", {}, format="json"))
    assert refused(amy_api.post("/api/friends/bo/challenge/", {}, format="json"))
    # amy's private table: by its seat, its invitation link, its room code
    table = amy_api.post("/api/tables/", {"visibility": "private", "rated": False}, format="json").json()
    assert refused(bo_api.post(f"/api/tables/{table['id']}/join/", {"seat": 2, "code": table["invite_code"]},
                               format="json"))
    assert refused(bo_api.post("/api/tables/join-by-code/", {"code": table["room_code"]}, format="json"))
    assert browser(bo).get(f"/invite/{table['invite_code']}/").status_code == 302  # the link leads to the room
    # a public table of amy's, and one of bo's that amy would sit at
    public = amy_api.post("/api/tables/", {"visibility": "public", "rated": False}, format="json").json()
    assert refused(bo_api.post(f"/api/tables/{public['id']}/join/", {}, format="json"))
    theirs = bo_api.post("/api/tables/", {"visibility": "public", "rated": False}, format="json").json()
    assert refused(amy_api.post(f"/api/tables/{theirs['id']}/join/", {}, format="json"))
    # inviting: the host's invitation to a person, either way
    with pytest.raises(Forbidden):
        tables.invite_person(amy, table["id"], 1, bo)
    cy = make_user("cy")
    cys = tables.create_table(cy, visibility="private", rated=False)
    tables.invite_person(cy, cys.pk, 1, amy)
    with pytest.raises(Forbidden):  # bo would sit with amy, who is invited there
        tables.join_table(bo, cys.pk, code=cys.invite_code)
    assert Table.objects.get(pk=table["id"]).seats.filter(user=bo).count() == 0
    unblocked = amy_api.delete("/api/blocks/bo/")
    assert unblocked.status_code == 200 and not unblocked.json()["blocking"]
    assert bo_api.post(f"/api/tables/{public['id']}/join/", {}, format="json").status_code == 200


def test_a_block_withdraws_an_open_invitation_and_stops_an_accept(make_user: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    table = client_for(amy).post("/api/friends/bo/challenge/", {}, format="json").json()
    client_for(bo).put("/api/blocks/amy/")  # the one challenged blocks the challenger
    assert Table.objects.get(pk=table["id"]).seats.filter(invited=bo).count() == 0
    assert client_for(bo).get(f"/api/tables/{table['id']}/").status_code == 404


def test_a_blocked_person_cannot_chat_and_no_rematch_seats_them_together(make_user: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    table = tables.create_table(amy, visibility="private", move_seconds=86400, rated=False)
    tables.join_table(bo, table.pk, code=table.invite_code)
    tables.fill_bots(amy, table.pk, bot="random")
    match = tables.start_table(amy, table.pk)
    talk.send_chat(bo.pk, match.pk, "good luck")
    client_for(amy).put("/api/blocks/bo/")
    with pytest.raises(Forbidden) as err:
        talk.send_chat(bo.pk, match.pk, "hello?")
    assert err.value.code == "blocked"
    with pytest.raises(Forbidden):
        talk.send_chat(amy.pk, match.pk, "bye")
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=timezone.now())
    with pytest.raises(Forbidden):
        tables.ask_rematch(amy, match.pk)


def test_blocked_people_sit_at_no_table_once_blocked_after_sitting(make_user: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    table = tables.create_table(amy, visibility="private", move_seconds=86400, rated=False)
    tables.join_table(bo, table.pk, code=table.invite_code)
    tables.fill_bots(amy, table.pk, bot="random")
    client_for(bo).put("/api/blocks/amy/")
    r = client_for(amy).post(f"/api/tables/{table.pk}/start/")
    assert refused(r)


def test_quick_match_never_seats_two_who_blocked_one_another(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_EAGER_TIMER = False
    amy, bo = blocked_pair(make_user)
    others = [make_user(f"q{i}") for i in range(3)]
    with time_machine.travel(timezone.now(), tick=False):
        for person in [amy, bo, *others]:
            client_for(person).post("/api/quick-match/", {"pace": "live", "rated": False}, format="json")
        quick.pair()
    seated = {uid for uid in Seat.objects.filter(kind="human").values_list("user_id", flat=True)}
    assert seated == {amy.pk, *(o.pk for o in others)}  # four without bo: bo waits for another table
    for match in Match.objects.all():
        people = set(match.seats.filter(kind="human").values_list("user_id", flat=True))
        assert not {amy.pk, bo.pk} <= people


def test_the_friends_page(make_user: Any) -> None:
    amy = make_user("amy")
    page = browser(amy).get("/friends/")
    assert page.status_code == 200 and b"friend-list" in page.content


@pytest.mark.rate_limits
def test_following_and_challenges_are_rate_limited(make_user: Any, settings: Any) -> None:
    assert settings.RATE_LIMITS["following"] == ("user", "60/hour")
    assert settings.RATE_LIMITS["challenges"] == ("user", "20/hour")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "following": ("user", "3/hour"), "challenges": ("user", "1/hour")}
    amy, _bo = make_user("amy"), make_user("bo")
    api = client_for(amy)
    assert [api.put("/api/friends/bo/").status_code for _ in range(3)] == [200, 200, 200]
    r = api.delete("/api/friends/bo/")
    assert r.status_code == 429 and r.json()["scope"] == "following"
    assert api.get("/api/friends/").status_code == 200  # reading the list is not counted
    assert api.post("/api/friends/bo/challenge/", {}, format="json").status_code == 201
    r = api.post("/api/friends/bo/challenge/", {}, format="json")
    assert r.status_code == 429 and r.json()["scope"] == "challenges"


def test_bad_input_is_a_4xx_with_a_code(make_user: Any) -> None:
    amy = make_user("amy")
    make_user("bo")
    api = client_for(amy)
    for response in (api.put("/api/friends/" + "x" * 200 + "/"), api.put("/api/blocks/%00/"),
                     api.post("/api/friends/bo/challenge/", {"move_seconds": "soon"}, format="json"),
                     api.post("/api/friends/bo/challenge/", {"rated": "perhaps"}, format="json"),
                     api.post("/api/friends/bo/challenge/", "[1, 2]", content_type="application/json"),
                     api.get("/api/watch/99999999999999999999999/"), api.get("/api/watch/0/")):
        assert 400 <= response.status_code < 500 and "code" in response.json(), response.content
