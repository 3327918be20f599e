"""Quick match: four people at once share one match with no bot; a person alone gets three bots after the wait;
the rating window; one waiting seek per person; a cancelled seek is never seated; deactivated accounts' seeks
are dropped; two pairing runs at once (PostgreSQL, threads) never seat anyone twice."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from site_helpers import client_for, race, ws

from games.models import Match, Rating, Seat, Seek, Table
from games.quickmatch import commands, reads
from games.tasks import pair_quick_matches

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_timer_threads(settings: Any) -> None:
    """The tests run the pairing themselves (time frozen or moved on); no timer thread outlives a test."""
    settings.QUICK_MATCH_EAGER_TIMER = False
    settings.QUICK_MATCH_BOTS_AFTER = 20


def seek(client: Any, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quick-match/", {"pace": "live", "rated": True, **body}, format="json")
    assert r.status_code == 201, r.content
    data: dict[str, Any] = r.json()
    return data


def test_four_people_at_once_get_one_match_without_bots(make_user: Any) -> None:
    people = [make_user(f"q{i}") for i in range(4)]
    clients = [client_for(u) for u in people]
    with time_machine.travel(timezone.now(), tick=False):
        first = [seek(c) for c in clients[:3]]
        assert [s["status"] for s in first] == ["waiting"] * 3 and not Match.objects.exists()
        assert set(first[0]) == {"id", "status", "pool", "pace", "rated", "match_id", "waiting_since", "bots_after"}
        last = seek(clients[3])  # the fourth completes the table at once (the pairing kicked after the commit)
    assert last["status"] == "matched" and last["match_id"]
    match = Match.objects.get()
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    assert {s.user_id for s in seats} == {u.pk for u in people} and all(s.kind == "human" for s in seats)
    assert match.rated and match.move_seconds == 15
    for c, s in zip(clients, [*first, last], strict=True):
        got = c.get(f"/api/quick-match/{s['id']}/").json()
        assert got["status"] == "matched" and got["match_id"] == match.pk
        assert c.get(f"/api/matches/{match.pk}/").status_code == 200  # each is seated there
    assert Table.objects.get(match=match).status == "started"  # a table's match: the rematch is offered


def test_alone_gets_three_bots_after_the_wait(make_user: Any) -> None:
    amy = make_user("amy")
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        s = seek(client_for(amy))
        assert s["status"] == "waiting" and s["bots_after"] == 20
        clock.shift(timedelta(seconds=19))
        assert pair_quick_matches.apply().get() == 0  # not yet
        assert client_for(amy).get(f"/api/quick-match/{s['id']}/").json()["status"] == "waiting"
        clock.shift(timedelta(seconds=1.5))
        assert pair_quick_matches.apply().get() == 1
    got = client_for(amy).get(f"/api/quick-match/{s['id']}/").json()
    assert got["status"] == "matched"
    seats = list(Seat.objects.filter(match_id=got["match_id"]))
    assert sorted(x.kind for x in seats) == ["bot", "bot", "bot", "human"]
    assert {x.bot for x in seats if x.kind == "bot"} == {"normal"}  # a new person's skill is normal's prior


def test_the_bots_level_is_the_nearest_to_the_people(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_BOTS_AFTER = 0
    strong = make_user("strong")
    Rating.objects.create(user=strong, mu=31.0, sigma=2.0, games=40)
    match_id = seek(client_for(strong))["match_id"]
    assert {x.bot for x in Seat.objects.filter(match_id=match_id, kind="bot")} == {"hard"}
    Rating.objects.create(bot="hard", mu=40.0, sigma=2.0, games=100)  # the hard bot proved far stronger
    assert reads.nearest_bot_level(31.0) == "normal" and reads.nearest_bot_level(18.0) == "easy"


def test_the_rating_window_widens_with_the_wait(make_user: Any) -> None:
    people = [make_user(f"w{i}") for i in range(4)]
    for u, mu in zip(people, (25.0, 25.5, 26.0, 33.0), strict=True):
        Rating.objects.create(user=u, mu=mu, sigma=3.0, games=10)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        ids = [seek(client_for(u))["id"] for u in people]
        assert not Match.objects.exists()  # 8 apart: outside the first window (2)
        clock.shift(timedelta(seconds=10))  # 2 + 0.25 * 10 = 4.5: still out
        assert commands.pair() == []
        clock.shift(timedelta(seconds=14))  # 24 s: past the wait, but 2 + 6 = 8 takes the fourth in
        assert len(commands.pair()) == 1
    assert {s.status for s in Seek.objects.filter(pk__in=ids)} == {"matched"}
    assert Seat.objects.filter(kind="bot").count() == 0


def test_unrated_seeks_take_anyone_and_paces_stay_apart(make_user: Any) -> None:
    people = [make_user(f"u{i}") for i in range(5)]
    Rating.objects.create(user=people[0], mu=40.0, sigma=1.0, games=100)
    with time_machine.travel(timezone.now(), tick=False):
        seek(client_for(people[4]), pace="correspondence", rated=False)
        out = [seek(client_for(u), rated=False) for u in people[:4]]
    assert out[-1]["status"] == "matched"
    match = Match.objects.get()
    assert not match.rated and match.move_seconds == 15
    assert Seek.objects.get(user=people[4]).status == "waiting"


def test_one_waiting_seek_per_person(make_user: Any) -> None:
    amy = make_user("amy")
    c = client_for(amy)
    first = seek(c)
    r = c.post("/api/quick-match/", {"pace": "live"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_seeking" and r.json()["id"] == first["id"]
    with pytest.raises(IntegrityError), transaction.atomic():  # the database itself refuses a second one
        Seek.objects.create(user=amy, pace="correspondence", skill=25, waiting_since=timezone.now())
    assert c.delete(f"/api/quick-match/{first['id']}/").json()["status"] == "cancelled"
    assert seek(c)["status"] == "waiting"  # once cancelled, a new one is fine


def test_bad_requests_and_strangers(make_user: Any) -> None:
    amy, bob = make_user("amy"), make_user("bob")
    r = client_for(amy).post("/api/quick-match/", {"pace": "blitz"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = client_for(amy).post("/api/quick-match/", {"rated": "yes"}, format="json")
    assert r.status_code == 400
    mine = seek(client_for(amy))
    for method in ("get", "delete"):
        r = getattr(client_for(bob), method)(f"/api/quick-match/{mine['id']}/")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert client_for(amy).get("/api/quick-match/999999/").status_code == 404
    from rest_framework.test import APIClient
    assert APIClient().post("/api/quick-match/", {}, format="json").status_code in (401, 403)


def test_a_cancelled_seek_is_never_seated(make_user: Any, settings: Any) -> None:
    people = [make_user(f"c{i}") for i in range(4)]
    with time_machine.travel(timezone.now(), tick=False) as clock:
        ids = [seek(client_for(u))["id"] for u in people[:3]]
        cancelled = client_for(people[0]).delete(f"/api/quick-match/{ids[0]}/").json()
        assert cancelled["status"] == "cancelled" and cancelled["match_id"] is None
        seek(client_for(people[3]))
        assert not Match.objects.exists()  # three waiting, not four
        clock.shift(timedelta(seconds=30))
        assert len(commands.pair()) == 1
    match = Match.objects.get()
    humans = set(Seat.objects.filter(match=match, kind="human").values_list("user_id", flat=True))
    assert humans == {u.pk for u in people[1:]}
    assert Seek.objects.get(pk=ids[0]).status == "cancelled"
    # cancelling a seated seek leaves it seated
    r = client_for(people[1]).delete(f"/api/quick-match/{ids[1]}/").json()
    assert r["status"] == "matched" and r["match_id"] == match.pk


def test_a_deactivated_accounts_seek_is_dropped(make_user: Any) -> None:
    people = [make_user(f"d{i}") for i in range(4)]
    with time_machine.travel(timezone.now(), tick=False):
        ids = [seek(client_for(u))["id"] for u in people[:3]]
        type(people[0]).objects.filter(pk=people[0].pk).update(is_active=False)
        seek(client_for(people[3]))
    assert not Match.objects.exists()
    assert Seek.objects.get(pk=ids[0]).status == "cancelled"
    assert Seek.objects.filter(status="waiting").count() == 3


async def test_the_account_socket_says_matched(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_BOTS_AFTER = 0
    amy = await database_sync_to_async(make_user)("amy")
    tab = await ws("/ws/me/", amy)
    s = await database_sync_to_async(lambda: seek(client_for(amy)))()
    while True:
        msg = await tab.receive_json_from(timeout=5)
        if msg.get("type") == "matched":
            break
    assert msg == {"type": "matched", "match_id": s["match_id"]}
    await tab.disconnect()




@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks with SKIP LOCKED need PostgreSQL")
def test_two_pairing_runs_at_once_never_seat_anyone_twice(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_BOTS_AFTER = 0  # everyone may be seated with bots: the runs race for every seek
    people = [make_user(f"p{i}") for i in range(30)]
    for round_ in range(3):
        now = timezone.now()
        Seek.objects.bulk_create(
            Seek(user=u, pace="live", rated=i % 2 == 0, skill=25.0 + (i % 7), waiting_since=now - timedelta(seconds=i))
            for i, u in enumerate(people))
        made, errors = race(2, commands.pair)
        assert not errors, errors
        new = [m for ms in made for m in ms]
        seated = list(Seat.objects.filter(match_id__in=new, kind="human").values_list("user_id", flat=True))
        assert sorted(seated) == sorted(u.pk for u in people), f"round {round_}"  # each person exactly once
        assert not Seek.objects.filter(status="waiting").exists()
        for m in new:
            assert {s.match_id for s in Seek.objects.filter(match_id=m)} == {m}


async def test_who_is_here_is_counted_and_told(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_HERE_SECONDS = 0  # told at every change (not at most every 3 s)
    amy, bo = await database_sync_to_async(make_user)("amy"), await database_sync_to_async(make_user)("bo")
    count = await database_sync_to_async(lambda: client_for(bo).get("/api/quick-match/here/").json())()
    assert count == {"playing": 0, "waiting": 0}
    tab = await ws("/ws/me/", bo)  # Bo on the home page
    s = await database_sync_to_async(lambda: seek(client_for(amy)))()
    assert await next_here(tab) == {"type": "here", "playing": 0, "waiting": 1}
    await database_sync_to_async(lambda: client_for(amy).delete(f"/api/quick-match/{s['id']}/"))()
    assert await next_here(tab) == {"type": "here", "playing": 0, "waiting": 0}
    # a match page open counts as playing
    match = await database_sync_to_async(lambda: client_for(amy).post(
        "/api/matches/", {"opponents": "bots"}, format="json").json())()
    page = await ws(f"/ws/matches/{match['id']}/", amy)
    await database_sync_to_async(pair_quick_matches.apply)()  # beat's run counts again
    assert await next_here(tab) == {"type": "here", "playing": 1, "waiting": 0}
    count = await database_sync_to_async(lambda: client_for(bo).get("/api/quick-match/here/").json())()
    assert count == {"playing": 1, "waiting": 0}
    await page.disconnect()
    await tab.disconnect()


async def next_here(tab: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = await tab.receive_json_from(timeout=5)
        if msg.get("type") == "here":
            return msg
