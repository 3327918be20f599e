"""``games.platform.outbox``: every task keeps the name brokers and beat know it by, every event has its reactions,
and reactions run only after the commit (never after a rollback)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from celery import current_app
from django.db import transaction
from redis.exceptions import ConnectionError as RedisConnectionError

from games.accounts.events import AccountDeactivated, CredentialsRevoked
from games.analysis.events import AnalysisProgress, AnalysisQueued
from games.matches import commands
from games.matches.events import MatchAdvanced, ReminderDue, SeatsChanged, TurnAutoplayed
from games.models import Action, Match
from games.notices.events import NoticeDue
from games.platform import outbox
from games.tables.events import RematchAsked, TableChanged

TASK_NAMES = ["bot_move", "expire_turn", "remind_turn", "rate_match", "send_notice_email", "start_analyses",
              "analyze_seat", "resume_stalled_bot_turns", "sweep_deadlines"]


def test_every_task_keeps_its_registered_name() -> None:
    missing = [name for name in TASK_NAMES if f"games.tasks.{name}" not in current_app.tasks]
    assert not missing, f"tasks nobody registered under their names: {missing}"


@pytest.mark.parametrize("event", [MatchAdvanced, SeatsChanged, NoticeDue, TurnAutoplayed, ReminderDue, RematchAsked,
                                   CredentialsRevoked, AccountDeactivated, AnalysisQueued, AnalysisProgress,
                                   TableChanged])
def test_every_event_has_a_reaction(event: type[outbox.Event]) -> None:
    assert outbox.reactions_to(event), f"nothing reacts to {event.__name__}"


def test_the_match_reacts_to_its_own_advance_first() -> None:
    names = [f.__module__ for f in outbox.reactions_to(MatchAdvanced)]
    assert names[0] == "games.matches.reactions", names


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_write_sends_nothing(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[int, int]] = []

    def record(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "match.updated":
            sent.append((message["match_id"], message["seq"]))

    monkeypatch.setattr(outbox, "group_send_now", record)
    user = make_user("ann")

    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        commands.create_match(seats=[commands.SeatSpec(user=user)] + [commands.SeatSpec(bot="random")] * 3)
        raise Boom
    assert sent == [] and not Match.objects.exists()
    match = commands.create_match(seats=[commands.SeatSpec(user=user)] + [commands.SeatSpec(bot="random")] * 3)
    # once committed: the start, then one message for the bots' moves until the person's turn, if any
    moves = Action.objects.filter(match=match).count()
    assert sent == [(match.pk, 0)] + ([(match.pk, moves)] if moves else [])


def test_a_failing_reaction_does_not_stop_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []

    def boom(event: TableChanged) -> None:
        raise RuntimeError("boom")

    monkeypatch.setitem(outbox._REACTIONS, TableChanged, [boom, lambda event: ran.append("second")])
    outbox.dispatch(TableChanged(1))
    assert ran == ["second"]


def test_only_the_outbox_sends() -> None:
    """``transaction.on_commit``, group messages and task sending appear in ``games/platform/outbox.py`` only."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "games"
    pattern = re.compile(r"\bon_commit\(|\bgroup_send\(|\.apply_async\(|\.delay\(|\bsend_task\(")
    found = [f"{path.relative_to(root)}:{n}" for path in sorted(root.rglob("*.py"))
             if path.relative_to(root).as_posix() != "platform/outbox.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == [], found


class _FlakyLayer:
    """A channel layer whose first ``fails`` sends raise ``error`` (a connection that Redis's restart broke)."""

    def __init__(self, error: BaseException, fails: int = 1) -> None:
        self.error, self.fails = error, fails
        self.tries = 0
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.tries += 1
        if self.tries <= self.fails:
            raise self.error
        self.sent.append((group, message))


@pytest.mark.parametrize("error", [RedisConnectionError("Connection closed by server."),
                                   ConnectionResetError(104, "Connection reset by peer")])
def test_a_group_message_whose_connection_broke_is_sent_again(monkeypatch: pytest.MonkeyPatch,
                                                              error: BaseException) -> None:
    layer = _FlakyLayer(error)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    outbox.group_send_now("match-1", {"type": "match.chat"})
    assert layer.sent == [("match-1", {"type": "match.chat"})]


def test_a_group_message_on_the_sender_loop_is_sent_again(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = _FlakyLayer(RedisConnectionError("Connection closed by server."))
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(outbox._SENDER, "enabled", True)
    outbox.group_send_now("match-1", {"type": "match.chat"})
    assert layer.sent == [("match-1", {"type": "match.chat"})]


async def test_a_sockets_group_message_whose_connection_broke_is_sent_again() -> None:
    layer = _FlakyLayer(RedisConnectionError("Connection closed by server."))
    await outbox.group_send_async(layer, "match-1", {"type": "match.emote"})
    assert layer.sent == [("match-1", {"type": "match.emote"})]


@pytest.mark.parametrize("error", [RedisConnectionError("still down"), TimeoutError(), RuntimeError("bug")])
def test_a_group_message_is_sent_again_once_and_only_after_a_lost_connection(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, error: BaseException) -> None:
    """Redis still away: one more try, then logged, never raised. A timeout (Redis may have taken the message)
    or any other error: logged at once."""
    layer = _FlakyLayer(error, fails=2)
    monkeypatch.setattr(outbox, "get_channel_layer", lambda: layer)
    outbox.group_send_now("match-1", {"type": "match.chat"})
    assert layer.sent == [] and layer.tries == (2 if isinstance(error, RedisConnectionError) else 1)
    assert "could not send to group match-1" in caplog.text


class _Recorder:
    """A task as ``task_now`` sees one: ``apply`` records that it ran (after ``hold`` seconds of work)."""

    def __init__(self, hold: float = 0.0) -> None:
        self.ran: list[tuple[Any, ...]] = []
        self.hold = hold

    def apply(self, args: tuple[Any, ...] = (), **_: Any) -> None:
        time.sleep(self.hold)
        self.ran.append(tuple(args))


def test_settling_cancels_an_eager_timer_and_waits_for_a_running_task(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    waiting, running = _Recorder(), _Recorder(hold=0.3)
    outbox.task_now(waiting, 1, countdown=60, eager="thread")
    outbox.task_now(running, 2, eager="thread")
    assert outbox.settle_eager_threads(timeout=10) == 2
    assert waiting.ran == [] and running.ran == [(2,)]
    assert not outbox._eager_threads
    later = _Recorder()
    outbox.task_now(later, 3, eager="thread")  # settling does not stop what comes after it
    outbox.settle_eager_threads(timeout=10)
    assert later.ran == [(3,)]


def test_one_events_group_messages_leave_together_and_before_a_nested_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reactions' messages to one event leave in one exchange once they are done; a write a reaction makes (an
    event dispatched inside) first sends what came before it, so sockets get the moves in order; outside a dispatch a
    message leaves at once."""
    calls: list[list[tuple[str, int]]] = []

    class Layer:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            calls.append([(group, message["n"])])

        async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
            calls.append([(group, message["n"]) for group, message in sends])

    class Inner(outbox.Event):
        pass

    def first(event: TableChanged) -> None:
        outbox.group_send_now("a", {"n": 1})
        outbox.group_send_now("b", {"n": 2})
        outbox.dispatch(Inner())

    monkeypatch.setattr(outbox, "get_channel_layer", Layer)
    monkeypatch.setitem(outbox._REACTIONS, Inner, [lambda event: outbox.group_send_now("c", {"n": 3})])
    monkeypatch.setitem(outbox._REACTIONS, TableChanged,
                        [first, lambda event: outbox.group_send_now("a", {"n": 4}),
                         lambda event: outbox.group_send_now("d", {"n": 5})])
    outbox.dispatch(TableChanged(1))
    assert calls == [[("a", 1), ("b", 2)], [("c", 3)], [("a", 4), ("d", 5)]]
    outbox.group_send_now("e", {"n": 6})
    assert calls[-1] == [("e", 6)]
