"""Services and tasks: the log is the truth, bot tasks are idempotent, eager chains do not recurse."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from site_helpers import choose

import engine
from games import selectors, services, tasks
from games.errors import GameError, StaleSeq
from games.models import Action, Match, Seat
from games.services import SeatSpec

pytestmark = pytest.mark.django_db(transaction=True)


def check_row_matches_replay(match: Match) -> engine.MatchState:
    """The row's cached seq/turn/status must equal what the engine's replay of the log says."""
    match.refresh_from_db()
    state = selectors.match_state(match)
    assert match.seq == state.version == Action.objects.filter(match=match).count()
    assert match.turn == state.turn
    assert match.status == ("finished" if state.is_finished else "active")
    assert match.seed_commitment == state.seed_commitment == engine.seed_commitment(match.seed)
    return state


def test_whole_match_of_four_bots_in_eager_mode_without_deep_recursion() -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)  # a recursive chain of 280 moves would blow this
    try:
        match = services.create_match(seats=[SeatSpec(bot="random")] * 4)
    finally:
        sys.setrecursionlimit(limit)
    state = check_row_matches_replay(match)
    assert state.is_finished and state.version == 280
    assert set(Action.objects.filter(match=match).values_list("made_by", flat=True)) == {"bot"}


def test_row_cache_matches_replay_after_every_action(make_user: Any) -> None:
    users = [make_user() for _ in range(2)]
    match = services.create_match(seats=[SeatSpec(user=users[0]), SeatSpec(bot="random"),
                                         SeatSpec(user=users[1]), SeatSpec(bot="random")])
    rng = random.Random(5)
    while True:
        state = check_row_matches_replay(match)
        if state.is_finished:
            break
        seat = state.turn
        view = selectors.match_view(match, seat, state)
        services.submit_action(user=users[seat // 2], match_id=match.pk, payload=choose(view, rng))
    assert state.version == 280


def test_bot_task_is_idempotent_and_ignores_old_seq(make_user: Any) -> None:
    users = [make_user() for _ in range(4)]
    match = services.create_match(seats=[SeatSpec(user=u) for u in users])  # no bot: no chain
    match.refresh_from_db()
    assert match.seq == 0
    # A person's turn: the task plays nothing.
    assert tasks.bot_move.apply(args=(match.pk, 0)).get() is False
    # Hand the seat to act to a bot (no kick), then deliver its task twice.
    Seat.objects.filter(match=match, index=match.turn).update(autopilot=True, bot="random")
    assert tasks.bot_move.apply(args=(match.pk, 0)).get() is True
    assert tasks.bot_move.apply(args=(match.pk, 0)).get() is False  # redelivered: plays nothing
    assert Action.objects.filter(match=match).count() == 1
    assert Action.objects.get(match=match).made_by == "autopilot"
    # A task for a future seq, or an unknown match, does nothing either.
    assert tasks.bot_move.apply(args=(match.pk, 5)).get() is False
    assert tasks.bot_move.apply(args=(999999, 0)).get() is False
    check_row_matches_replay(match)


def test_unique_seq_in_the_log() -> None:
    match = services.create_match(seats=[SeatSpec(bot="random")] * 4)
    first = Action.objects.filter(match=match).order_by("seq").first()
    assert first is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Action.objects.create(match=match, seq=first.seq, seat=first.seat, bid=3, made_by="bot")


def test_stale_seq_changes_nothing(make_user: Any) -> None:
    user = make_user()
    match = services.create_bot_match(user)
    match.refresh_from_db()
    before = match.seq
    with pytest.raises(StaleSeq) as err:
        services.submit_action(user=user, match_id=match.pk, payload={"seq": before + 1, "bid": 3})
    assert err.value.extra == {"seq": before}
    with pytest.raises(GameError) as err2:
        services.submit_action(user=user, match_id=match.pk, payload={"seq": before, "bid": 0})
    assert err2.value.code == "bid_out_of_range"
    match.refresh_from_db()
    assert match.seq == before == Action.objects.filter(match=match).count()


def test_bots_decide_from_their_own_view_only(make_user: Any, monkeypatch: Any) -> None:
    seen: list[Any] = []
    real = engine.bots.decide

    def spy(name: str, view: Any, seed: str) -> Any:
        seen.append((view, seed))
        return real(name, view, seed)

    monkeypatch.setattr(engine.bots, "decide", spy)
    user = make_user()
    match = services.create_bot_match(user)
    match.refresh_from_db()
    services.submit_action(user=user, match_id=match.pk, payload={"seq": match.seq, "bid": 3})  # bots follow
    assert len(seen) >= 3
    for view, seed in seen:
        assert isinstance(view, engine.PlayerView)
        assert view.seat != 0 and view.seat is not None
        assert match.seed not in seed  # bots get their own randomness, never the deal seed
        assert view.to_json()["seed"] is None


def test_beat_sweep_resumes_a_stalled_bot_turn(make_user: Any) -> None:
    user = make_user()
    match = services.create_bot_match(user)
    match.refresh_from_db()
    human_turn_seq = match.seq
    # Nothing stalled: the sweep finds the human to move and enqueues nothing.
    assert tasks.resume_stalled_bot_turns.apply().get() == 0
    # Put the seat on autopilot without the kick (as if the task had been lost): the sweep plays it.
    Seat.objects.filter(match=match, index=0).update(autopilot=True, bot="random")
    assert tasks.resume_stalled_bot_turns.apply().get() == 1
    match.refresh_from_db()
    assert match.status == "finished"
    assert match.seq > human_turn_seq
    assert set(Action.objects.filter(match=match, seat=0).values_list("made_by", flat=True)) >= {"autopilot"}


def test_a_bot_that_breaks_the_rules_does_not_stall_the_match(make_user: Any, monkeypatch: Any) -> None:
    real = engine.bots.decide

    def broken(name: str, view: Any, seed: str) -> Any:
        if name == "normal":  # an illegal move: a card during bidding, or a bid during play
            return engine.Play(view.seat, "AS") if view.phase == "bidding" else engine.Bid(view.seat, 13)
        if name == "heuristic":
            raise KeyError("a bug inside a bot")
        return real(name, view, seed)

    monkeypatch.setattr(engine.bots, "decide", broken)
    match = services.create_match(seats=[SeatSpec(bot="normal"), SeatSpec(bot="heuristic")] * 2)
    state = check_row_matches_replay(match)
    assert state.is_finished


def test_a_failing_notification_does_not_fail_the_write(make_user: Any, monkeypatch: Any) -> None:
    user = make_user()
    match = services.create_bot_match(user)
    match.refresh_from_db()

    class BrokenLayer:
        async def group_send(self, *args: Any) -> None:
            raise ConnectionError("redis is down")

    monkeypatch.setattr(services, "get_channel_layer", lambda: BrokenLayer())
    seq = match.seq
    _, state = services.submit_action(user=user, match_id=match.pk, payload={"seq": seq, "bid": 2})
    assert state.version == seq + 1
    match.refresh_from_db()
    assert match.seq > seq  # stored, and the bots still moved after it
