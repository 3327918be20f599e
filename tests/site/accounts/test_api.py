"""The accounts API: sign up, token log in and out, session log in with CSRF."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient
from site_helpers import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def test_signup_gives_a_token_that_works() -> None:
    client = APIClient()
    r = client.post("/api/auth/signup/", {"username": "bob", "password": PASSWORD, "email": "b@example.com"},
                    format="json")
    assert r.status_code == 201, r.content
    token = r.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "bob"
    assert me.json()["email"] == "b@example.com"


@pytest.mark.parametrize(
    "body, code",
    [
        ({"username": "bob", "password": "123"}, "invalid"),          # too short, numeric
        ({"username": "bob", "password": "password"}, "invalid"),     # too common
        ({"username": "bob"}, "invalid"),
        ({"username": "bad name!", "password": PASSWORD}, "invalid"),
        ({"username": "bob", "password": PASSWORD, "email": "not-an-email"}, "invalid"),
    ],
)
def test_signup_refuses_bad_input(body: dict[str, Any], code: str) -> None:
    r = APIClient().post("/api/auth/signup/", body, format="json")
    assert r.status_code == 400
    assert r.json()["code"] == code
    assert r.json()["detail"]


def test_signup_refuses_taken_username(user: Any) -> None:
    r = APIClient().post("/api/auth/signup/", {"username": "ALICE", "password": PASSWORD}, format="json")
    assert r.status_code == 400
    assert "taken" in r.json()["detail"]


def test_token_login_and_logout(user: Any) -> None:
    client = APIClient()
    bad = client.post("/api/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_credentials"
    r = client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json")
    assert r.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
    assert client.get("/api/me/").status_code == 200
    assert client.post("/api/auth/logout/").status_code == 204
    after = client.get("/api/me/")
    assert after.status_code == 401
    assert after.json()["code"] in {"authentication_failed", "not_authenticated"}


def test_session_login_uses_csrf(user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="alice", password=PASSWORD)
    assert client.get("/api/me/").status_code == 200
    r = client.post("/api/matches/", {"opponents": "bots"}, format="json")
    assert r.status_code == 403
    assert r.json()["code"] == "permission_denied"
    assert "CSRF" in r.json()["detail"]


def test_table_options_are_kept_per_account(user: Any) -> None:
    """The table's options: defaults first, a change kept for this account only, bad values refused."""
    client = APIClient()
    client.force_authenticate(user)
    r = client.get("/api/me/settings/")
    assert r.json() == {"email_notifications": True, "card_speed": "normal", "auto_play": True,
                        "sound": True, "vibration": True, "tap_twice": False}
    r = client.patch("/api/me/settings/", {"card_speed": "instant", "sound": False}, format="json")
    assert r.status_code == 200 and r.json()["card_speed"] == "instant" and r.json()["sound"] is False
    r = client.patch("/api/me/settings/", {"auto_play": False}, format="json")
    assert r.json() == {"email_notifications": True, "card_speed": "instant", "auto_play": False,
                        "sound": False, "vibration": True, "tap_twice": False}
    for bad in ({"card_speed": "warp"}, {"sound": "yes"}, {"vibration": 1}):
        r = client.patch("/api/me/settings/", bad, format="json")
        assert r.status_code == 400 and r.json()["code"] == "invalid", (bad, r.content)
    other = APIClient()
    other.force_authenticate(type(user).objects.create_user(username="other_opts", password=PASSWORD))
    assert other.get("/api/me/settings/").json()["card_speed"] == "normal"
