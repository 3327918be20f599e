"""A write's events carry a frozen ``MatchSnapshot`` (row, seats, state) that each reaction derives from: the
"My matches" row drawn from it is the row drawn from the match read back, and no reaction can change it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.matches.events import MatchAdvanced, MatchSnapshot
from games.platform import outbox

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_snapshot_draws_the_rows_the_match_read_back_does(make_user: Any, monkeypatch: Any) -> None:
    seen: list[MatchAdvanced] = []
    monkeypatch.setitem(outbox._REACTIONS, MatchAdvanced, [seen.append])
    users = [make_user(), make_user()]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users] + [SeatSpec(bot="random")] * 2,
                                  rated=True)
    (event,) = seen
    snapshot = event.match
    assert isinstance(snapshot, MatchSnapshot) and snapshot.seq == event.seq == 0
    loaded = store.load(match.pk)
    assert loaded is not None
    for seat in range(2):
        assert presenters.snapshot_summary(snapshot, seat) == presenters.match_summary(loaded, seat)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.seats[0].autopilot = True  # type: ignore[misc]
