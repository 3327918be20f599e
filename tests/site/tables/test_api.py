"""Tables: private tables are invisible without the invitation, non-members cannot see or act,
left seats can be retaken, the host fills bots and starts, unstarted public tables expire."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient
from site_helpers import choose, client_for

from games.models import Match, Table
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people(make_user: Any) -> list[tuple[Any, APIClient]]:
    users = [make_user(f"u{i}", email=f"u{i}@example.com") for i in range(5)]
    return [(u, client_for(u)) for u in users]


def new_table(client: APIClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables/", {"visibility": "public", "move_seconds": 86400, **body}, format="json")
    assert r.status_code == 201, r.content
    return r.json()


def test_private_table_is_invisible_without_the_invitation(people: Any) -> None:
    (_, host), (_, other), (_, third) = people[:3]
    t = new_table(host, visibility="private")
    code = t["invite_code"]
    assert code
    assert [x["id"] for x in host.get("/api/tables/").json()] == [t["id"]]
    assert other.get("/api/tables/").json() == []
    r = other.get(f"/api/tables/{t['id']}/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = other.post(f"/api/tables/{t['id']}/join/", {}, format="json")
    assert r.status_code == 404
    r = other.post(f"/api/tables/{t['id']}/join/", {"code": "wrong"}, format="json")
    assert r.status_code == 404
    # with the code: seen and joined
    seen = other.get(f"/api/tables/invite/{code}/").json()
    assert seen["id"] == t["id"] and seen["member"] is False
    assert other.get(f"/api/tables/{t['id']}/?code={code}").status_code == 200
    r = other.post(f"/api/tables/{t['id']}/join/", {"code": code}, format="json")
    assert r.status_code == 200 and r.json()["member"]
    assert other.get(f"/api/tables/{t['id']}/").status_code == 200  # a member needs no code
    assert [x["id"] for x in other.get("/api/tables/").json()] == [t["id"]]
    assert third.get("/api/tables/").json() == []
    # a public table is listed for everyone, without its code
    pub = new_table(third)
    listed = other.get("/api/tables/").json()
    assert {x["id"] for x in listed} == {t["id"], pub["id"]}
    assert next(x for x in listed if x["id"] == pub["id"])["invite_code"] is None


def test_left_seat_can_be_retaken_and_full_table_refuses(people: Any) -> None:
    (_, host), (_, a), (_, b), (_, c), (_, d) = people
    t = new_table(host)
    tid = t["id"]
    for cl in (a, b, c):
        assert cl.post(f"/api/tables/{tid}/join/", {}, format="json").status_code == 200
    r = d.post(f"/api/tables/{tid}/join/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "table_full"
    r = a.post(f"/api/tables/{tid}/join/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    r = b.post(f"/api/tables/{tid}/leave/")
    assert r.status_code == 200
    assert r.json()["seats"][2] == {"seat": 2, "kind": "empty", "name": None, "bot": None, "you": False,
                                   "bot_account": False, "invited": None, "invited_you": False}
    r = d.post(f"/api/tables/{tid}/join/", {"seat": 1}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = d.post(f"/api/tables/{tid}/join/", {"seat": 2}, format="json")
    assert r.status_code == 200 and r.json()["seats"][2]["name"] == "u4"
    # the host leaves: the table passes to the next person
    host.post(f"/api/tables/{tid}/leave/")
    assert Table.objects.get(pk=tid).host.username == "u1"
    r = a.post(f"/api/tables/{tid}/start/")
    assert r.status_code == 409 and r.json()["code"] == "seats_empty"


def test_host_fills_bots_starts_and_non_members_cannot_see_or_act(people: Any) -> None:
    (_, host), (_, guest), (_, outsider) = people[:3]
    t = new_table(host, rated=False)
    tid = t["id"]
    guest.post(f"/api/tables/{tid}/join/", {"seat": 2}, format="json")
    r = guest.post(f"/api/tables/{tid}/bots/", {"bot": "normal"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = host.post(f"/api/tables/{tid}/bots/", {"bot": "no-such-bot"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_bot"
    r = host.post(f"/api/tables/{tid}/bots/", {"bot": "random"}, format="json")
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "bot", "human", "bot"]
    assert guest.post(f"/api/tables/{tid}/start/").status_code == 403
    r = host.post(f"/api/tables/{tid}/start/")
    assert r.status_code == 201
    match_id = r.json()["match_id"]
    assert guest.get(f"/api/tables/{tid}/").json()["match_id"] == match_id
    assert outsider.get(f"/api/tables/{tid}/").json()["match_id"] is None
    # started: no joining or leaving
    assert outsider.post(f"/api/tables/{tid}/join/", {}, format="json").json()["code"] == "table_not_open"
    assert guest.post(f"/api/tables/{tid}/leave/").json()["code"] == "table_not_open"
    match = Match.objects.get(pk=match_id)
    assert not match.rated and match.move_seconds == 86400
    assert [s.kind for s in match.seats.order_by("index")] == ["human", "bot", "human", "bot"]
    # a non-member sees nothing and can do nothing
    assert outsider.get(f"/api/matches/{match_id}/").status_code == 404
    assert outsider.get(f"/api/matches/{match_id}/replay/").status_code == 404
    r = outsider.post(f"/api/matches/{match_id}/actions/", {"seq": match.seq, "bid": 3}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert outsider.post(f"/api/matches/{match_id}/resign/").status_code == 404
    assert match_id not in [m["id"] for m in outsider.get("/api/matches/").json()]
    # the members can play
    match.refresh_from_db()
    mover = {0: host, 2: guest}[match.turn]
    view = mover.get(f"/api/matches/{match_id}/").json()
    import random

    assert mover.post(f"/api/matches/{match_id}/actions/", choose(view, random.Random(1)),
                      format="json").status_code == 200


def test_bad_table_input_gets_json_errors(people: Any) -> None:
    (_, host), (_, other) = people[:2]
    for body in ({"visibility": "secret"}, {"move_seconds": 5}, {"move_seconds": "x"}, {"rated": "maybe"}):
        r = host.post("/api/tables/", body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "invalid", body
    assert host.get("/api/tables/999999/").status_code == 404
    t = new_table(host)
    r = other.post(f"/api/tables/{t['id']}/join/", {"seat": 9}, format="json")
    assert r.status_code == 400
    r = other.post(f"/api/tables/{t['id']}/join/", "not json", content_type="application/json")
    assert r.status_code == 400
    assert APIClient().get("/api/tables/").status_code == 401


def test_unstarted_public_table_expires(people: Any, settings: Any) -> None:
    (_, host), (_, other) = people[:2]
    settings.TABLE_EXPIRY_SECONDS = 3600
    with time_machine.travel(timezone.now(), tick=False) as clock:
        pub = new_table(host)
        priv = new_table(host, visibility="private")
        clock.shift(timedelta(minutes=59))
        sweep_deadlines.delay()
        assert other.get("/api/tables/").json()[0]["id"] == pub["id"]
        clock.shift(timedelta(minutes=2))
        sweep_deadlines.delay()
        assert other.get("/api/tables/").json() == []
        assert Table.objects.get(pk=pub["id"]).status == "expired"
        assert Table.objects.get(pk=priv["id"]).status == "open"


def test_schema_documents_the_table_endpoints(people: Any) -> None:
    _, client = people[0]
    r = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert r.status_code == 200
    text = r.content.decode()
    for path in ("/api/tables/", "/api/tables/{table_id}/join/", "/api/tables/{table_id}/start/",
                 "/api/matches/{match_id}/resign/", "/api/leaderboard/", "/api/players/{username}/",
                 "/api/me/settings/"):
        assert path in text, path
