"""Quick bots answer in the web process that committed the person's move (``games.matches.botlane``), on the
lane's own threads, with no task sent; slow bots still go to the workers as tasks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import override_settings

from games import outbox
from games.matches import botchain, botlane, commands, presenters
from games.matches.commands import SeatSpec
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lane(monkeypatch: Any) -> Any:
    """The lane on (as in a web process on Redis) and the tasks sent recorded instead of sent."""
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(outbox, "task_now", lambda task, *args, **kwargs: sent.append((task.name, args)))
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, BOT_LANE_THREADS=1, BOT_DELAY_SECONDS=0):
        monkeypatch.setattr(botlane, "_lane", None)
        yield sent
        pool = botlane._lane
        assert isinstance(pool, ThreadPoolExecutor)
        pool.shutdown(wait=True)


def _first_bid(make_user: Any, level: str, lane: list[Any]) -> tuple[Match, Any]:
    user = make_user()
    match = commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot=level)] * 3, seed="lane")
    view = presenters.match_view(Match.objects.get(pk=match.pk), 0)
    while not view["your_turn"]:  # the bots before the person, if the deal starts with them: played here
        commands.play_bot_turn(match.pk, view["seq"])
        view = presenters.match_view(Match.objects.get(pk=match.pk), 0)
    del lane[:]
    botlane.use()  # from the person's move on
    commands.submit_action(user=user, match_id=match.pk, payload={"seq": view["seq"], "bid": 3})
    return match, user


def test_quick_bots_answer_on_the_lane_without_a_task(make_user: Any, lane: list[Any]) -> None:
    match, _ = _first_bid(make_user, "normal", lane)
    botlane._lane.shutdown(wait=True)  # type: ignore[union-attr]
    after = Match.objects.get(pk=match.pk)
    assert after.turn == 0 and after.seq > 1  # the three bots bid after the person, on the lane
    assert [name for name, _ in lane if name == "games.tasks.bot_move"] == []


def test_slow_bots_still_go_to_the_workers(make_user: Any, lane: list[Any]) -> None:
    match, _ = _first_bid(make_user, "hard", lane)
    bot_tasks = [args for name, args in lane if name == "games.tasks.bot_move"]
    assert len(bot_tasks) == 1 and bot_tasks[0][:2] == (match.pk, Match.objects.get(pk=match.pk).seq)


def test_a_move_the_lane_cannot_play_goes_to_the_workers(make_user: Any, lane: list[Any], monkeypatch: Any) -> None:
    def fails(play: Any, match_id: int, seq: int) -> int:
        raise RuntimeError("database away")

    monkeypatch.setattr(botchain, "run", fails)
    match, _ = _first_bid(make_user, "normal", lane)
    botlane._lane.shutdown(wait=True)  # type: ignore[union-attr]
    bot_tasks = [args for name, args in lane if name == "games.tasks.bot_move"]
    assert len(bot_tasks) == 1 and bot_tasks[0][:2] == (match.pk, Match.objects.get(pk=match.pk).seq)
