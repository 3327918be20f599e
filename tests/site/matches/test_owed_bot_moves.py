"""Beat's sweep of owed bot moves (``resume_stalled_bot_turns``, every ``BOT_SWEEP_SECONDS``): a bot move not
played ``BOT_OWED_SECONDS`` after the write that made it due (a web process killed before its bot lane played
it, a task lost with a worker) goes to the workers, once per ``RESEND_SECONDS``; a bot move just made due, a
person's turn and a finished match are left alone, in one query however many matches run."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import tasks
from games.matches import commands, reads
from games.matches.botturns import tasks as match_tasks
from games.matches.commands import SeatSpec
from games.models import Match, Seat
from games.platform import outbox

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[int, int]]:
    """The bot tasks the sweep sends, recorded instead of run (as a worker would, later)."""
    out: list[tuple[int, int]] = []

    def record(task: Any, *args: Any, **kwargs: Any) -> None:
        assert task.name == "games.tasks.bot_move"
        out.append((args[0], args[1]))

    monkeypatch.setattr(outbox, "task_now", record)
    return out


def _match(make_user: Any, *, bot_to_act: bool, age: float, status: str = Match.Status.ACTIVE) -> Match:
    """A match of four people whose turn is a bot's (the seat on autopilot, no task sent) or a person's, last
    written ``age`` seconds ago."""
    match = commands.create_match(seats=[SeatSpec(user=make_user()) for _ in range(4)])
    match.refresh_from_db()
    if bot_to_act:
        Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(seconds=age), status=status)
    return match


@override_settings(BOT_OWED_SECONDS=3, BOT_DELAY_SECONDS=0)
def test_the_sweep_sends_only_the_moves_owed_for_a_while(make_user: Any, sent: list[tuple[int, int]]) -> None:
    # The clock stands still while the matches are made: on a busy machine making five takes seconds, which
    # would age the match just made due past BOT_OWED_SECONDS.
    with time_machine.travel(timezone.now(), tick=False):
        owed = _match(make_user, bot_to_act=True, age=4)
        _match(make_user, bot_to_act=True, age=1)  # its lane or task is about to play it
        _match(make_user, bot_to_act=False, age=60)  # a person thinks
        _match(make_user, bot_to_act=True, age=60, status=Match.Status.FINISHED)
        _match(make_user, bot_to_act=True, age=60, status=Match.Status.ABORTED)
        assert tasks.resume_stalled_bot_turns.apply().get() == 1
    assert sent == [(owed.pk, owed.seq)]


@override_settings(BOT_OWED_SECONDS=3, BOT_DELAY_SECONDS=0)
def test_a_move_is_sent_again_only_after_the_resend_pause(make_user: Any, sent: list[tuple[int, int]]) -> None:
    owed = _match(make_user, bot_to_act=True, age=10)
    assert tasks.resume_stalled_bot_turns.apply().get() == 1
    assert tasks.resume_stalled_bot_turns.apply().get() == 0  # the workers are behind: no second task
    with time_machine.travel(timezone.now() + timedelta(seconds=match_tasks.RESEND_SECONDS + 1)):
        assert tasks.resume_stalled_bot_turns.apply().get() == 1  # that task was lost too
    assert sent == [(owed.pk, owed.seq)] * 2


@override_settings(BOT_OWED_SECONDS=3, BOT_DELAY_SECONDS=10)
def test_a_delayed_bot_is_owed_only_once_its_delay_has_passed(make_user: Any, sent: list[tuple[int, int]]) -> None:
    with time_machine.travel(timezone.now(), tick=False):  # ages exact, however busy the machine
        waiting = _match(make_user, bot_to_act=True, age=12)  # its task's countdown (10 s) + 3 s are not over
        late = _match(make_user, bot_to_act=True, age=14)
        assert tasks.resume_stalled_bot_turns.apply().get() == 1
    assert sent == [(late.pk, late.seq)]
    assert waiting.pk not in [match_id for match_id, _ in sent]


@override_settings(BOT_OWED_SECONDS=3, BOT_DELAY_SECONDS=0)
def test_the_frequent_sweep_reads_the_matches_written_lately_the_minute_one_all(
        make_user: Any, sent: list[tuple[int, int]]) -> None:
    lately = _match(make_user, bot_to_act=True, age=10)
    long_ago = _match(make_user, bot_to_act=True, age=600)
    assert tasks.resume_stalled_bot_turns.apply(args=(120.0,)).get() == 1  # every BOT_SWEEP_SECONDS
    assert tasks.resume_stalled_bot_turns.apply().get() == 1  # every minute
    assert sent == [(lately.pk, lately.seq), (long_ago.pk, long_ago.seq)]


def test_beat_runs_the_frequent_sweep_every_few_seconds_and_the_full_one_every_minute(settings: Any) -> None:
    entries = {entry.get("args"): entry for entry in settings.CELERY_BEAT_SCHEDULE.values()
               if entry["task"] == "games.tasks.resume_stalled_bot_turns"}
    assert entries[(120.0,)]["schedule"] == settings.BOT_SWEEP_SECONDS <= 5
    assert entries[None]["schedule"] == 60


@override_settings(BOT_OWED_SECONDS=3)
def test_the_selection_is_one_query_however_many_matches_run(make_user: Any) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            reads.waiting_on_a_bot(settled_before=timezone.now(), since=timezone.now() - timedelta(minutes=2))
        return len([q for q in captured.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")])

    _match(make_user, bot_to_act=True, age=10)
    one = queries()
    for i in range(6):
        _match(make_user, bot_to_act=i % 2 == 0, age=10)
    assert queries() == one == 1
    assert len(reads.waiting_on_a_bot(settled_before=timezone.now())) == 4


@override_settings(BOT_OWED_SECONDS=3, BOT_DELAY_SECONDS=0)
def test_an_owed_move_is_played_by_the_task_the_sweep_sends(make_user: Any) -> None:
    """Eager mode: the task runs at once and the match moves on (a worker's task is the same function)."""
    owed = _match(make_user, bot_to_act=True, age=10)
    assert tasks.resume_stalled_bot_turns.apply().get() == 1
    owed.refresh_from_db()
    assert owed.seq > 0
