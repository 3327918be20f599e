"""The end of a match among people: a rematch table inviting the same people, the rating change on the end
screen, and "My matches" kept current over ``/ws/me/``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from site_helpers import choose, client_for, ws

from games.matches import store as match_store
from games.models import Match, Notice, Table

pytestmark = pytest.mark.django_db(transaction=True)


def _finished_table_match(make_user: Any, rated: bool = True) -> tuple[Match, Any, Any]:
    """Amy hosts a rated table, Bo joins, two easy bots fill it (a rated table takes rated levels only); they
    play it to the end."""
    amy, bo = make_user("amy", email="amy@example.com"), make_user("bo", email="bo@example.com")
    ca, cb = client_for(amy), client_for(bo)
    table = ca.post("/api/tables/", {"visibility": "private", "move_seconds": 86400, "rated": rated},
                    format="json").json()
    assert cb.post(f"/api/tables/{table['id']}/join/", {"code": table["invite_code"]}, format="json").status_code == 200
    assert ca.post(f"/api/tables/{table['id']}/bots/", {"bot": "easy"}, format="json").status_code == 200
    assert ca.post(f"/api/tables/{table['id']}/start/").status_code == 201
    match = Match.objects.get(table__pk=table["id"])
    clients = {0: ca, 1: cb}
    rng = random.Random(5)
    while True:
        match.refresh_from_db()
        if match.status != "active":
            break
        mover = next(s for s in match_store.seats_of(match) if s.index == match.turn)
        client = clients[0] if mover.user_id == amy.pk else clients[1]
        view = client.get(f"/api/matches/{match.pk}/").json()
        assert client.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json").status_code == 200
    return match, amy, bo


def test_rematch_invites_the_same_people_to_a_table_with_the_same_settings(make_user: Any) -> None:
    match, amy, bo = _finished_table_match(make_user)
    ca, cb = client_for(amy), client_for(bo)
    end = ca.get(f"/api/matches/{match.pk}/").json()
    assert end["table_id"] == match.table.pk and end["rematch_table_id"] is None
    assert end["rating"] is not None and end["rating"]["change"] == pytest.approx(
        end["rating"]["after"] - end["rating"]["before"], abs=0.011)
    mail.outbox.clear()
    r = ca.post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 201, r.content
    table = r.json()
    old = match.table
    assert (table["visibility"], table["move_seconds"], table["rated"]) == (old.visibility, old.move_seconds, old.rated)
    seats = {s["seat"]: s for s in table["seats"]}
    for seat in match_store.seats_of(match):
        if seat.kind == "bot":
            assert seats[seat.index]["kind"] == "bot" and seats[seat.index]["bot"] == seat.bot
        elif seat.user_id == amy.pk:
            assert seats[seat.index]["you"] and table["you_host"]
        else:
            assert seats[seat.index]["kind"] == "empty"  # kept for Bo, who is invited
    notice = Notice.objects.get(user=bo, match=match, kind="rematch")
    assert [m.subject for m in mail.outbox if "bo@example.com" in m.to] == [
        f"Call Break: you are invited to a rematch of match {match.pk}"]
    assert Table.objects.get(pk=table["id"]).invite_code in mail.outbox[-1].body and notice
    # Bo asks too: the same table; he takes his old seat with the code he was sent
    again = cb.post(f"/api/matches/{match.pk}/rematch/")
    assert again.status_code == 200 and again.json()["id"] == table["id"]
    assert cb.get(f"/api/matches/{match.pk}/").json()["rematch_table_id"] == table["id"]
    bo_seat = next(s.index for s in match_store.seats_of(match) if s.user_id == bo.pk)
    code = Table.objects.get(pk=table["id"]).invite_code
    joined = cb.post(f"/api/tables/{table['id']}/join/", {"seat": bo_seat, "code": code}, format="json")
    assert joined.status_code == 200 and any(s["you"] for s in joined.json()["seats"])


def test_rematch_refusals(make_user: Any) -> None:
    stranger = make_user("zed")
    amy = make_user("amy2")
    bot_match = client_for(amy).post("/api/matches/", {"opponents": "bots"}, format="json").json()
    r = client_for(amy).post(f"/api/matches/{bot_match['id']}/rematch/")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    Match.objects.filter(pk=bot_match["id"]).update(status="finished")
    r = client_for(amy).post(f"/api/matches/{bot_match['id']}/rematch/")
    assert r.status_code == 400 and r.json()["code"] == "no_table"
    r = client_for(stranger).post(f"/api/matches/{bot_match['id']}/rematch/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


async def test_my_matches_rows_arrive_on_the_user_socket(make_user: Any) -> None:
    amy = await database_sync_to_async(make_user)("amy3")
    tab = await ws("/ws/me/", amy)
    created = await database_sync_to_async(
        lambda: client_for(amy).post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json"))()
    view = created.json()
    rows = []
    while True:  # the start and the bots' moves, each as amy's row of My matches
        msg = await tab.receive_json_from(timeout=5)
        if msg.get("type") == "match":
            rows.append(msg["match"])
            if msg["match"]["seq"] == view["seq"]:
                break
    last = rows[-1]
    assert last["id"] == view["id"] and last["your_turn"] and last["you"] == 0
    listed = await database_sync_to_async(lambda: client_for(amy).get("/api/matches/").json())()
    assert listed[0] == last  # exactly a row of GET /api/matches/
    assert all("hand" not in row for row in rows)
    await tab.disconnect()


def test_the_installable_app_is_served(client: Any) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] and manifest.json()["icons"]
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw["Service-Worker-Allowed"] == "/" and "javascript" in sw["Content-Type"]
    assert client.get("/offline/").status_code == 200
