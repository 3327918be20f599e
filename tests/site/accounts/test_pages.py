"""Pages of the players: leaderboard and profile show the ratings, settings turn email off; anonymous is sent
to log in but may see the leaderboard."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from site_helpers import browser, client_for

from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import Profile, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)


def test_anonymous_is_sent_to_log_in_but_may_see_the_leaderboard() -> None:
    c = Client()
    assert c.get("/lobby/").status_code == 302
    assert c.get("/settings/").status_code == 302
    assert c.get("/leaderboard/").status_code == 200


def test_settings_page_turns_email_off(make_user: Any) -> None:
    u = make_user("wes", email="wes@example.com")
    c = browser(u)
    assert 'checked' in c.get("/settings/").content.decode()
    r = c.post("/settings/", {})
    assert r.status_code == 302
    assert Profile.objects.get(user=u).email_notifications is False
    c.post("/settings/", {"email_notifications": "on"})
    assert Profile.objects.get(user=u).email_notifications is True


def test_leaderboard_and_profile_pages_show_ratings(make_user: Any) -> None:
    from games.ratings.commands import rate_match

    a = make_user("ada")
    match = match_commands.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="easy")] * 3, rated=True)
    # play it to the end through the API
    import random

    from site_helpers import choose

    api, rng = client_for(a), random.Random(2)
    while (view := api.get(f"/api/matches/{match.pk}/").json())["status"] != "finished":
        api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
    assert rate_match(match.pk) is False  # already rated on finishing
    c = browser(a)
    board = c.get("/leaderboard/").content.decode()
    assert 'href="/players/ada/"' in board and "Bot (Easy)" in board
    assert "Bot (Easy)" not in c.get("/leaderboard/?bots=0").content.decode()
    prof = c.get("/players/ada/").content.decode()
    assert "<polyline" in prof and RatingChange.objects.filter(rating__user=a).count() == 1
    assert f'href="/replay/{match.pk}/"' in prof
