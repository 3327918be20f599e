"""NUL characters and digits that are not ASCII, in paths, queries and cookies: a 400 or a 404, never a 500.

PostgreSQL takes no NUL in text, so `/players/%00/` reached a query and failed with a 500 (run this file on
PostgreSQL too: `make test-site-pg`); `"²".isdigit()` is true and `int("²")` fails, so `?seat=%C2%B2` did too.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import client_for

from games.matches import commands
from games.matches.commands import SeatSpec
from games.models import Match
from games.web.bounds import ascii_int

pytestmark = pytest.mark.django_db(transaction=True)

NUL_PATHS = [
    "/players/%00/", "/players/a%00b/", "/api/players/%00/", "/api/tables/invite/%00/", "/invite/%00/",
    "/play/%00/", "/replay/%00/", "/api/matches/?x=%00", "/lobby/?code=%00", "/api/tables/1/?code=%00",
    "/leaderboard/?bots=%00", "/api/leaderboard/?bots=%00", "/accounts/login/?next=%00", "/%00",
]


def _client(user: Any = None) -> Client:
    c = Client(raise_request_exception=False)
    if user is not None:
        c.force_login(user)
    return c


@pytest.mark.parametrize("path", NUL_PATHS)
def test_a_nul_character_anywhere_in_the_url_is_400(path: str, make_user: Any) -> None:
    user = make_user()
    for client in (_client(), _client(user), client_for(user)):
        r = client.get(path)
        assert r.status_code == 400, (path, r.status_code)
        if path.startswith("/api/"):
            assert r.json()["code"] == "bad_request"


def test_a_nul_character_in_a_cookie_is_400(make_user: Any) -> None:
    c = _client(make_user())
    c.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert c.get("/").status_code == 400
    assert c.get("/api/me/").status_code == 400


def test_a_nul_character_in_a_form_or_json_field_is_400() -> None:
    """Bodies were already safe (Django's and DRF's text fields refuse NUL): kept so that stays so."""
    c = _client()
    assert c.post("/accounts/login/", {"username": "a\x00", "password": "x"}).status_code == 200  # the form's error
    r = APIClient().post("/api/auth/token/", {"username": "a\x00", "password": "x"}, format="json")
    assert r.status_code == 400
    r = APIClient().post("/api/auth/signup/", {"username": "a\x00b", "password": "long enough 123"}, format="json")
    assert r.status_code == 400


def _finished_match(user: Any) -> Match:
    match = commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot="random")] * 3)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("seat", ["%C2%B2", "%D9%A3", "%EF%BC%91", "+1", "%201", "1_0", "01", "-1", "4",
                                  "9" * 25, ""])
def test_a_seat_that_is_not_an_ascii_digit_is_400(seat: str, make_user: Any) -> None:
    user = make_user()
    match = _finished_match(user)
    r = client_for(user).get(f"/api/matches/{match.pk}/analysis/?seat={seat}")
    assert r.status_code == 400 and r.json()["code"] == "bad_seat", (seat, r.status_code)


@pytest.mark.parametrize("ident", ["%C2%B2", "%D9%A3", "%EF%BC%91", "99999999999999999999999", "+1", "1_0"])
def test_ids_that_are_not_ascii_digits_are_404(ident: str, make_user: Any) -> None:
    user = make_user()
    commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot="random")] * 3)  # match 1, 3... may exist
    for path in (f"/play/{ident}/", f"/replay/{ident}/", f"/tables/{ident}/"):  # page shells: never a 500
        assert _client(user).get(path).status_code < 500, path
    api = client_for(user)
    for path in ("/api/matches/{}/", "/api/tables/{}/", "/api/matches/{}/analysis/", "/api/matches/{}/replay/"):
        r = api.get(path.format(ident))
        assert r.status_code == 404 and r.json()["code"] in ("not_found", "match_not_found", "table_not_found"), path


def test_ascii_int() -> None:
    assert ascii_int("0") == 0 and ascii_int("123") == 123 and ascii_int("9" * 18) == 10**18 - 1
    for raw in ("", "²", "٣", "１", " 1", "1 ", "+1", "-1", "1_0", "1.0", "9" * 19, None, 3, b"3"):
        assert ascii_int(raw) is None, raw
    assert ascii_int("12", max_digits=1) is None


@pytest.mark.parametrize("path", ["/play/abc/", "/play/%C2%B2/", "/replay/x1/", "/replay/%E0%A5%A7/"])
def test_a_page_of_no_match_is_a_404(path: str, make_user: Any) -> None:
    c = Client()
    c.force_login(make_user())
    assert c.get(path).status_code == 404
