"""Each action and each view costs a few queries, whatever the length of the log: the state comes from the
per-process state cache (``reads.STATES``), the seats are read once per request.

The bounds are the counts measured when they were set; a change that adds a query per action or per
view shows here before it shows under load (``bench/load.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from site_helpers import client_for

from games.matches import commands, reads
from games.matches.commands import SeatSpec
from games.matches.consumers import MatchConsumer
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def _people_match(make_user: Any) -> tuple[Match, list[Any]]:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users])  # people only: no bot moves
    return Match.objects.get(pk=match.pk), users


def _play(match: Match, users: list[Any], n: int) -> Match:
    for _ in range(n):
        match = Match.objects.get(pk=match.pk)
        view = reads.match_view(match, match.turn)
        body = {"seq": view["seq"], "bid": 3} if view["phase"] == "bidding" else {"seq": view["seq"],
                                                                                   "card": view["legal"][0]}
        commands.submit_action(user=users[match.turn], match_id=match.pk, payload=body)
    return Match.objects.get(pk=match.pk)


def test_an_action_through_the_api(make_user: Any, django_assert_max_num_queries: Any) -> None:
    match, users = _people_match(make_user)
    match = _play(match, users, 30)
    client = client_for(users[match.turn])
    view = client.get(f"/api/matches/{match.pk}/").json()
    # token 1; begin 1 (SQLite); lock the match + its seats 2; insert, update 2; re-read the row 1; commit 1
    with django_assert_max_num_queries(8):
        r = client.post(f"/api/matches/{match.pk}/actions/", {"seq": view["seq"], "card": view["legal"][0]},
                        format="json")
    assert r.status_code == 200 and r.json()["seq"] == view["seq"] + 1


def test_a_view_through_the_api_and_on_the_socket(make_user: Any, django_assert_max_num_queries: Any) -> None:
    match, users = _people_match(make_user)
    match = _play(match, users, 40)
    client = client_for(users[0])
    with django_assert_max_num_queries(3):  # token, the match, its seats (the state is cached)
        assert client.get(f"/api/matches/{match.pk}/").json()["seq"] == 40
    consumer = MatchConsumer()
    consumer.scope = {"user": users[1]}
    consumer.match_id, consumer.seat = match.pk, 1
    with django_assert_max_num_queries(2):  # the match, its seats and their users
        assert consumer._view()["seq"] == 40
    reads.STATES.clear()  # another process: it replays the log once, then reads only what is new
    with django_assert_max_num_queries(3):
        assert consumer._view()["seq"] == 40
    match = _play(match, users, 3)
    with django_assert_max_num_queries(2):
        assert consumer._view()["seq"] == 43


def test_a_bot_move(make_user: Any, django_assert_max_num_queries: Any) -> None:
    match, users = _people_match(make_user)
    match = _play(match, users, 25)
    seat = reads.seats_of(match)[match.turn]
    seat.kind, seat.user, seat.bot = "bot", None, "normal"
    seat.save()
    # lock the match + its seats 2; insert, update 2; (no notices: neither timed nor rated)
    with django_assert_max_num_queries(6):
        assert commands.play_bot_turn(match.pk, match.seq)
