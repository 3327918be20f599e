"""The cap on live quick matches one person plays at once (``QUICK_MATCH_MAX_LIVE_MATCHES``, 3): a live seek past
it is refused (409 ``too_many_matches``, as a bot account's cap is); once one of them ends there is room again;
a waiting seek whose person is at the cap is not seated (it waits on) until then. Correspondence matches and
seats handed to the autopilot do not count."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient
from site_helpers import choose, client_for

from games.models import Match, Seat, Seek
from games.quickmatch import commands

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _waits(settings: Any) -> None:
    """Bots fill the seats at once unless a test says otherwise; no timer thread outlives a test."""
    settings.QUICK_MATCH_EAGER_TIMER = False
    settings.QUICK_MATCH_BOTS_AFTER = 0
    assert settings.QUICK_MATCH_MAX_LIVE_MATCHES == 3  # the default


def post_seek(client: APIClient, **body: Any) -> Any:
    return client.post("/api/quick-match/", {"pace": "live", "rated": False, **body}, format="json")


def live_match(client: APIClient) -> int:
    r = post_seek(client)
    assert r.status_code == 201, r.content
    assert r.json()["status"] == "matched", r.json()  # alone, with three bots at once
    match_id: int = r.json()["match_id"]
    return match_id


def play_out(match_id: int, user: Any, client: APIClient) -> None:
    """Play the person's seat with random legal moves until the match is over (the bots play themselves)."""
    rng = random.Random(39)
    for _ in range(200):
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            return
        assert Seat.objects.get(match_id=match_id, index=match.turn).user_id == user.pk, "a bot's turn left unplayed"
        view = client.get(f"/api/matches/{match_id}/").json()
        r = client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json")
        assert r.status_code == 200, r.content
    raise AssertionError("the match did not end")


def test_a_fourth_live_quick_match_is_refused_until_one_ends(make_user: Any) -> None:
    amy = make_user("amy")
    client = client_for(amy)
    matches = [live_match(client) for _ in range(3)]
    r = post_seek(client, rated=True)
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "too_many_matches" and r.json()["limit"] == 3
    assert not Seek.objects.filter(user=amy, status="waiting").exists()
    r = post_seek(client, pace="correspondence")  # correspondence matches are not capped
    assert r.status_code == 201 and r.json()["status"] == "matched"
    play_out(matches[0], amy, client)
    assert Match.objects.get(pk=matches[0]).status == "finished"
    fourth = live_match(client)  # room again
    assert fourth not in matches
    assert post_seek(client).json()["code"] == "too_many_matches"


def test_a_waiting_seek_at_the_cap_is_not_seated_until_one_ends(make_user: Any, settings: Any) -> None:
    settings.QUICK_MATCH_BOTS_AFTER = 20
    amy = make_user("amy")
    client = client_for(amy)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        first = post_seek(client).json()
        clock.shift(timedelta(seconds=21))
        assert len(commands.pair()) == 1
        second = post_seek(client).json()
        clock.shift(timedelta(seconds=21))
        assert len(commands.pair()) == 1
        waiting = post_seek(client).json()  # two running, the cap three: allowed
        assert waiting["status"] == "waiting"
        settings.QUICK_MATCH_MAX_LIVE_MATCHES = 2  # the cap lowered while it waits
        clock.shift(timedelta(seconds=21))
        assert commands.pair() == []  # at the cap: not seated, and not dropped either
        assert Seek.objects.get(pk=waiting["id"]).status == "waiting"
        match_ids = [Seek.objects.get(pk=s["id"]).match_id for s in (first, second)]
        assert client.post(f"/api/matches/{match_ids[0]}/resign/").status_code == 200  # the autopilot plays it
        made = commands.pair()  # room again
    assert len(made) == 1 and Seek.objects.get(pk=waiting["id"]).match_id == made[0]


def test_the_others_of_the_pool_are_seated_while_one_at_the_cap_waits(make_user: Any, settings: Any) -> None:
    amy, bob = make_user("amy"), make_user("bob")
    ca, cb = client_for(amy), client_for(bob)
    live_match(ca)
    settings.QUICK_MATCH_BOTS_AFTER = 20
    with time_machine.travel(timezone.now(), tick=False) as clock:
        mine = post_seek(ca).json()
        theirs = post_seek(cb).json()
        settings.QUICK_MATCH_MAX_LIVE_MATCHES = 1  # amy is at the cap now, bob is not
        clock.shift(timedelta(seconds=21))
        made = commands.pair()
    assert len(made) == 1  # bob with three bots; amy not with them
    seated = set(Seat.objects.filter(match_id=made[0], kind="human").values_list("user_id", flat=True))
    assert seated == {bob.pk}
    assert Seek.objects.get(pk=theirs["id"]).status == "matched"
    assert Seek.objects.get(pk=mine["id"]).status == "waiting"
