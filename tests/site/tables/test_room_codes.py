"""Room codes: an open private table has six characters to read out, from an alphabet without look-alikes,
unique among open tables; anyone may type them (any case, spaces, dashes) to sit at that table; unknown and
no-longer-open codes are 404 `no_such_code`; guesses are rate limited; the invitation link still works."""

from __future__ import annotations

import importlib
import time
from typing import Any

import pytest
import time_machine
from django.apps import apps
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient
from site_helpers import browser, client_for

from games.models import Table
from games.tables import commands
from games.tables.models import ROOM_CODE_ALPHABET, new_room_code

pytestmark = pytest.mark.django_db(transaction=True)

JOIN = "/api/tables/join-by-code/"


@pytest.fixture
def people(make_user: Any) -> list[tuple[Any, APIClient]]:
    users = [make_user(f"rc{i}") for i in range(5)]
    return [(u, client_for(u)) for u in users]


def private_table(client: APIClient) -> dict[str, Any]:
    r = client.post("/api/tables/", {"visibility": "private", "move_seconds": 86400}, format="json")
    assert r.status_code == 201, r.content
    return r.json()


def test_the_alphabet_has_no_look_alikes_and_every_character_is_dealt() -> None:
    assert ROOM_CODE_ALPHABET == "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    assert not set("01OIL") & set(ROOM_CODE_ALPHABET)
    codes = [new_room_code() for _ in range(3000)]
    assert all(len(c) == 6 and set(c) <= set(ROOM_CODE_ALPHABET) for c in codes)
    assert set("".join(codes)) == set(ROOM_CODE_ALPHABET)
    assert len(set(codes)) == len(codes)


def test_an_open_private_table_has_a_code_shown_to_its_people_only(people: Any) -> None:
    (_, host), (_, other) = people[:2]
    t = private_table(host)
    code = t["room_code"]
    assert len(code) == 6 and set(code) <= set(ROOM_CODE_ALPHABET)
    assert Table.objects.get(pk=t["id"]).room_code == code
    assert host.get(f"/api/tables/{t['id']}/").json()["room_code"] == code
    assert other.get(f"/api/tables/{t['id']}/?code={t['invite_code']}").json()["room_code"] == code
    assert other.get(f"/api/tables/{t['id']}/").status_code == 404
    public = host.post("/api/tables/", {"visibility": "public"}, format="json").json()
    assert public["room_code"] is None and Table.objects.get(pk=public["id"]).room_code is None
    assert other.get(f"/api/tables/{public['id']}/").json()["room_code"] is None


def test_codes_are_unique_among_open_tables_and_a_clash_is_dealt_again(people: Any, monkeypatch: Any) -> None:
    (host, _), (other, _) = people[:2]
    dealt = iter(["ABCDEF", "ABCDEF", "ABCDEF", "GHJKMN"])
    monkeypatch.setattr(commands, "new_room_code", lambda: next(dealt))
    first = commands.create_table(host, visibility="private")
    second = commands.create_table(other, visibility="private")
    assert (first.room_code, second.room_code) == ("ABCDEF", "GHJKMN")
    # the database refuses a second open table with a code, whoever writes it
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(host=host, visibility="private", move_seconds=60, room_code="ABCDEF")
    # once its table is no longer open, a code may be dealt again
    commands.leave_table(host, first.pk)
    assert Table.objects.get(pk=first.pk).status == Table.Status.CLOSED
    again = Table.objects.create(host=host, visibility="private", move_seconds=60, room_code="ABCDEF")
    assert again.room_code == "ABCDEF"


def test_codes_that_always_clash_give_up(people: Any, monkeypatch: Any) -> None:
    (host, _), (other, _) = people[:2]
    monkeypatch.setattr(commands, "new_room_code", lambda: "ABCDEF")
    commands.create_table(host, visibility="private")
    with pytest.raises(IntegrityError):
        commands.create_table(other, visibility="private")
    assert Table.objects.count() == 1


