"""Deadlines on the real stack: a short turn's ETA timer fires in a real worker, and beat's sweep plays
a turn whose deadline passed while nothing was scheduled (as after a restart)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from test_site_realstack import celery_beat, celery_log, celery_worker  # noqa: F401 - fixtures

from games import services
from games.models import Action, Match
from games.services import SeatSpec

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEADLINE_SWEEP_SECONDS", "1")
    monkeypatch.setenv("BOT_SWEEP_SECONDS", "1")


def _wait_for_action(match: Match, seq: int, what: str, timeout: float = 30) -> Action:
    deadline = time.monotonic() + timeout
    while not Action.objects.filter(match=match, seq=seq).exists():
        assert time.monotonic() < deadline, f"{what}:\n" + celery_log("worker").read_text()[-3000:]
        time.sleep(0.2)
    return Action.objects.get(match=match, seq=seq)


def test_a_short_turn_expires_through_its_timer(make_user: Any, celery_worker: Any) -> None:  # noqa: F811
    users = [make_user() for _ in range(4)]
    match = services.create_match(seats=[SeatSpec(user=u) for u in users], move_seconds=2)
    match.refresh_from_db()
    assert match.deadline is not None
    action = _wait_for_action(match, 0, "the timer did not play the expired turn")
    assert action.made_by == "autopilot" and action.seat == match.turn
    assert action.made_at >= match.deadline


def test_beat_sweeps_a_deadline_that_passed_with_nothing_scheduled(
    make_user: Any, celery_worker: Any, celery_beat: Any  # noqa: F811
) -> None:
    users = [make_user() for _ in range(4)]
    match = services.create_match(seats=[SeatSpec(user=u) for u in users], move_seconds=86400)
    match.refresh_from_db()
    # long turns get no timer: only the sweep can find this one
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    action = _wait_for_action(match, 0, "beat's sweep did not play the expired turn")
    assert action.made_by == "autopilot"
    assert "sweep-deadlines" in celery_log("beat").read_text()
    match.refresh_from_db()
    assert match.seq == 1 and match.deadline is not None and match.deadline > timezone.now()
