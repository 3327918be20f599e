"""Admin: users (search, filters, deactivation hands seats to bots) and read-only match logs."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD, client_for

from games import services
from games.models import Action, Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def admin_client_(django_user_model: Any) -> Client:
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    client = Client()
    assert client.login(username="root", password=PASSWORD)
    return client


def test_user_list_search_and_filters(admin_client_: Client, make_user: Any) -> None:
    make_user("carol", email="carol@example.com")
    make_user("dave", is_active=False)
    r = admin_client_.get("/admin/auth/user/", {"q": "carol"})
    assert r.status_code == 200
    body = r.content.decode()
    assert "carol@example.com" in body and ">dave<" not in body
    r = admin_client_.get("/admin/auth/user/", {"is_active__exact": "0"})
    body = r.content.decode()
    assert ">dave<" in body and "carol@example.com" not in body
    assert "Deactivate selected users" in admin_client_.get("/admin/auth/user/").content.decode()


def test_deactivate_action_blocks_login_and_bots_take_the_seat(admin_client_: Client, make_user: Any) -> None:
    erin = make_user("erin")
    api = client_for(erin)
    browser = Client()
    assert browser.login(username="erin", password=PASSWORD)
    assert browser.get("/api/me/").status_code == 200
    view = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    assert view["your_turn"]
    r = admin_client_.post("/admin/auth/user/", {"action": "deactivate_users", "_selected_action": [erin.pk]})
    assert r.status_code == 302
    erin.refresh_from_db()
    assert not erin.is_active
    # Cannot log in, the old token no longer works, and a new one cannot be had.
    assert not Client().login(username="erin", password=PASSWORD)
    assert api.get("/api/me/").status_code == 401
    assert browser.get("/api/me/").status_code in (401, 403)  # the open session is dead too
    r = api.post(f"/api/matches/{view['id']}/actions/", {"seq": view["seq"], "bid": 1}, format="json")
    assert r.status_code == 401
    r = APIClient().post("/api/auth/token/", {"username": "erin", "password": PASSWORD}, format="json")
    assert r.status_code == 400
    # Their seat went to a bot, which has played the match to the end (eager mode).
    seat = Seat.objects.get(match_id=view["id"], index=0)
    assert seat.autopilot and seat.bot
    match = Match.objects.get(pk=view["id"])
    assert match.status == "finished"
    made = set(Action.objects.filter(match=match, seat=0).values_list("made_by", flat=True))
    assert made == {"player", "autopilot"} or made == {"autopilot"}


def test_unticking_active_in_the_user_form_also_hands_seats_to_bots(make_user: Any) -> None:
    frank = make_user("frank")
    match = services.create_bot_match(frank)
    frank.is_active = False
    frank.save()
    assert Seat.objects.get(match=match, index=0).autopilot
    match.refresh_from_db()
    assert match.status == "finished"


def test_match_admin_shows_the_log_read_only(admin_client_: Client, make_user: Any) -> None:
    gina = make_user("gina")
    match = services.create_bot_match(gina)
    match.refresh_from_db()
    if match.turn == 0:  # gina bids first with this seed: make one move so the log is not empty
        services.submit_action(user=gina, match_id=match.pk, payload={"seq": match.seq, "bid": 3})
        match.refresh_from_db()
    r = admin_client_.get(f"/admin/games/match/{match.pk}/change/")
    assert r.status_code == 200
    body = r.content.decode()
    assert "Actions" in body or "actions" in body
    first = Action.objects.filter(match=match).order_by("seq").first()
    assert first is not None
    # Read-only inline: no editable inputs for the log rows, no delete boxes.
    assert 'name="actions-0-card"' not in body and 'name="actions-0-DELETE"' not in body
    assert admin_client_.get("/admin/games/match/").status_code == 200
    assert admin_client_.get("/admin/games/match/add/").status_code == 403
    assert admin_client_.get(f"/admin/games/action/{first.pk}/delete/").status_code == 403
    before = (first.seat, first.bid, first.card)
    r = admin_client_.post(f"/admin/games/action/{first.pk}/change/", {"seat": 3, "bid": 13 - (first.bid or 0)})
    assert r.status_code == 403
    first.refresh_from_db()
    assert (first.seat, first.bid, first.card) == before
