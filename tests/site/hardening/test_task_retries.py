"""Tasks retry on a database fault (the database restarted, a pooled connection died): nothing else sends them
again before beat's sweep, a minute later. A bot move's retry goes on from where the match stands."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import InterfaceError, OperationalError

from games import tasks
from games.matches import commands
from games.matches.commands import SeatSpec
from games.models import Action, Match, Seat
from games.platform import task_options

pytestmark = pytest.mark.django_db(transaction=True)

DB_TASKS = ["bot_move", "expire_turn", "remind_turn", "rate_match", "sweep_deadlines", "resume_stalled_bot_turns",
            "start_analyses", "analyze_seat", "send_notice_email"]


@pytest.mark.parametrize("name", DB_TASKS)
def test_every_database_task_retries_on_a_database_fault_soon(name: str) -> None:
    task = getattr(tasks, name)
    assert set(task.autoretry_for) == {OperationalError, InterfaceError}
    assert task.retry_backoff == 1 and task.retry_backoff_max <= 5
    # in eager mode (these tests) a fault reaches the request that ran the task, which answers 503
    retries = task_options.DB_RETRIES
    assert task.max_retries == (0 if settings.CELERY_TASK_ALWAYS_EAGER else retries) and retries >= 20


@pytest.fixture
def worker_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The retries as a real worker has them (eager mode runs a retry at once, with no pause)."""
    monkeypatch.setattr(tasks.bot_move, "max_retries", task_options.DB_RETRIES)


def _bot_to_act(make_user: Any) -> Match:
    match = commands.create_match(seats=[SeatSpec(user=make_user()) for _ in range(4)])
    match.refresh_from_db()
    Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
    return match


@pytest.mark.usefixtures("worker_retries")
def test_a_bot_move_hit_by_a_fault_is_retried(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match = _bot_to_act(make_user)
    real = tasks.match_commands.play_bot_turn
    calls: list[tuple[int, int]] = []

    def flaky(match_id: int, seq: int) -> int:
        calls.append((match_id, seq))
        if len(calls) == 1:
            raise OperationalError("terminating connection due to administrator command")
        return real(match_id, seq)

    monkeypatch.setattr(tasks.match_commands, "play_bot_turn", flaky)
    tasks.bot_move.apply(args=(match.pk, 0), throw=False)
    assert calls == [(match.pk, 0), (match.pk, 0)]
    assert Action.objects.filter(match=match).count() == 1


@pytest.mark.usefixtures("worker_retries")
def test_a_retry_goes_on_from_the_current_seq(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault struck after the move at seq 0 was committed (later in the chain): the retry does not ask for
    seq 0 again, which would play nothing and leave the match to the sweep; it asks for what is due now."""
    match = _bot_to_act(make_user)
    real = tasks.match_commands.play_bot_turn
    calls: list[tuple[int, int]] = []

    def fails_after_the_commit(match_id: int, seq: int) -> int:
        calls.append((match_id, seq))
        played = real(match_id, seq)
        if len(calls) == 1:
            raise InterfaceError("connection already closed")
        return played

    monkeypatch.setattr(tasks.match_commands, "play_bot_turn", fails_after_the_commit)
    tasks.bot_move.apply(args=(match.pk, 0), throw=False)
    assert calls == [(match.pk, 0), (match.pk, 1)]
    assert Action.objects.filter(match=match).count() == 1


def test_in_eager_mode_the_fault_reaches_the_caller(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match = _bot_to_act(make_user)

    def broken(match_id: int, seq: int) -> int:
        raise OperationalError("the database is away")

    monkeypatch.setattr(tasks.match_commands, "play_bot_turn", broken)
    with pytest.raises(OperationalError):
        tasks.bot_move.apply(args=(match.pk, 0), throw=True)
