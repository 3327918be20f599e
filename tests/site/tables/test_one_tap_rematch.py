"""The one-tap rematch at the end of a match at a table (quick matches included): the same seats (bots at their
levels), pace and rating; started at once when the asker is the only person, else once every person said yes; a
no or the time calls it off (and it may be asked again); however many taps, one rematch. Its people hear it on
``/ws/me/``. Also the end screen's rating change of a rated match."""

from __future__ import annotations

import random
import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.core import mail
from django.db import connection, connections
from django.utils import timezone
from site_helpers import browser, choose, client_for, next_of, ws

from games.matches import store as match_store
from games.models import Match, Notice, Seat, Table
from games.tasks import sweep

pytestmark = pytest.mark.django_db(transaction=True)


def _played_table_match(make_user: Any) -> tuple[Match, Any, Any]:
    """Amy hosts a rated private table, Bo joins, two easy bots fill it; they play it to the end."""
    amy, bo = make_user("amy", email="amy@example.com"), make_user("bo", email="bo@example.com")
    ca, cb = client_for(amy), client_for(bo)
    table = ca.post("/api/tables/", {"visibility": "private", "move_seconds": 86400, "rated": True},
                    format="json").json()
    assert cb.post(f"/api/tables/{table['id']}/join/", {"code": table["invite_code"]}, format="json").status_code == 200
    assert ca.post(f"/api/tables/{table['id']}/bots/", {"bot": "easy"}, format="json").status_code == 200
    assert ca.post(f"/api/tables/{table['id']}/start/").status_code == 201
    match = Match.objects.get(table__pk=table["id"])
    rng = random.Random(5)
    while True:
        match.refresh_from_db()
        if match.status != "active":
            break
        mover = next(s for s in match_store.seats_of(match) if s.index == match.turn)
        client = ca if mover.user_id == amy.pk else cb
        view = client.get(f"/api/matches/{match.pk}/").json()
        assert client.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json").status_code == 200
    return match, amy, bo


def _table_match(make_user: Any, *, rated: bool = False, move_seconds: int = 86400, bot: str = "easy",
                 names: tuple[str, ...] = ("amy", "bo")) -> tuple[Match, list[Any]]:
    """A private table of ``names`` (seats 0, 1, ...) and bots of ``bot`` in the other seats, started, and its
    match marked finished (the rematch asks nothing of the play itself)."""
    people = [make_user(n, email=f"{n}@example.com") for n in names]
    host = client_for(people[0])
    table = host.post("/api/tables/", {"visibility": "private", "move_seconds": move_seconds, "rated": rated},
                      format="json").json()
    for person in people[1:]:
        r = client_for(person).post(f"/api/tables/{table['id']}/join/", {"code": table["invite_code"]}, format="json")
        assert r.status_code == 200
    if len(people) < 4:
        assert host.post(f"/api/tables/{table['id']}/bots/", {"bot": bot}, format="json").status_code == 200
    assert host.post(f"/api/tables/{table['id']}/start/").status_code == 201
    match = Match.objects.get(table__pk=table["id"])
    Match.objects.filter(pk=match.pk).update(status="finished", turn=None, deadline=None)
    match.refresh_from_db()
    return match, people


def _seats(match_id: int) -> list[tuple[int, str, int | None, str, bool]]:
    return [(s.index, s.kind, s.user_id, s.bot, s.bot_account)
            for s in Seat.objects.filter(match_id=match_id).order_by("index")]


def _answer(client: Any, match_id: int, answer: str) -> Any:
    return client.post(f"/api/matches/{match_id}/rematch/answer/", {"answer": answer}, format="json")