@pytest.mark.parametrize("typed", [
    lambda c: c.lower(), lambda c: f"{c[:3].lower()} {c[3:].lower()}", lambda c: f" {c[:3]}-{c[3:]} ",
    lambda c: " ".join(c), lambda c: c[:3] + "\u2013" + c[3:],
    lambda c: "".join(chr(ord(ch) + 0xFEE0) for ch in c),  # full-width, as a CJK keyboard types
])
def test_joining_by_code_takes_a_seat_whatever_the_case_and_spaces(people: Any, typed: Any) -> None:
    (_, host), (guest, client) = people[:2]
    t = private_table(host)
    r = client.post(JOIN, {"code": typed(t["room_code"])}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["id"] == t["id"] and body["member"] is True
    assert body["invite_code"] == t["invite_code"] and body["room_code"] == t["room_code"]
    assert [s["seat"] for s in body["seats"] if s["you"]] == [1]
    # again (a second tap, or the host): the table as it is, no second seat
    again = client.post(JOIN, {"code": t["room_code"]}, format="json")
    assert again.status_code == 200 and [s["seat"] for s in again.json()["seats"] if s["you"]] == [1]
    assert host.post(JOIN, {"code": t["room_code"]}, format="json").json()["you_host"] is True
    assert Table.objects.get(pk=t["id"]).seats.filter(user=guest).count() == 1


def test_unknown_and_malformed_codes(people: Any) -> None:
    (_, host), (_, client) = people[:2]
    t = private_table(host)
    unknown = next(c for c in iter(new_room_code, None) if c != t["room_code"])
    r = client.post(JOIN, {"code": unknown}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "no_such_code" and r.json()["detail"]
    for bad in ("", "ABCDE", "ABCDEFG", "ABCDE0", "ABC1EF", "ABCDEL", "ABCDEO"):
        r = client.post(JOIN, {"code": bad}, format="json")
        assert r.status_code == 400, bad
        assert r.json()["code"] in ("bad_code", "invalid"), bad
    r = client.post(JOIN, {}, format="json")
    assert r.status_code == 400
    assert client.post(JOIN, {"code": ["ABCDEF"]}, format="json").status_code == 400
    # an invitation token is not a room code
    assert client.post(JOIN, {"code": t["invite_code"]}, format="json").status_code in (400, 404)
    assert APIClient().post(JOIN, {"code": t["room_code"]}, format="json").status_code in (401, 403)


def test_a_table_no_longer_open_has_no_code(people: Any) -> None:
    (host_user, host), (_, a), (_, b), (_, c), (_, d) = people
    closed = private_table(host)
    assert host.post(f"/api/tables/{closed['id']}/leave/").status_code == 200  # the host alone: closed
    r = a.post(JOIN, {"code": closed["room_code"]}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "no_such_code"
    started = private_table(host)
    assert host.post(f"/api/tables/{started['id']}/bots/", {"bot": "normal"}, format="json").status_code == 200
    assert host.post(f"/api/tables/{started['id']}/start/").status_code == 201
    r = a.post(JOIN, {"code": started["room_code"]}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "no_such_code"
    assert host.get(f"/api/tables/{started['id']}/").json()["room_code"] is None
    full = private_table(host)
    for cl in (a, b, c):
        assert cl.post(JOIN, {"code": full["room_code"]}, format="json").status_code == 200
    r = d.post(JOIN, {"code": full["room_code"]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "table_full"


@pytest.mark.rate_limits
def test_guessing_codes_is_rate_limited(people: Any, settings: Any) -> None:
    assert settings.RATE_LIMITS["join_code"] == ("user", "20/min")
    (_, host), (_, guesser), (_, other) = people[:3]
    t = private_table(host)
    start = (time.time() // 60 + 1) * 60
    with time_machine.travel(start + 1, tick=False):
        answers = [guesser.post(JOIN, {"code": new_room_code()}, format="json").status_code for _ in range(20)]
        assert set(answers) <= {404, 200}
        r = guesser.post(JOIN, {"code": t["room_code"]}, format="json")  # even the right code, now
        assert r.status_code == 429
        assert r.json()["code"] == "throttled" and r.json()["scope"] == "join_code" and r["Retry-After"] == "59"
        # per user: someone else is not slowed by it
        assert other.post(JOIN, {"code": t["room_code"]}, format="json").status_code == 200
    with time_machine.travel(start + 61, tick=False):
        assert guesser.post(JOIN, {"code": t["room_code"]}, format="json").status_code == 200


def test_the_invitation_link_still_works(people: Any, make_user: Any) -> None:
    (host_user, host) = people[0]
    t = private_table(host)
    guest = make_user("linkguest")
    g = browser(guest)
    r = g.get(f"/invite/{t['invite_code']}/")
    assert r.status_code == 302 and r["Location"] == f"/tables/{t['id']}/?code={t['invite_code']}"
    assert g.get(r["Location"]).status_code == 200
    api = client_for(guest)
    assert api.get(f"/api/tables/invite/{t['invite_code']}/").json()["room_code"] == t["room_code"]
    r = api.post(f"/api/tables/{t['id']}/join/", {"code": t["invite_code"]}, format="json")
    assert r.status_code == 200 and r.json()["member"] is True


def test_open_private_tables_get_codes_when_migrated(people: Any) -> None:
    (host, _), (other, _) = people[:2]
    private = [Table.objects.create(host=host, visibility="private", move_seconds=60) for _ in range(3)]
    kept = Table.objects.create(host=host, visibility="private", move_seconds=60, room_code="KEPT22")
    public = Table.objects.create(host=other, visibility="public", move_seconds=60)
    started = Table.objects.create(host=other, visibility="private", move_seconds=60, status="started")
    migration = importlib.import_module("games.migrations.0016_table_room_code")
    migration.backfill_room_codes(apps, None)
    codes = [Table.objects.get(pk=t.pk).room_code for t in private]
    assert all(c and len(c) == 6 and set(c) <= set(ROOM_CODE_ALPHABET) for c in codes)
    assert len({*codes, "KEPT22"}) == 4
    assert Table.objects.get(pk=kept.pk).room_code == "KEPT22"
    assert Table.objects.get(pk=public.pk).room_code is None and Table.objects.get(pk=started.pk).room_code is None


def test_the_schema_documents_joining_by_code(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    op = schema["paths"]["/api/tables/join-by-code/"]["post"]
    assert "no_such_code" in op["description"] and {"200", "404", "429"} <= set(op["responses"])
    assert "room_code" in schema["components"]["schemas"]["Table"]["properties"]


@pytest.mark.parametrize("path", ["/", "/lobby/"])
def test_home_and_lobby_offer_joining_with_a_code(make_user: Any, path: str) -> None:
    page = browser(make_user("formuser")).get(path).content.decode()
    assert 'data-join-code' in page and 'autocapitalize="characters"' in page and 'maxlength="12"' in page
    assert "js/join_code.js" in page
    assert "data-join-code" not in APIClient().get("/").content.decode()  # logged out: sign up first
