"""Ratings: bot levels are rated as their own identities, an aborted match is not rated, and the sweep
rates a finished match whose rating task was lost."""

from __future__ import annotations

import random
from typing import Any

import pytest
from site_helpers import choose, client_for

from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import Match, Rating, RatingChange
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


def test_bot_levels_are_rated_identities_and_aborted_matches_are_not_rated(make_user: Any) -> None:
    alice = make_user("alice2")
    client = client_for(alice)
    t = client.post("/api/tables/", {"visibility": "private", "move_seconds": 86400, "rated": True},
                    format="json").json()
    client.post(f"/api/tables/{t['id']}/bots/", {"bot": "normal"}, format="json")
    match_id = client.post(f"/api/tables/{t['id']}/start/").json()["match_id"]
    rng = random.Random(5)
    while True:
        view = client.get(f"/api/matches/{match_id}/").json()
        if view["status"] == "finished":
            break
        assert client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json").status_code == 200
    bot = Rating.objects.get(bot="normal")
    assert bot.games == 1 and bot.user is None
    assert Rating.objects.get(user=alice).games == 1
    assert RatingChange.objects.filter(match_id=match_id).count() == 2  # one identity per bot level
    rows = client.get("/api/leaderboard/").json()
    assert {r["kind"] for r in rows} == {"human", "bot"}
    assert [r["kind"] for r in client.get("/api/leaderboard/?bots=0").json()] == ["human"]
    assert rows == sorted(rows, key=lambda r: (r["provisional"], -r["shown"]))  # settled first, then by the number

    # an aborted match: nobody rated, no more actions
    t2 = client.post("/api/tables/", {"visibility": "private", "move_seconds": 86400}, format="json").json()
    client.post(f"/api/tables/{t2['id']}/bots/", {"bot": "normal"}, format="json")
    m2 = Match.objects.get(pk=client.post(f"/api/tables/{t2['id']}/start/").json()["match_id"])
    assert match_commands.abort_match(m2)
    m2.refresh_from_db()
    assert m2.status == "aborted" and m2.deadline is None
    view = client.get(f"/api/matches/{m2.pk}/").json()
    assert view["status"] == "aborted"
    r = client.post(f"/api/matches/{m2.pk}/actions/", {"seq": m2.seq, "bid": 3}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "aborted"
    from games.ratings.commands import rate_match

    assert rate_match(m2.pk) is False
    assert not RatingChange.objects.filter(match=m2).exists()
    assert Rating.objects.get(user=alice).games == 1


def test_sweep_rates_a_finished_match_whose_rating_task_was_lost(make_user: Any) -> None:
    a = make_user("rae")
    match = match_commands.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="easy")] * 3, rated=True)
    api, rng = client_for(a), random.Random(8)
    while (view := api.get(f"/api/matches/{match.pk}/").json())["status"] != "finished":
        api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
    # as if the task had been lost with a worker
    RatingChange.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(rated_at=None)
    assert sweep_deadlines.delay().get()["rated"] == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sweep_deadlines.delay().get()["rated"] == 0