def test_the_end_screen_of_a_rated_match_shows_the_rating_and_the_rematch_waits_for_yes(make_user: Any) -> None:
    match, amy, bo = _played_table_match(make_user)
    ca, cb = client_for(amy), client_for(bo)
    end = ca.get(f"/api/matches/{match.pk}/").json()
    assert end["table_id"] == match.table.pk and end["rematch_table_id"] is None
    assert end["rating"] is not None and end["rating"]["change"] == pytest.approx(
        end["rating"]["after"] - end["rating"]["before"], abs=0.011)
    assert ca.get(f"/api/matches/{match.pk}/rematch/").json()["status"] == "none"
    mail.outbox.clear()
    r = ca.post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 201, r.content
    asked = r.json()
    bo_seat = next(s.index for s in match_store.seats_of(match) if s.user_id == bo.pk)
    assert asked["status"] == "pending" and asked["asked_by"] == "amy" and not asked["you_to_answer"]
    assert asked["waiting"] == [{"seat": bo_seat, "name": "bo"}] and asked["new_match_id"] is None
    assert Notice.objects.filter(user=bo, match=match, kind="rematch").count() == 1
    assert not Notice.objects.filter(user=amy, kind="rematch").exists()
    [email] = [m for m in mail.outbox if "bo@example.com" in m.to]
    assert email.subject == f"Call Break: you are invited to a rematch of match {match.pk}"
    assert f"/play/{match.pk}/" in email.body  # answered on the old match's end dialog
    assert cb.get(f"/api/matches/{match.pk}/rematch/").json()["you_to_answer"] is True
    assert Match.objects.count() == 1  # nothing starts before bo's yes
    r = _answer(cb, match.pk, "yes")
    assert r.status_code == 200 and r.json()["status"] == "started"
    new_id = r.json()["new_match_id"]
    assert _seats(new_id) == _seats(match.pk)
    new = Match.objects.get(pk=new_id)
    assert (new.rated, new.move_seconds, new.chat) == (True, 86400, True)
    assert ca.get(f"/api/matches/{match.pk}/rematch/").json()["new_match_id"] == new_id
    assert ca.get(f"/api/matches/{match.pk}/").json()["rematch_table_id"] == Table.objects.get(rematch_of=match).pk
    # the rematch's table has no room of its own: its old link leads to the new match
    page = browser(amy).get(f"/tables/{Table.objects.get(rematch_of=match).pk}/")
    assert page.status_code == 302 and page["Location"] == f"/play/{new_id}/"


def test_one_person_with_bots_starts_at_once_with_the_same_bots_and_levels(make_user: Any) -> None:
    match, [amy] = _table_match(make_user, bot="hard", names=("amy",))
    Seat.objects.filter(match=match, index=2).update(bot="normal")  # levels kept seat by seat
    r = client_for(amy).post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 201 and r.json()["status"] == "started", r.content
    new_id = r.json()["new_match_id"]
    assert _seats(new_id) == _seats(match.pk)
    assert [s[3] for s in _seats(new_id)] == ["", "hard", "normal", "hard"]
    assert client_for(amy).get(f"/api/matches/{new_id}/").json()["status"] == "active"
    again = client_for(amy).post(f"/api/matches/{match.pk}/rematch/")  # a double tap: the same rematch
    assert again.status_code == 200 and again.json()["new_match_id"] == new_id
    assert Match.objects.count() == 2
    r = _answer(client_for(amy), match.pk, "yes")
    assert r.status_code == 409 and r.json()["code"] == "already_answered"


