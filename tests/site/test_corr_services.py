"""Correspondence rules at the service level: only missed turns *in a row* hand the seat over, the
sweep is idempotent, resigning mid-turn lets the bot move at once, bot matches have no deadline."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from site_helpers import choose, client_for

from games import correspondence, services
from games.errors import GameError
from games.models import Action, Match, Seat
from games.services import SeatSpec
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


def two_people(make_user: Any, move_seconds: int = 3600) -> tuple[Match, Any, Any]:
    a, b = make_user("amy", email="amy@example.com"), make_user("bo", email="bo@example.com")
    match = services.create_match(
        seats=[SeatSpec(user=a), SeatSpec(bot="random"), SeatSpec(user=b), SeatSpec(bot="random")],
        move_seconds=move_seconds,
    )
    match.refresh_from_db()
    return match, a, b


def test_own_moves_break_the_streak(make_user: Any, settings: Any) -> None:
    settings.AUTOPILOT_HANDOVER_AFTER = 2
    match, a, b = two_people(make_user)
    clients = {0: client_for(a), 2: client_for(b)}
    rng = random.Random(4)
    missed = {0: 0, 2: 0}
    with time_machine.travel(timezone.now(), tick=False) as clock:
        # every seat alternates: miss a turn, play a turn -> never two in a row, never handed over
        for _ in range(16):
            match.refresh_from_db()
            turn = match.turn
            seat = Seat.objects.get(match=match, index=turn)
            if missed[turn] == 0:
                clock.move_to(match.deadline + timedelta(seconds=1))
                sweep_deadlines.delay()
                assert Action.objects.get(match=match, seq=match.seq).made_by == "autopilot"
                missed[turn] = 1
                seat.refresh_from_db()
                assert seat.missed_in_row == 1 and not seat.autopilot
            else:
                view = clients[turn].get(f"/api/matches/{match.pk}/").json()
                r = clients[turn].post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
                assert r.status_code == 200
                missed[turn] = 0
                seat.refresh_from_db()
                assert seat.missed_in_row == 0
    assert not Seat.objects.filter(match=match, autopilot=True, kind="human").exists()


def test_expiry_is_played_once_and_not_before_the_deadline(make_user: Any) -> None:
    match, a, b = two_people(make_user)
    seq = match.seq
    assert correspondence.play_expired_turn(match.pk, seq) is False  # not yet due
    with time_machine.travel(match.deadline + timedelta(seconds=1), tick=False):
        assert correspondence.play_expired_turn(match.pk, seq) is True
        assert correspondence.play_expired_turn(match.pk, seq) is False  # a second timer/sweep: nothing
    assert Action.objects.filter(match=match, seq=seq).count() == 1


def test_resign_on_my_turn_lets_the_bot_move_now(make_user: Any) -> None:
    match, a, b = two_people(make_user)
    user = a if match.turn == 0 else b
    seat_index = match.turn
    seq = match.seq
    r = client_for(user).post(f"/api/matches/{match.pk}/resign/")
    assert r.status_code == 200
    seat = Seat.objects.get(match=match, index=seat_index)
    assert seat.resigned and seat.autopilot and seat.bot == "normal"
    assert Action.objects.get(match=match, seq=seq).made_by == "autopilot"
    match.refresh_from_db()
    assert match.turn != seat_index or match.status == "finished"
    # resigning twice is harmless; acting afterwards is refused
    assert client_for(user).post(f"/api/matches/{match.pk}/resign/").status_code == 200
    with pytest.raises(GameError):
        services.submit_action(user=user, match_id=match.pk, payload={"seq": match.seq, "bid": 3})


def test_bot_matches_have_no_deadline(make_user: Any) -> None:
    match = services.create_bot_match(make_user("solo"))
    match.refresh_from_db()
    assert match.deadline is None and match.move_seconds is None and not match.rated
    view = client_for(match.seats.get(index=0).user).get(f"/api/matches/{match.pk}/").json()
    assert view["deadline"] is None and view["seconds_left"] is None


def test_stale_presence_stops_silencing_email(make_user: Any) -> None:
    from games import notifications
    from games.models import Presence

    match, a, b = two_people(make_user)
    notifications.presence_join(a.pk, match.pk, "specific.channel!1")
    assert notifications.on_match_page(a.pk, match.pk)
    with time_machine.travel(timezone.now() + timedelta(hours=7), tick=False):
        assert not notifications.on_match_page(a.pk, match.pk)
        sweep_deadlines.delay()
        assert not Presence.objects.exists()


def test_sweep_rates_a_finished_match_whose_rating_task_was_lost(make_user: Any) -> None:
    from games.models import RatingChange

    a = make_user("rae")
    match = services.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3, rated=True)
    api, rng = client_for(a), random.Random(8)
    while (view := api.get(f"/api/matches/{match.pk}/").json())["status"] != "finished":
        api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
    # as if the task had been lost with a worker
    RatingChange.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(rated_at=None)
    assert sweep_deadlines.delay().get()["rated"] == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sweep_deadlines.delay().get()["rated"] == 0
