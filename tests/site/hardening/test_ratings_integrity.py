"""Ratings can't be farmed: a rated table seats people and the rated bot levels only (never `random`), and
the API says why it refuses; a rated match made otherwise is not rated. Staff do not see the seed (nor the
bot seed) of a match that is not finished."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from site_helpers import choose, client_for

from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import Match, Rating, RatingChange, Table
from games.ratings.commands import rate_match

pytestmark = pytest.mark.django_db(transaction=True)


def _table(client: Any, rated: bool) -> dict[str, Any]:
    r = client.post("/api/tables/", {"visibility": "private", "move_seconds": 86400, "rated": rated}, format="json")
    assert r.status_code == 201
    return dict(r.json())


def test_a_rated_table_refuses_random_bots_and_says_why(make_user: Any) -> None:
    host = client_for(make_user("hana"))
    t = _table(host, rated=True)
    r = host.post(f"/api/tables/{t['id']}/bots/", {"bot": "random"}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "unrated_bot" and "rated" in body["detail"] and body["levels"] == ["easy", "hard", "normal"]
    assert all(s["kind"] != "bot" for s in host.get(f"/api/tables/{t['id']}/").json()["seats"])
    for level in ("heuristic", "strong"):  # engine kinds under another name: not rating identities either
        assert host.post(f"/api/tables/{t['id']}/bots/", {"bot": level}, format="json").json()["code"] == "unrated_bot"
    r = host.post(f"/api/tables/{t['id']}/bots/", {"bot": "hard", "seats": [1]}, format="json")
    assert r.status_code == 200
    # an unrated table takes any level
    u = _table(host, rated=False)
    assert host.post(f"/api/tables/{u['id']}/bots/", {"bot": "random"}, format="json").status_code == 200
    assert host.post(f"/api/tables/{u['id']}/start/").status_code == 201


def test_a_rated_table_with_a_random_bot_does_not_start(make_user: Any) -> None:
    host = client_for(make_user("hugo"))
    t = _table(host, rated=False)
    host.post(f"/api/tables/{t['id']}/bots/", {"bot": "random"}, format="json")
    Table.objects.filter(pk=t["id"]).update(rated=True)  # as if made rated some other way
    r = host.post(f"/api/tables/{t['id']}/start/")
    assert r.status_code == 400 and r.json()["code"] == "unrated_bot"
    assert not Match.objects.exists()


def test_a_rated_match_with_random_bots_made_elsewhere_is_not_rated(make_user: Any) -> None:
    a = make_user("rita")
    match = match_commands.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3, rated=True)
    api, rng = client_for(a), random.Random(3)
    while (view := api.get(f"/api/matches/{match.pk}/").json())["status"] != "finished":
        api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
    assert rate_match(match.pk) is False
    match.refresh_from_db()
    assert match.rated is False
    assert not RatingChange.objects.exists() and not Rating.objects.filter(games__gt=0).exists()


def test_the_admin_hides_the_seeds_of_a_match_that_is_not_finished(root: Client, make_user: Any) -> None:
    a = make_user("sam")
    match = match_commands.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3)
    match.refresh_from_db()
    page = root.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert match.seed not in page and match.bot_seed not in page
    assert match.seed_commitment in page
    assert match.seed not in root.get(f"/admin/games/match/?q={match.pk}").content.decode()
    api, rng = client_for(a), random.Random(4)
    while (view := api.get(f"/api/matches/{match.pk}/").json())["status"] != "finished":
        api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
    page = root.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert match.seed in page and match.bot_seed in page
    aborted = match_commands.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3)
    assert match_commands.abort_match(aborted)
    aborted.refresh_from_db()
    assert aborted.seed not in root.get(f"/admin/games/match/{aborted.pk}/change/").content.decode()