def test_a_quick_match_rematch_keeps_its_live_pace_and_rating(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_EAGER_TIMER, settings.QUICK_MATCH_BOTS_AFTER = False, 0
    amy = make_user("amy")
    got = client_for(amy).post("/api/quick-match/", {"pace": "live", "rated": True}, format="json").json()
    old = Match.objects.get(pk=got["match_id"])
    Match.objects.filter(pk=old.pk).update(status="finished", turn=None, deadline=None)
    r = client_for(amy).post(f"/api/matches/{old.pk}/rematch/")
    assert r.status_code == 201 and r.json()["status"] == "started", r.content
    new = Match.objects.get(pk=r.json()["new_match_id"])
    assert old.move_seconds == 15 and (new.move_seconds, new.rated, new.chat) == (15, True, False)
    assert _seats(new.pk) == _seats(old.pk)
    assert {s.bank_seconds for s in Seat.objects.filter(match=new, kind="human")} == {30}  # the live pace's bank


def test_a_no_calls_it_off_and_it_may_be_asked_again(make_user: Any) -> None:
    match, (amy, bo) = _table_match(make_user)
    ca, cb = client_for(amy), client_for(bo)
    assert ca.post(f"/api/matches/{match.pk}/rematch/").json()["status"] == "pending"
    r = _answer(cb, match.pk, "no")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    for client in (ca, cb):
        r = _answer(client, match.pk, "yes")
        assert r.status_code == 409 and r.json()["code"] == "rematch_cancelled"
    assert Match.objects.count() == 1
    # asked anew (by bo this time): amy's tap is her yes, and it starts
    assert cb.post(f"/api/matches/{match.pk}/rematch/").status_code == 201
    r = ca.post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 200 and r.json()["status"] == "started"
    assert Match.objects.count() == 2 and Table.objects.filter(rematch_of=match).count() == 1


def test_double_taps_and_both_tapping_make_one_match(make_user: Any) -> None:
    match, (amy, bo) = _table_match(make_user)
    ca, cb = client_for(amy), client_for(bo)
    first, second = ca.post(f"/api/matches/{match.pk}/rematch/"), ca.post(f"/api/matches/{match.pk}/rematch/")
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["status"] == "pending" and Match.objects.count() == 1
    r = _answer(ca, match.pk, "yes")
    assert r.status_code == 409 and r.json()["code"] == "already_answered"
    r = cb.post(f"/api/matches/{match.pk}/rematch/")  # bo taps Rematch too: his yes
    assert r.status_code == 200 and r.json()["status"] == "started"
    again = _answer(cb, match.pk, "yes")
    assert again.status_code == 409 and again.json()["code"] == "already_answered"
    assert again.json()["match_id"] == r.json()["new_match_id"]
    assert Match.objects.count() == 2


def test_an_unanswered_live_rematch_times_out_in_a_minute(make_user: Any) -> None:
    match, (amy, bo) = _table_match(make_user, move_seconds=60)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        asked = client_for(amy).post(f"/api/matches/{match.pk}/rematch/").json()
        assert asked["status"] == "pending"
        assert datetime.fromisoformat(asked["expires_at"]) == start + timedelta(seconds=60)
        clock.shift(timedelta(seconds=61))
        assert client_for(bo).get(f"/api/matches/{match.pk}/rematch/").json()["status"] == "cancelled"
        r = _answer(client_for(bo), match.pk, "yes")
        assert r.status_code == 409 and r.json()["code"] == "rematch_cancelled"
        assert sweep()["tables"] == 1
        assert Table.objects.get(rematch_of=match).status == "closed"
    assert Match.objects.count() == 1


def test_a_correspondence_rematch_waits_a_moves_time(make_user: Any) -> None:
    match, (amy, _bo) = _table_match(make_user, move_seconds=2 * 86400)
    asked = client_for(amy).post(f"/api/matches/{match.pk}/rematch/").json()
    left = (datetime.fromisoformat(asked["expires_at"]) - timezone.now()).total_seconds()
    assert 2 * 86400 - 60 < left <= 2 * 86400


def test_a_rated_rematch_checks_the_rated_tables_rules_again(make_user: Any) -> None:
    match, (amy, bo) = _table_match(make_user, rated=True)
    Seat.objects.filter(match=match, kind="bot").update(bot="random")  # not a rated level
    r = client_for(amy).post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 400 and r.json()["code"] == "unrated_bot"
    Seat.objects.filter(match=match, kind="bot").update(bot="easy")
    bo.is_active = False
    bo.save()
    r = client_for(amy).post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 409 and r.json()["code"] == "player_gone"
    assert not Table.objects.filter(rematch_of=match).exists()


def test_rematch_refusals(make_user: Any) -> None:
    stranger = make_user("zed")
    amy = make_user("amy2")
    bot_match = client_for(amy).post("/api/matches/", {"opponents": "bots"}, format="json").json()
    r = client_for(amy).post(f"/api/matches/{bot_match['id']}/rematch/")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    Match.objects.filter(pk=bot_match["id"]).update(status="finished")
    r = client_for(amy).post(f"/api/matches/{bot_match['id']}/rematch/")
    assert r.status_code == 400 and r.json()["code"] == "no_table"
    for path in ("rematch/", "rematch/answer/"):
        r = client_for(stranger).post(f"/api/matches/{bot_match['id']}/{path}", {"answer": "yes"}, format="json")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert client_for(stranger).get(f"/api/matches/{bot_match['id']}/rematch/").status_code == 404
    assert _answer(client_for(amy), bot_match["id"], "yes").status_code == 404  # nobody asked
    assert _answer(client_for(amy), bot_match["id"], "maybe").status_code == 400


async def test_the_other_persons_socket_hears_the_offer_and_the_start(make_user: Any) -> None:
    match, (amy, bo) = await database_sync_to_async(_table_match)(make_user)
    tab = await ws("/ws/me/", bo)
    mine = await ws("/ws/me/", amy)
    asked = await database_sync_to_async(lambda: client_for(amy).post(f"/api/matches/{match.pk}/rematch/"))()
    assert asked.status_code == 201
    heard: dict[str, dict[str, Any]] = {}
    while len(heard) < 2:  # the offer for the end dialog and the notice, in either order
        msg = await tab.receive_json_from(timeout=5)
        if msg.get("type") in ("rematch", "notice"):
            heard[msg["type"]] = msg
    offer, notice = heard["rematch"], heard["notice"]
    assert offer["status"] == "pending" and offer["match_id"] == match.pk and offer["asked_by"] == "amy"
    assert [w["name"] for w in offer["waiting"]] == ["bo"]
    assert notice["kind"] == "rematch" and notice["asked_by"] == "amy" and notice["match_id"] == match.pk
    said = await database_sync_to_async(lambda: _answer(client_for(bo), match.pk, "yes"))()
    for comm in (tab, mine):
        msg = await next_of(comm, "rematch")
        while msg["status"] != "started":
            msg = await next_of(comm, "rematch")
        assert msg["new_match_id"] == said.json()["new_match_id"]
    await tab.disconnect()
    await mine.disconnect()


async def test_a_no_is_told_to_the_others(make_user: Any) -> None:
    match, (amy, bo) = await database_sync_to_async(_table_match)(make_user)
    mine = await ws("/ws/me/", amy)
    await database_sync_to_async(lambda: client_for(amy).post(f"/api/matches/{match.pk}/rematch/"))()
    assert (await next_of(mine, "rematch"))["status"] == "pending"
    await database_sync_to_async(lambda: _answer(client_for(bo), match.pk, "no"))()
    off = await next_of(mine, "rematch")
    assert (off["status"], off["reason"], off["by"]) == ("cancelled", "declined", "bo")
    await mine.disconnect()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two requests at once need PostgreSQL's row locks")
def test_taps_at_once_make_one_rematch(make_user: Any) -> None:
    """Each of two people taps Rematch twice, all four requests at once (threads, each its own connection): one
    rematch table, one new match, started."""
    match, (amy, bo) = _table_match(make_user)
    barrier = threading.Barrier(4)
    codes: list[int] = []
    errors: list[BaseException] = []

    def tap(client: Any) -> None:
        try:
            barrier.wait(timeout=10)
            codes.append(client.post(f"/api/matches/{match.pk}/rematch/").status_code)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    # the four clients (a token each) made first, one after another: the taps race, not the log-ins
    clients = [client_for(u) for u in (amy, bo, amy, bo)]
    threads = [threading.Thread(target=tap, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors, errors
    assert sorted(codes) == [200, 200, 200, 201]
    assert Table.objects.filter(rematch_of=match).count() == 1 and Match.objects.count() == 2
    assert client_for(amy).get(f"/api/matches/{match.pk}/rematch/").json()["status"] == "started"


def test_leaving_a_live_end_screen_calls_the_pending_rematch_off(make_user: Any) -> None:
    match, (amy, bo) = _table_match(make_user, move_seconds=60)
    ca, cb = client_for(amy), client_for(bo)
    assert ca.post(f"/api/matches/{match.pk}/rematch/").json()["status"] == "pending"
    r = ca.post(f"/api/matches/{match.pk}/rematch/leave/")  # amy's page closed
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.content
    assert Table.objects.get(rematch_of=match).status == "closed"
    r = _answer(cb, match.pk, "yes")
    assert r.status_code == 409 and r.json()["code"] == "rematch_cancelled"
    assert Match.objects.count() == 1
    # nothing pending: leaving again changes nothing; a stranger's leave is a 404
    assert ca.post(f"/api/matches/{match.pk}/rematch/leave/").json()["status"] == "cancelled"
    assert client_for(make_user("cy")).post(f"/api/matches/{match.pk}/rematch/leave/").status_code == 404
    # asked anew, it starts as before
    assert cb.post(f"/api/matches/{match.pk}/rematch/").status_code == 201
    assert ca.post(f"/api/matches/{match.pk}/rematch/").json()["status"] == "started"


async def test_the_others_hear_who_left(make_user: Any) -> None:
    match, (amy, bo) = await database_sync_to_async(_table_match)(make_user, move_seconds=60)
    theirs = await ws("/ws/me/", bo)
    await database_sync_to_async(lambda: client_for(amy).post(f"/api/matches/{match.pk}/rematch/"))()
    assert (await next_of(theirs, "rematch"))["status"] == "pending"
    await database_sync_to_async(lambda: client_for(amy).post(f"/api/matches/{match.pk}/rematch/leave/"))()
    off = await next_of(theirs, "rematch")
    assert (off["status"], off["reason"], off["by"]) == ("cancelled", "left", "amy")
    await theirs.disconnect()


def test_a_correspondence_rematch_waits_on_when_its_asker_leaves(make_user: Any) -> None:
    match, (amy, bo) = _table_match(make_user)
    ca = client_for(amy)
    assert ca.post(f"/api/matches/{match.pk}/rematch/").json()["status"] == "pending"
    assert ca.post(f"/api/matches/{match.pk}/rematch/leave/").json()["status"] == "pending"
    assert client_for(bo).post(f"/api/matches/{match.pk}/rematch/").json()["status"] == "started"


def test_the_leave_beacon_a_form_with_its_csrf_token_is_taken(make_user: Any) -> None:
    """The end screen sends ``leave/`` as a beacon (no header): a form field carries the CSRF token, which is
    still required."""
    from django.test import Client

    match, (amy, _bo) = _table_match(make_user, move_seconds=60)
    assert client_for(amy).post(f"/api/matches/{match.pk}/rematch/").json()["status"] == "pending"
    page = Client(enforce_csrf_checks=True)
    page.force_login(amy)
    page.get("/lobby/")
    token = page.cookies["csrftoken"].value
    url = f"/api/matches/{match.pk}/rematch/leave/"
    form = "application/x-www-form-urlencoded"  # as the beacon sends it (URLSearchParams)
    assert page.post(url, "", content_type=form).status_code == 403  # no token: refused
    r = page.post(url, f"csrfmiddlewaretoken={token}", content_type=form)
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.content
