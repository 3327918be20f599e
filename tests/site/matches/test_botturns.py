"""How a bot's turn is run (``games.matches.botturns``): one test per row of the decision table in ``ways``, each
checking the row chosen and what it does; then the lane's own cases (slow bots, a failure)."""

from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import override_settings

from games.matches import commands, presenters
from games.matches.botturns import chain, lane, tasks, ways
from games.matches.botturns.ways import Way
from games.matches.commands import SeatSpec
from games.models import Action, Match
from games.platform import outbox

pytestmark = pytest.mark.django_db(transaction=True)

BOTS_ONLY = [SeatSpec(bot="random")] * 4


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """The tasks sent, recorded instead of sent (as with a broker nobody consumes)."""
    record: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(outbox, "task_now", lambda task, *args, **kwargs: record.append((task.name, args, kwargs)))
    return record


def _bot_moves(sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> list[tuple[tuple[Any, ...], Any]]:
    return [(args[:2], kwargs.get("countdown")) for name, args, kwargs in sent if name == "games.tasks.bot_move"]


@pytest.fixture
def lane_on(monkeypatch: Any) -> Any:
    """The lane on (as in a web process on Redis) and the tasks sent recorded instead of sent."""
    record: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(outbox, "task_now", lambda task, *args, **kwargs: record.append((task.name, args)))
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, BOT_LANE_THREADS=1, BOT_DELAY_SECONDS=0):
        monkeypatch.setattr(lane, "_lane", None)
        yield record
        pool = lane._lane
        assert isinstance(pool, ThreadPoolExecutor)
        pool.shutdown(wait=True)


# --- one test per row of ways' table -------------------------------------------------------------------

@override_settings(CELERY_TASK_ALWAYS_EAGER=False, BOT_DELAY_SECONDS=0, BOT_CHAIN_SECONDS=0)
def test_chain_a_move_due_on_a_chains_thread_joins_it(sent: list[Any]) -> None:
    """``CHAIN``: a worker's task plays the bot moves its move leads to on its own thread, sending no task (each
    move committed on its own here, so each is due anew)."""
    match = commands.create_match(seats=BOTS_ONLY, seed="chain")
    del sent[:]
    seen: list[Way] = []
    real = commands.play_bot_turn

    def play(match_id: int, seq: int) -> int:
        seen.append(ways.way("normal", chaining=chain.running(), lane_on=False))
        return real(match_id, seq)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands, "play_bot_turn", play)
        assert tasks.bot_move.apply(args=(match.pk, 0)).get() is True
    assert set(seen) == {Way.CHAIN} and len(seen) > 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert _bot_moves(sent) == []


def test_lane_quick_bots_answer_on_the_web_process_threads(make_user: Any, lane_on: list[Any]) -> None:
    """``LANE``: a quick bot's answer to a person's move is played on the lane, with no task."""
    assert ways.way("normal", chaining=False, lane_on=True) is Way.LANE
    match, _ = _first_bid(make_user, "normal", lane_on)
    lane._lane.shutdown(wait=True)  # type: ignore[union-attr]
    after = Match.objects.get(pk=match.pk)
    assert after.turn == 0 and after.seq > 1  # the three bots bid after the person, on the lane
    assert [name for name, _ in lane_on if name == "games.tasks.bot_move"] == []


@override_settings(BOT_CHAIN_SECONDS=0)
def test_eager_a_bot_only_match_is_played_here_as_a_loop(monkeypatch: Any) -> None:
    """``EAGER`` (tests, ``make run``): the bots play here and now, every move at the same depth of the stack
    (a loop, not reactions nested in each other; each move committed on its own here)."""
    assert ways.way("normal", chaining=False, lane_on=False) is Way.EAGER
    depths: list[int] = []
    real = commands.play_bot_turn

    def play(match_id: int, seq: int) -> int:
        depths.append(len(inspect.stack(0)))
        return real(match_id, seq)

    monkeypatch.setattr(commands, "play_bot_turn", play)
    match = commands.create_match(seats=BOTS_ONLY, seed="eager")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    assert len(depths) > 1 and len(set(depths)) == 1


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, BOT_DELAY_SECONDS=0)
def test_worker_a_move_due_goes_to_the_workers_at_once(sent: list[Any]) -> None:
    """``WORKER``: with a broker and no delay, a ``bot_move`` task with no countdown."""
    assert ways.way("normal", chaining=False, lane_on=False) is Way.WORKER
    assert ways.way("hard", chaining=False, lane_on=True) is Way.WORKER  # slow: never the lane
    match = commands.create_match(seats=BOTS_ONLY, seed="worker")
    assert _bot_moves(sent) == [((match.pk, 0), None)]
    assert not Action.objects.filter(match=match).exists()


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, BOT_DELAY_SECONDS=2)
def test_worker_delayed_one_move_per_task_each_after_the_pause(sent: list[Any]) -> None:
    """``WORKER_DELAYED``: with ``BOT_DELAY_SECONDS``, each move is a task of its own sent with that countdown,
    and plays one move in one transaction."""
    assert ways.way("normal", chaining=False, lane_on=True) is Way.WORKER_DELAYED
    match = commands.create_match(seats=BOTS_ONLY, seed="delayed")
    assert _bot_moves(sent) == [((match.pk, 0), 2.0)]
    del sent[:]
    assert tasks.bot_move.apply(args=(match.pk, 0)).get() is True
    assert Action.objects.filter(match=match).count() == 1
    assert _bot_moves(sent) == [((match.pk, 1), 2.0)]


# --- the lane's other cases ------------------------------------------------------------------------------

def _first_bid(make_user: Any, level: str, sent: list[Any]) -> tuple[Match, Any]:
    user = make_user()
    match = commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot=level)] * 3, seed="lane")
    view = presenters.match_view(Match.objects.get(pk=match.pk), 0)
    while not view["your_turn"]:  # the bots before the person, if the deal starts with them: played here
        commands.play_bot_turn(match.pk, view["seq"])
        view = presenters.match_view(Match.objects.get(pk=match.pk), 0)
    del sent[:]
    lane.use()  # from the person's move on
    commands.submit_action(user=user, match_id=match.pk, payload={"seq": view["seq"], "bid": 3})
    return match, user


def test_slow_bots_still_go_to_the_workers(make_user: Any, lane_on: list[Any]) -> None:
    match, _ = _first_bid(make_user, "hard", lane_on)
    bot_tasks = [args for name, args in lane_on if name == "games.tasks.bot_move"]
    assert len(bot_tasks) == 1 and bot_tasks[0][:2] == (match.pk, Match.objects.get(pk=match.pk).seq)


def test_a_move_the_lane_cannot_play_goes_to_the_workers(make_user: Any, lane_on: list[Any],
                                                         monkeypatch: Any) -> None:
    def fails(play: Any, match_id: int, seq: int) -> int:
        raise RuntimeError("database away")

    monkeypatch.setattr(chain, "run", fails)
    match, _ = _first_bid(make_user, "normal", lane_on)
    lane._lane.shutdown(wait=True)  # type: ignore[union-attr]
    bot_tasks = [args for name, args in lane_on if name == "games.tasks.bot_move"]
    assert len(bot_tasks) == 1 and bot_tasks[0][:2] == (match.pk, Match.objects.get(pk=match.pk).seq)
