"""Profile stats are computed from the replays, with one query for all the logs (not one per match)."""

from __future__ import annotations

from typing import Any

import pytest

from games.matches import commands as match_commands
from games.matches import store as match_store
from games.matches.commands import SeatSpec
from games.models import Match
from games.ratings import reads

pytestmark = pytest.mark.django_db(transaction=True)


def test_profile_stats_equal_the_replays_and_load_all_logs_at_once(
    make_user: Any, django_assert_max_num_queries: Any
) -> None:
    user = make_user("pat")
    matches = []
    for seed in ("prof-1", "prof-2", "prof-3", "prof-4", "prof-5"):
        match = match_commands.create_match(
            seats=[SeatSpec(user=user), SeatSpec(bot="random"), SeatSpec(bot="random"), SeatSpec(bot="random")],
            seed=seed,
        )
        match_commands.hand_seats_to_bots(user.pk, bot="random")  # the bots finish it (tasks run eagerly)
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        matches.append(match)

    states = [match_store.state_of(m) for m in matches]
    deals = [d for s in states for d in s.completed]
    expected = {
        "matches": 5,
        "wins": sum(0 in s.winners for s in states),
        "mean_score": round(sum(s.totals[0] for s in states) / 5),
        "bids_made_pct": round(100 * sum(d.tricks_won[0] >= d.bids[0] for d in deals) / len(deals), 1),
    }
    with django_assert_max_num_queries(6):  # not one query per match
        stats = reads.profile("pat")["stats"]  # type: ignore[index]
    assert {k: stats[k] for k in expected} == expected
    assert match_store.states_of(matches).keys() == {m.pk for m in matches}


def test_profile_stats_are_kept_until_another_match_finishes(
    make_user: Any, monkeypatch: Any, django_assert_max_num_queries: Any
) -> None:
    user = make_user("quinn")

    def finish_one(seed: str) -> None:
        match_commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot="random")] * 3, seed=seed)
        match_commands.hand_seats_to_bots(user.pk, bot="random")

    finish_one("cache-1")
    first = reads.profile("quinn")["stats"]  # type: ignore[index]
    assert first["matches"] == 1
    replays = []
    real = match_store.states_of
    monkeypatch.setattr(match_store, "states_of", lambda ms: replays.append(len(ms)) or real(ms))
    with django_assert_max_num_queries(4):  # the user, the rating, its history, the counts: no replay
        assert reads.profile("quinn")["stats"] == first  # type: ignore[index]
    for _ in range(5):
        assert reads.profile("quinn")["stats"] == first  # type: ignore[index]
    assert replays == []  # not one replay for the hits above
    finish_one("cache-2")
    second = reads.profile("quinn")["stats"]  # type: ignore[index]
    assert second["matches"] == 2 and replays == [2]  # recomputed once, for the new finished match
    reads.profile("quinn")
    assert replays == [2]
