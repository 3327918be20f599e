"""Each action and each view costs a few queries, whatever the length of the log: the state comes from the
per-process state cache (``store.STATES``), the seats are read once per request.

The bounds are the counts measured when they were set; a change that adds a query per action or per
view shows here before it shows under load (``bench/load.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.test import override_settings
from site_helpers import client_for

from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.matches.seatview import SeatView
from games.models import Action, Match
from games.platform import outbox

pytestmark = pytest.mark.django_db(transaction=True)


def _people_match(make_user: Any) -> tuple[Match, list[Any]]:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users])  # people only: no bot moves
    return Match.objects.get(pk=match.pk), users


def _play(match: Match, users: list[Any], n: int) -> Match:
    for _ in range(n):
        match = Match.objects.get(pk=match.pk)
        view = presenters.match_view(match, match.turn)
        body = {"seq": view["seq"], "bid": 3} if view["phase"] == "bidding" else {"seq": view["seq"],
                                                                                   "card": view["legal"][0]}
        commands.submit_action(user=users[match.turn], match_id=match.pk, payload=body)
    return Match.objects.get(pk=match.pk)


def test_an_action_through_the_api(make_user: Any, django_assert_max_num_queries: Any) -> None:
    match, users = _people_match(make_user)
    match = _play(match, users, 30)
    client = client_for(users[match.turn])
    view = client.get(f"/api/matches/{match.pk}/").json()
    # token 1; begin 1 (SQLite); lock the match with its seats 1; insert, update 2; commit 1 (the answer is
    # the state the action made: no re-read)
    with django_assert_max_num_queries(6):
        r = client.post(f"/api/matches/{match.pk}/actions/", {"seq": view["seq"], "card": view["legal"][0]},
                        format="json")
    assert r.status_code == 200 and r.json()["seq"] == view["seq"] + 1


def test_a_view_through_the_api_and_on_the_socket(make_user: Any, django_assert_max_num_queries: Any) -> None:
    match, users = _people_match(make_user)
    match = _play(match, users, 40)
    client = client_for(users[0])
    with django_assert_max_num_queries(2):  # token, the match with its seats (the state is cached)
        assert client.get(f"/api/matches/{match.pk}/").json()["seq"] == 40
    seat_view = SeatView(match.pk, 1, users[1].pk)  # the socket's
    with django_assert_max_num_queries(1):  # the match with its seats and their users
        assert seat_view.read()["seq"] == 40
    store.STATES.clear()  # another process: it replays the log once, then reads only what is new
    with django_assert_max_num_queries(2):
        assert seat_view.read()["seq"] == 40
    match = _play(match, users, 3)
    with django_assert_max_num_queries(1):
        assert seat_view.read()["seq"] == 43


def _bot_match(make_user: Any, seed: str = "chain", bot_seed: str = "b" * 32) -> tuple[Match, Any]:
    user = make_user()
    match = commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot="normal")] * 3, seed=seed)
    Match.objects.filter(pk=match.pk).update(bot_seed=bot_seed)  # twins decide alike
    return Match.objects.get(pk=match.pk), user


def _log(match: Match) -> list[tuple[int, int, int | None, str, str]]:
    return list(Action.objects.filter(match=match).order_by("seq").values_list("seq", "seat", "bid", "card",
                                                                                 "made_by"))


def test_a_bot_move(make_user: Any, django_assert_max_num_queries: Any) -> None:
    match, users = _people_match(make_user)
    match = _play(match, users, 25)
    seat = store.seats_of(match)[match.turn]
    seat.kind, seat.user, seat.bot = "bot", None, "normal"
    seat.save()
    # lock the match with its seats 1; insert, update 2; (no notices: neither timed nor rated)
    with django_assert_max_num_queries(5):
        assert commands.play_bot_turn(match.pk, match.seq) == 1


def _answer(match: Match, person: Any, chain_seconds: float, counter: Any) -> list[int]:
    """The person's move, then the bots' until the person's turn, as a worker plays them; how many moves
    each call (one transaction) played."""
    view = presenters.match_view(Match.objects.get(pk=match.pk), 0)
    assert view["your_turn"]
    body = {"seq": view["seq"], "bid": 3} if view["phase"] == "bidding" else {"seq": view["seq"],
                                                                              "card": view["legal"][0]}
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, BOT_CHAIN_SECONDS=chain_seconds):
        with transaction.atomic():
            commands.submit_action(user=person, match_id=match.pk, payload=body)
            transaction.get_connection().run_on_commit.clear()  # the bot task: played by hand below
        calls = []
        while (now := Match.objects.get(pk=match.pk)).turn not in (0, None):
            # begin, commit (SQLite); lock the match with its seats 1; the person's action, which this
            # process (a worker) has not seen 1; insert 1 (however many moves); update 1
            with counter(6):
                calls.append(commands.play_bot_turn(match.pk, now.seq))
    return calls


def test_the_bots_answer_a_person_in_one_transaction_with_the_same_moves(
        make_user: Any, django_assert_max_num_queries: Any) -> None:
    """Quick bots answer a person in one transaction, however many moves; the moves are those played one
    transaction each, as each is seeded by its own seq."""
    quick, user = _bot_match(make_user)
    slow, other = _bot_match(make_user)
    assert _log(quick) == _log(slow)
    for _ in range(8):
        together = _answer(quick, user, 10.0, django_assert_max_num_queries)
        one_by_one = _answer(slow, other, 0.0, django_assert_max_num_queries)
        assert len(together) == 1 and one_by_one == [1] * together[0]
    assert _log(quick) == _log(slow) and len(_log(quick)) > 24


def test_a_socket_builds_the_next_views_from_the_messages_alone(
        make_user: Any, monkeypatch: Any, django_assert_num_queries: Any) -> None:
    """After its first view a socket reads nothing: the group message holds the actions (public) and the
    deadline, and the view it builds is the one a fresh read gives. A missed message means a read."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(outbox, "group_send_now", lambda group, message: sent.append(message))
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users], move_seconds=3600)  # deadlines move
    seat_view = SeatView(match.pk, 2, users[2].pk)  # the socket's
    assert seat_view.read()["seq"] == 0
    match = _play(Match.objects.get(pk=match.pk), users, 2)  # this socket misses the message of seq 1
    after_a_gap = [m for m in sent if m["type"] == "match.updated"][-1]
    with django_assert_num_queries(0):
        assert seat_view.follow(after_a_gap) is None  # it follows a state this socket never had
    assert seat_view.read()["seq"] == 2
    for _ in range(20):
        match = _play(match, users, 1)
        message = [m for m in sent if m["type"] == "match.updated"][-1]
        assert message["seq"] == match.seq and message["deadline"] == match.deadline.isoformat()
        with django_assert_num_queries(0):
            view = seat_view.follow(message)
        fresh = presenters.match_view(store.load(match.pk), 2)
        assert view is not None and abs(view.pop("seconds_left") - fresh.pop("seconds_left")) <= 1
        assert view == fresh
