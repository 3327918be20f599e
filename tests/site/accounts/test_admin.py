"""Admin of users: search and filters, deactivation (the action or the form) hands their seats to bots,
and a password-reset email that works."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.admin.widgets import AdminSplitDateTime as SplitDateTimeWidget
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD, client_for

from games.matches import commands as match_commands
from games.models import Action, Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)


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


def _change_form_data(client: Client, url: str) -> dict[str, Any]:
    """What the admin's change form posts back unchanged: each field's initial value, as its widget sends it."""
    form = client.get(url).context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name)
        if isinstance(field.widget, SplitDateTimeWidget):
            data[f"{name}_0"], data[f"{name}_1"] = (value.date(), value.time()) if value else ("", "")
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list):
            data[name] = [getattr(v, "pk", v) for v in value]
        elif value is not None:
            data[name] = value
    return data


def test_unticking_active_in_the_user_form_also_hands_seats_to_bots(admin_client_: Client, make_user: Any) -> None:
    frank = make_user("frank")
    match = match_commands.create_bot_match(frank)
    url = f"/admin/auth/user/{frank.pk}/change/"
    data = _change_form_data(admin_client_, url)
    del data["is_active"]  # unticked
    r = admin_client_.post(url, data)
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    frank.refresh_from_db()
    assert not frank.is_active
    assert Seat.objects.get(match=match, index=0).autopilot
    match.refresh_from_db()
    assert match.status == "finished"


def test_admin_sends_a_password_reset_email_that_works(root: Client, make_user: Any) -> None:
    u = make_user("ria", email="ria@example.com")
    mail.outbox.clear()
    r = root.post("/admin/auth/user/", {"action": "send_password_reset", "_selected_action": [u.pk]})
    assert r.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ria@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    c = Client()
    r = c.get(link.group(1), follow=True)
    assert r.status_code == 200
    form_url = r.redirect_chain[-1][0] if r.redirect_chain else link.group(1)
    new = "another-horse-battery-7"
    r = c.post(form_url, {"new_password1": new, "new_password2": new})
    assert r.status_code == 302
    assert Client().login(username="ria", password=new)
