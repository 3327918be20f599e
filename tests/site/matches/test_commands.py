"""Match commands and tasks: the log is the truth, bot tasks are idempotent, eager chains do not recurse;
correspondence rules: only missed turns *in a row* hand the seat over, expiry plays once, resigning mid-turn
lets the bot move at once, bot matches have no deadline."""

from __future__ import annotations

import random
import sys
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.utils import timezone
from site_helpers import choose, client_for, two_people

import engine
from games import tasks
from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.models import Action, Match, Seat
from games.platform import outbox
from games.platform.errors import GameError, StaleSeq
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


def check_row_matches_replay(match: Match) -> engine.MatchState:
    """The row's cached seq/turn/status must equal what the engine's replay of the log says."""
    match.refresh_from_db()
    state = store.state_of(match)
    assert match.seq == state.version == Action.objects.filter(match=match).count()
    assert match.turn == state.turn
    assert match.status == ("finished" if state.is_finished else "active")
    assert match.seed_commitment == state.seed_commitment == engine.seed_commitment(match.seed)
    return state


def test_whole_match_of_four_bots_in_eager_mode_without_deep_recursion() -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)  # a recursive chain of 280 moves would blow this
    try:
        match = commands.create_match(seats=[SeatSpec(bot="random")] * 4)
    finally:
        sys.setrecursionlimit(limit)
    state = check_row_matches_replay(match)
    assert state.is_finished and state.version == 280
    assert set(Action.objects.filter(match=match).values_list("made_by", flat=True)) == {"bot"}


def test_row_cache_matches_replay_after_every_action(make_user: Any) -> None:
    users = [make_user() for _ in range(2)]
    match = commands.create_match(seats=[SeatSpec(user=users[0]), SeatSpec(bot="random"),
                                         SeatSpec(user=users[1]), SeatSpec(bot="random")])
    rng = random.Random(5)
    while True:
        state = check_row_matches_replay(match)
        if state.is_finished:
            break
        seat = state.turn
        view = presenters.match_view(match, seat, state)
        commands.submit_action(user=users[seat // 2], match_id=match.pk, payload=choose(view, rng))
    assert state.version == 280


def test_bot_task_is_idempotent_and_ignores_old_seq(make_user: Any) -> None:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users])  # no bot: no chain
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
    match = commands.create_match(seats=[SeatSpec(bot="random")] * 4)
    first = Action.objects.filter(match=match).order_by("seq").first()
    assert first is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Action.objects.create(match=match, seq=first.seq, seat=first.seat, bid=3, made_by="bot")


def test_stale_seq_changes_nothing(make_user: Any) -> None:
    user = make_user()
    match = commands.create_bot_match(user)
    match.refresh_from_db()
    before = match.seq
    with pytest.raises(StaleSeq) as err:
        commands.submit_action(user=user, match_id=match.pk, payload={"seq": before + 1, "bid": 3})
    assert err.value.extra == {"seq": before}
    with pytest.raises(GameError) as err2:
        commands.submit_action(user=user, match_id=match.pk, payload={"seq": before, "bid": 0})
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
    match = commands.create_bot_match(user)
    match.refresh_from_db()
    commands.submit_action(user=user, match_id=match.pk, payload={"seq": match.seq, "bid": 3})  # bots follow
    assert len(seen) >= 3
    for view, seed in seen:
        assert isinstance(view, engine.PlayerView)
        assert view.seat != 0 and view.seat is not None
        assert match.seed not in seed  # bots get their own randomness, never the deal seed
        assert view.to_json()["seed"] is None


def test_beat_sweep_resumes_a_stalled_bot_turn(make_user: Any) -> None:
    user = make_user()
    match = commands.create_bot_match(user)
    match.refresh_from_db()
    human_turn_seq = match.seq
    # Nothing stalled: the sweep finds the human to move and enqueues nothing.
    assert tasks.resume_stalled_bot_turns.apply().get() == 0
    # Put the seat on autopilot without the kick (as if the task had been lost), a minute ago: the sweep plays it.
    Seat.objects.filter(match=match, index=0).update(autopilot=True, bot="random")
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(seconds=60))
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
    match = commands.create_match(seats=[SeatSpec(bot="normal"), SeatSpec(bot="heuristic")] * 2)
    state = check_row_matches_replay(match)
    assert state.is_finished


def test_a_failing_notification_does_not_fail_the_write(make_user: Any, monkeypatch: Any) -> None:
    user = make_user()
    match = commands.create_bot_match(user)
    match.refresh_from_db()

    class BrokenLayer:
        async def group_send(self, *args: Any) -> None:
            raise ConnectionError("redis is down")

    monkeypatch.setattr(outbox, "get_channel_layer", lambda: BrokenLayer())
    seq = match.seq
    _, state = commands.submit_action(user=user, match_id=match.pk, payload={"seq": seq, "bid": 2})
    assert state.version == seq + 1
    match.refresh_from_db()
    assert match.seq > seq  # stored, and the bots still moved after it


# --- correspondence: deadlines, autopilot, resigning -------------------------------------------

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
    assert commands.play_expired_turn(match.pk, seq) is False  # not yet due
    with time_machine.travel(match.deadline + timedelta(seconds=1), tick=False):
        assert commands.play_expired_turn(match.pk, seq) is True
        assert commands.play_expired_turn(match.pk, seq) is False  # a second timer/sweep: nothing
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
        commands.submit_action(user=user, match_id=match.pk, payload={"seq": match.seq, "bid": 3})


def test_bot_matches_have_no_deadline(make_user: Any) -> None:
    match = commands.create_bot_match(make_user("solo"))
    match.refresh_from_db()
    assert match.deadline is None and match.move_seconds is None and not match.rated
    view = client_for(match.seats.get(index=0).user).get(f"/api/matches/{match.pk}/").json()
    assert view["deadline"] is None and view["seconds_left"] is None
