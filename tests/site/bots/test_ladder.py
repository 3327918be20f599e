"""The bot ladder: the bots' quick-match pool (`"pool": "bots"`). Only bot accounts seek there, and only there;
bot seeks are paired with each other, and after the short wait the ladder's house bots (`heuristic`, `strong`)
fill the empty seats; people are never seated from it; its matches are rated on the bots' board, the house bots'
ratings frozen (the yardstick); a bot's cap of matches at once holds; two pairing runs at once seat every bot
once (PostgreSQL)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient
from site_helpers import choose, client_for

from games.models import BotAccount, Match, Rating, RatingChange, Seat, Seek
from games.quickmatch import commands
from games.ratings.reads import YARDSTICKS
from games.tasks import pair_quick_matches

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _waits(settings: Any) -> None:
    """The tests run the pairing themselves (time frozen or moved on); no timer thread outlives a test."""
    settings.QUICK_MATCH_EAGER_TIMER = False
    settings.QUICK_MATCH_BOTS_AFTER = 20
    settings.QUICK_MATCH_BOT_POOL_AFTER = 5
    settings.BOT_LADDER_HOUSE_BOTS = ["heuristic", "strong"]


def make_bot(make_user: Any, name: str) -> tuple[Any, APIClient]:
    user = make_user(name)
    client = client_for(user)
    assert client.post("/api/bot/account/upgrade/", {}, format="json").status_code == 201
    return user, client


def bot_seek(client: APIClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quick-match/", {"pool": "bots", **body}, format="json")
    assert r.status_code == 201, r.content
    data: dict[str, Any] = r.json()
    return data


def seats_of(match_id: int) -> list[Seat]:
    return list(Seat.objects.filter(match_id=match_id).order_by("index"))


def test_only_bot_accounts_in_the_bots_pool_and_only_there(make_user: Any) -> None:
    person = client_for(make_user("amy"))
    _, robo = make_bot(make_user, "robo")
    r = person.post("/api/quick-match/", {"pool": "bots"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_a_bot"
    r = robo.post("/api/quick-match/", {}, format="json")  # the default pool is people's
    assert r.status_code == 403 and r.json()["code"] == "bots_pool_only"
    r = robo.post("/api/quick-match/", {"pool": "people"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "bots_pool_only"
    r = robo.post("/api/quick-match/", {"pool": "robots"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_pool"
    r = robo.post("/api/quick-match/", {"pool": "bots", "rated": False}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "ladder_is_rated"
    assert not Seek.objects.exists()
    s = bot_seek(robo)
    assert s["status"] == "waiting" and s["pool"] == "bots" and s["rated"] and s["bots_after"] == 5
    assert robo.get(f"/api/quick-match/{s['id']}/").json()["pool"] == "bots"
    r = robo.post("/api/quick-match/", {"pool": "bots"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_seeking" and r.json()["id"] == s["id"]
    # a bot's seek is not a person waiting
    assert person.get("/api/quick-match/here/").json()["waiting"] == 0


def test_two_bots_are_paired_and_house_bots_fill_after_the_wait_and_people_stay_apart(make_user: Any) -> None:
    (a, ca), (b, cb) = make_bot(make_user, "robo_a"), make_bot(make_user, "robo_b")
    amy = make_user("amy")
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        sa, sb = bot_seek(ca), bot_seek(cb)
        person = client_for(amy).post("/api/quick-match/", {"pace": "live"}, format="json").json()
        assert sb["status"] == "waiting"  # two bots are not four
        clock.shift(timedelta(seconds=4.5))
        assert pair_quick_matches.apply().get() == 0  # not yet
        clock.shift(timedelta(seconds=1))
        assert pair_quick_matches.apply().get() == 1
    ga, gb = ca.get(f"/api/quick-match/{sa['id']}/").json(), cb.get(f"/api/quick-match/{sb['id']}/").json()
    assert ga["status"] == gb["status"] == "matched" and ga["match_id"] == gb["match_id"]
    match = Match.objects.get(pk=ga["match_id"])
    assert match.rated
    seats = seats_of(match.pk)
    assert {s.user_id for s in seats if s.kind == "human"} == {a.pk, b.pk}
    assert all(s.bot_account for s in seats if s.kind == "human")
    house = [s.bot for s in seats if s.kind == "bot"]
    assert len(house) == 2 and set(house) <= set(YARDSTICKS)
    # the person waits on in people's pool (20 s), never seated with the bots
    assert client_for(amy).get(f"/api/quick-match/{person['id']}/").json()["status"] == "waiting"
    with time_machine.travel(start + timedelta(seconds=21), tick=False):
        assert len(commands.pair()) == 1
    theirs = Seek.objects.get(pk=person["id"])
    people_seats = seats_of(theirs.match_id)
    assert [s.user_id for s in people_seats if s.kind == "human"] == [amy.pk]
    assert {s.bot for s in people_seats if s.kind == "bot"} <= {"easy", "normal", "hard"}


def test_a_lone_bot_gets_house_bots_of_the_set_after_the_wait(make_user: Any, settings: Any) -> None:
    settings.BOT_LADDER_HOUSE_BOTS = ["strong"]
    _, robo = make_bot(make_user, "robo")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        s = bot_seek(robo)
        clock.shift(timedelta(seconds=4))
        assert commands.pair() == []
        clock.shift(timedelta(seconds=1.5))
        made = commands.pair()
    assert len(made) == 1 and robo.get(f"/api/quick-match/{s['id']}/").json()["match_id"] == made[0]
    assert sorted(str(x.bot or x.kind) for x in seats_of(made[0])) == ["human", "strong", "strong", "strong"]


def test_four_bots_share_a_match_at_once_whatever_their_ratings(make_user: Any) -> None:
    bots = [make_bot(make_user, f"robo{i}") for i in range(4)]
    Rating.objects.create(user=bots[0][0], mu=40.0, sigma=1.0, games=50)  # far from the others: paired anyway
    with time_machine.travel(timezone.now(), tick=False):
        seeks = [bot_seek(c) for _, c in bots]
    assert seeks[-1]["status"] == "matched"
    seats = seats_of(seeks[-1]["match_id"])
    assert {s.user_id for s in seats} == {u.pk for u, _ in bots} and all(s.kind == "human" for s in seats)


def play_out(match_id: int, clients: dict[int, APIClient]) -> None:
    """Play the bot accounts' seats (by user id) with random legal moves until the match is over; the house bots
    play themselves (eager tasks)."""
    rng = random.Random(28)
    for _ in range(400):
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            return
        seat = Seat.objects.get(match_id=match_id, index=match.turn)
        assert seat.user_id in clients, "a house bot's turn left unplayed"
        client = clients[seat.user_id]
        view = client.get(f"/api/matches/{match_id}/").json()
        r = client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json")
        assert r.status_code == 200, r.content
    raise AssertionError("the match did not end")


def test_a_ladder_match_moves_the_bots_ratings_and_not_the_yardsticks(make_user: Any, settings: Any) -> None:
    settings.BOT_LADDER_HOUSE_BOTS = ["heuristic"]  # quick in a test
    (a, ca), (b, cb) = make_bot(make_user, "robo_a"), make_bot(make_user, "robo_b")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        sa = bot_seek(ca)
        bot_seek(cb)
        clock.shift(timedelta(seconds=6))
        assert len(commands.pair()) == 1
    match_id = ca.get(f"/api/quick-match/{sa['id']}/").json()["match_id"]
    play_out(match_id, {a.pk: ca, b.pk: cb})
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.rated and match.rated_at is not None
    for user in (a, b):
        rating = Rating.objects.get(user=user)
        change = RatingChange.objects.get(rating=rating, match=match)
        assert rating.games == 1 and (rating.mu, rating.sigma) == (change.mu_after, change.sigma_after)
        assert (change.mu_after, change.sigma_after) != (change.mu_before, change.sigma_before)
        assert rating.sigma < 25 / 3  # it learned something
    yardstick = Rating.objects.get(bot="heuristic")
    assert (yardstick.mu, yardstick.sigma) == YARDSTICKS["heuristic"] and yardstick.games == 1
    change = RatingChange.objects.get(rating=yardstick, match=match)
    assert (change.mu_before, change.sigma_before) == (change.mu_after, change.sigma_after) == YARDSTICKS["heuristic"]
    board = ca.get("/api/leaderboard/?board=bots").json()
    assert {r["name"] for r in board} == {"robo_a", "robo_b", "bot:heuristic"}
    assert [r["fixed"] for r in board if r["name"] == "bot:heuristic"] == [True]
    people = ca.get("/api/leaderboard/").json()
    assert all(r["name"] != "bot:heuristic" for r in people)  # the yardstick is the bots' own
    from django.test import Client
    assert 'data-testid="fixed-rating"' in Client().get("/leaderboard/?board=bots").content.decode()
    assert 'data-testid="fixed-rating"' not in Client().get("/leaderboard/").content.decode()
    # a second match starts from where the first left the bots, the yardstick still where it was
    before = Rating.objects.get(user=a).mu
    with time_machine.travel(timezone.now(), tick=False) as clock:
        s2 = bot_seek(ca)
        clock.shift(timedelta(seconds=6))
        commands.pair()
    play_out(ca.get(f"/api/quick-match/{s2['id']}/").json()["match_id"], {a.pk: ca})
    assert Rating.objects.get(user=a).games == 2 and Rating.objects.get(user=a).mu != before
    assert Rating.objects.get(bot="heuristic").games == 2  # a match counts once, however many seats it had
    assert (Rating.objects.get(bot="heuristic").mu, Rating.objects.get(bot="heuristic").sigma) == YARDSTICKS[
        "heuristic"]


def test_a_rated_table_among_people_still_refuses_the_ladders_house_bots(make_user: Any) -> None:
    host = client_for(make_user("hosty"))
    tid = host.post("/api/tables/", {"visibility": "private", "rated": True}, format="json").json()["id"]
    r = host.post(f"/api/tables/{tid}/bots/", {"bot": "heuristic"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unrated_bot"


def test_the_cap_on_matches_at_once_holds_in_the_bots_pool(make_user: Any, settings: Any) -> None:
    settings.BOT_MAX_ACTIVE_MATCHES = 2
    robo, client = make_bot(make_user, "robo")
    first = client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").json()
    second = client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").json()
    r = client.post("/api/quick-match/", {"pool": "bots"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "too_many_matches" and r.json()["limit"] == 2
    assert client.post(f"/api/matches/{second['id']}/resign/").status_code == 200  # a house bot takes it over
    with time_machine.travel(timezone.now(), tick=False) as clock:
        s = bot_seek(client)  # one match running: room for this one
        # meanwhile it starts another match itself: at its cap, its seek waits on
        assert client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").status_code == 201
        clock.shift(timedelta(seconds=10))
        assert commands.pair() == []
        assert Seek.objects.get(pk=s["id"]).status == "waiting"
        assert client.post(f"/api/matches/{first['id']}/resign/").status_code == 200
        made = commands.pair()  # room again
    assert len(made) == 1 and Seek.objects.get(pk=s["id"]).match_id == made[0]
    active = Seat.objects.filter(user=robo, match__status="active", autopilot=False).count()
    assert active == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks with SKIP LOCKED need PostgreSQL")
def test_two_pairing_runs_at_once_seat_every_bot_once_and_never_with_people(make_user: Any, settings: Any) -> None:
    from site_helpers import race

    from games.quickmatch import commands as quick_commands

    settings.QUICK_MATCH_BOTS_AFTER = 0
    settings.QUICK_MATCH_BOT_POOL_AFTER = 0
    settings.BOT_LADDER_HOUSE_BOTS = ["heuristic"]
    bots = [make_user(f"bot{i}") for i in range(14)]
    BotAccount.objects.bulk_create(BotAccount(user=u) for u in bots)
    people = [make_user(f"p{i}") for i in range(14)]
    now = timezone.now()
    Seek.objects.bulk_create(
        [Seek(user=u, pool="bots", pace="live", skill=25.0, waiting_since=now - timedelta(seconds=i))
         for i, u in enumerate(bots)]
        + [Seek(user=u, pace="live", skill=25.0, waiting_since=now - timedelta(seconds=i))
           for i, u in enumerate(people)])
    made, errors = race(2, quick_commands.pair)
    assert not errors, errors
    new = [m for ms in made for m in ms]
    bot_ids, people_ids = {u.pk for u in bots}, {u.pk for u in people}
    seated: list[int] = []
    for m in new:
        humans = set(Seat.objects.filter(match_id=m, kind="human").values_list("user_id", flat=True))
        assert humans <= bot_ids or humans <= people_ids, "people and bots at one table"
        seated += humans
    assert sorted(seated) == sorted(bot_ids | people_ids)  # each exactly once
    assert not Seek.objects.filter(status="waiting").exists()
