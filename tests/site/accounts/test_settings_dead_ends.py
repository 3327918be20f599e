"""The settings page without dead ends: a password change (revokes the account's API tokens and closes its sockets,
this browser stays signed in), an email added or changed through a confirmation link (kept only once the link is
opened), deactivating one's own account (the admin's command: bots take the running seats, logged out), and the
table's options with "tap twice to play", saved and read back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from hardening.test_sockets_follow_the_account import closed_within_a_second, open_socket, sync
from rest_framework.test import APIClient
from site_helpers import PASSWORD, browser, client_for, token_for

from games.accounts import commands
from games.accounts.models import ApiToken
from games.models import Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "another-horse-battery-7"


def _api(key: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def _change_password(c: Client, old: str, new: str, again: str | None = None) -> Any:
    return c.post("/settings/", {"form": "password", "old_password": old, "new_password1": new,
                                 "new_password2": again if again is not None else new})


def test_the_page_shows_every_part(make_user: Any) -> None:
    page = browser(make_user("pia")).get("/settings/").content.decode()
    for part in ('id="table"', 'name="tap_twice"', 'name="card_speed"', 'id="email"', 'data-testid="email-form"',
                 'id="password"', 'name="old_password"', 'id="deactivate"', 'data-testid="deactivate-form"'):
        assert part in page, part
    assert len(re.findall(r'id="([^"]+)"', page)) == len(set(re.findall(r'id="([^"]+)"', page)))  # no id twice


def test_a_wrong_old_password_or_a_weak_new_one_changes_nothing(make_user: Any) -> None:
    u = make_user("quin")
    key = token_for(u)
    c = browser(u)
    r = _change_password(c, "not-my-password", NEW_PASSWORD)
    assert r.status_code == 400 and "old password was entered incorrectly" in r.content.decode()
    r = _change_password(c, PASSWORD, "12345678")
    assert r.status_code == 400 and "entirely numeric" in r.content.decode()
    r = _change_password(c, PASSWORD, NEW_PASSWORD, "something-else-9")
    assert r.status_code == 400
    u.refresh_from_db()
    assert u.check_password(PASSWORD) and _api(key).get("/api/me/").status_code == 200


def test_the_password_rules_are_translated(make_user: Any) -> None:
    r = _change_password(browser(make_user("ravi"), lang="hi"), PASSWORD, "12345678")
    body = r.content.decode()
    assert r.status_code == 400 and "entirely numeric" not in body and "पासवर्ड" in body


async def test_a_password_change_revokes_the_tokens_closes_the_sockets_and_keeps_this_browser(make_user: Any) -> None:
    u = await sync(make_user)("rosa")
    keys = [await sync(token_for)(u), await sync(token_for)(u)]
    here, elsewhere = await sync(browser)(u), await sync(browser)(u)
    sockets = [await open_socket("/ws/me/", token=keys[0]),
               await open_socket("/ws/me/", cookie=f"sessionid={elsewhere.cookies['sessionid'].value}")]
    r = await sync(_change_password)(here, PASSWORD, NEW_PASSWORD)
    assert r.status_code == 302 and r["Location"] == "/settings/#password"
    for comm in sockets:
        await closed_within_a_second(comm)
    assert not await sync(ApiToken.objects.filter(user=u).exists)()
    for key in keys:
        assert (await sync(_api(key).get)("/api/me/")).status_code == 401
    assert (await sync(here.get)("/settings/")).status_code == 200  # update_session_auth_hash: still signed in
    assert (await sync(elsewhere.get)("/settings/")).status_code == 302  # the other browser must log in again
    assert await sync(Client().login)(username="rosa", password=NEW_PASSWORD)


def _link_path(body: str) -> str:
    found = re.search(r"https?://[^/\s]+(/settings/email/\S+/)", body)
    assert found, body
    return found.group(1)


@pytest.mark.parametrize("before", ["", "old@example.com"])
def test_an_email_is_kept_only_once_its_link_is_opened(make_user: Any, before: str) -> None:
    u = make_user("sara", email=before)
    c = browser(u)
    heading = "Add an email address" if not before else "Change your email address"
    assert heading in c.get("/settings/").content.decode()
    mail.outbox.clear()
    r = c.post("/settings/", {"form": "email", "email": "sara@example.com", "password": "wrong"})
    assert r.status_code == 400 and not mail.outbox
    r = c.post("/settings/", {"form": "email", "email": "not an address", "password": PASSWORD})
    assert r.status_code == 400 and not mail.outbox
    r = c.post("/settings/", {"form": "email", "email": "sara@example.com", "password": PASSWORD})
    assert r.status_code == 302
    assert [m.to for m in mail.outbox] == [["sara@example.com"]]
    u.refresh_from_db()
    assert u.email == before  # not yet
    link = _link_path(mail.outbox[0].body)
    page = Client().get(link)  # a mail scanner's visit, not signed in: it only shows the button
    assert page.status_code == 200 and "sara@example.com" in page.content.decode()
    u.refresh_from_db()
    assert u.email == before
    assert Client().post(link).status_code == 302
    u.refresh_from_db()
    assert u.email == "sara@example.com"
    again = Client().post(link)  # a link works once
    assert again.status_code == 400 and "used already" in again.content.decode()


def test_a_forged_or_expired_link_is_refused(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    u = make_user("tara", email="tara@example.com")
    token = commands.email_change_token(u, "evil@example.com")
    r = Client().post(f"/settings/email/{token[:-2]}xx/")
    assert r.status_code == 400 and "not valid" in r.content.decode()
    monkeypatch.setattr(commands, "EMAIL_CHANGE_MAX_AGE", -1)
    r = Client().get(f"/settings/email/{token}/")
    assert r.status_code == 400 and "expired" in r.content.decode()
    u.refresh_from_db()
    assert u.email == "tara@example.com"


def test_deactivating_my_account_hands_my_seats_to_bots_and_logs_me_out(make_user: Any) -> None:
    u = make_user("uday")
    api = client_for(u)
    view = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    assert view["your_turn"]
    c = browser(u)
    r = c.post("/settings/", {"form": "deactivate", "password": "wrong"})
    assert r.status_code == 400
    u.refresh_from_db()
    assert u.is_active
    r = c.post("/settings/", {"form": "deactivate", "password": PASSWORD})
    assert r.status_code == 302 and r["Location"] == "/"
    u.refresh_from_db()
    assert not u.is_active
    assert c.get("/settings/").status_code == 302  # logged out
    assert api.get("/api/me/").status_code == 401
    assert not Client().login(username="uday", password=PASSWORD)
    seat = Seat.objects.get(match_id=view["id"], index=0)
    assert seat.autopilot and seat.bot
    assert Match.objects.get(pk=view["id"]).status == "finished"  # the bot played it out (eager mode)


def test_the_table_options_are_saved_and_read_back(make_user: Any) -> None:
    u = make_user("vani")
    c = browser(u)
    assert client_for(u).get("/api/me/settings/").json()["tap_twice"] is False
    r = c.post("/settings/", {"form": "table", "card_speed": "fast", "tap_twice": "on", "vibration": "on"})
    assert r.status_code == 302 and r["Location"] == "/settings/#table"
    got = client_for(u).get("/api/me/settings/").json()
    assert {k: got[k] for k in ("card_speed", "tap_twice", "sound", "vibration", "auto_play")} == {
        "card_speed": "fast", "tap_twice": True, "sound": False, "vibration": True, "auto_play": False}
    page = c.get("/settings/").content.decode()
    assert re.search(r'value="fast"[^>]*checked', page) and re.search(r'name="tap_twice"[^>]*checked', page)
    assert c.post("/settings/", {"form": "table", "card_speed": "warp"}).status_code == 400
    assert client_for(u).patch("/api/me/settings/", {"tap_twice": "yes"}, format="json").status_code == 400
    assert client_for(u).patch("/api/me/settings/", {"tap_twice": False}, format="json").json()["tap_twice"] is False


def test_an_unknown_form_is_a_400(make_user: Any) -> None:
    assert browser(make_user("wen")).post("/settings/", {"form": "nonsense"}).status_code == 400
