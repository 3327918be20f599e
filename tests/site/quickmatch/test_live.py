"""The live pace: 15 s a move plus a bank per deal; a move that outlasts the clock spends the bank; a turn that
outlasts both is played by the autopilot (beat's sweep), which empties the bank; a new deal refills it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from site_helpers import client_for

from games.models import Action, Match, Seat
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _live(settings: Any) -> None:
    settings.QUICK_MATCH_EAGER_TIMER = False
    settings.QUICK_MATCH_BOTS_AFTER = 0  # alone: three bots at once
    settings.LIVE_MOVE_SECONDS = 15
    settings.LIVE_BANK_SECONDS = 30


def test_a_live_turn_spends_the_bank_then_the_autopilot_plays(make_user: Any) -> None:
    amy = make_user("amy")
    api = client_for(amy)
    start = timezone.now().replace(microsecond=0)
    with time_machine.travel(start, tick=False) as clock:
        seek = api.post("/api/quick-match/", {"pace": "live", "rated": False}, format="json").json()
        match_id = seek["match_id"]
        view = api.get(f"/api/matches/{match_id}/").json()
        me = next(s for s in view["seats"] if s["you"])
        assert view["move_seconds"] == 15 and view["your_turn"] and me["bank_seconds"] == 30
        assert view["seconds_left"] == 45  # the clock and the bank
        assert Match.objects.get(pk=match_id).remind_at is None  # no reminder at a live pace
        clock.shift(timedelta(seconds=20))  # 5 s beyond the clock
        view = api.post(f"/api/matches/{match_id}/actions/", {"seq": view["seq"], "bid": 2}, format="json").json()
        seat = Seat.objects.get(match_id=match_id, user=amy)
        assert seat.bank_seconds == 25
        # bidding goes round to amy's first card (or the bots' bids end the bidding and someone leads)
        while not view["your_turn"]:
            view = api.get(f"/api/matches/{match_id}/").json()
        assert view["seconds_left"] == 40
        match = Match.objects.get(pk=match_id)
        clock.shift(timedelta(seconds=39))
        sweep_deadlines.apply()
        assert Match.objects.get(pk=match_id).seq == match.seq  # not yet
        clock.shift(timedelta(seconds=2))
        sweep_deadlines.apply()
    played = Action.objects.get(match_id=match_id, seq=match.seq)
    assert played.made_by == "autopilot" and played.seat == seat.index
    seat.refresh_from_db()
    assert seat.bank_seconds == 0 and seat.missed_in_row == 1 and not seat.autopilot


def test_a_new_deal_refills_the_bank(make_user: Any) -> None:
    amy = make_user("bo")
    api = client_for(amy)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        match_id = api.post("/api/quick-match/", {"pace": "live"}, format="json").json()["match_id"]
        view = api.get(f"/api/matches/{match_id}/").json()
        while view["deal_number"] == 1:
            if view["your_turn"]:
                clock.shift(timedelta(seconds=16))  # one second of the bank a move
                move = {"bid": 1} if view["phase"] == "bidding" else {"card": view["legal"][0]}
                view = api.post(f"/api/matches/{match_id}/actions/", {"seq": view["seq"], **move},
                                format="json").json()
            else:
                view = api.get(f"/api/matches/{match_id}/").json()
            bank = Seat.objects.get(match_id=match_id, user=amy).bank_seconds
            if view["deal_number"] == 1:
                assert bank < 30
    assert Seat.objects.get(match_id=match_id, user=amy).bank_seconds == 30
