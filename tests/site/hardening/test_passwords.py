"""Passwords under a crowd: Argon2id first (old hashes redone at the next log-in), no transaction open (so no
pooled connection held) while a password is hashed, on every way in; a bounded queue for the hashing slots,
503 with Retry-After past it; a pool that waited too long is a 503 with Retry-After too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher, make_password
from django.db import OperationalError, connection
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD

from games.platform import passwords
from games.web.api_errors import unavailable

pytestmark = pytest.mark.django_db(transaction=True)

ARGON2ID = "argon2$argon2id$v=19$m=19456,t=2,p=1$"


def _api_login(name: str, password: str = PASSWORD) -> Any:
    return APIClient().post("/api/auth/token/", {"username": name, "password": password}, format="json")


def _html_login(name: str, password: str = PASSWORD) -> Any:
    return Client().post("/accounts/login/", {"username": name, "password": password})


def _admin_login(name: str, password: str = PASSWORD) -> Any:
    return Client().post("/admin/login/", {"username": name, "password": password})


def test_new_accounts_get_argon2id_at_the_chosen_cost(make_user: Any) -> None:
    r = APIClient().post("/api/auth/signup/", {"username": "newton", "password": PASSWORD}, format="json")
    assert r.status_code == 201
    r = Client().post("/accounts/signup/", {"username": "newtona", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302
    from django.contrib.auth.models import User

    for name in ("newton", "newtona"):
        assert User.objects.get(username=name).password.startswith(ARGON2ID)
    assert make_user("made").password.startswith(ARGON2ID)


@pytest.mark.parametrize("login", [_api_login, _html_login, _admin_login])
@pytest.mark.parametrize("old", ["pbkdf2", "argon2-default"])
def test_an_older_hash_is_redone_at_the_next_log_in(login: Any, old: str, django_user_model: Any) -> None:
    if old == "pbkdf2":
        encoded = make_password(PASSWORD, hasher="pbkdf2_sha256")
        assert encoded.startswith("pbkdf2_sha256$")
    else:  # Django's own Argon2 cost (100 MiB, 8 lanes)
        encoded = Argon2PasswordHasher().encode(PASSWORD, Argon2PasswordHasher().salt())
        assert "m=102400,t=2,p=8" in encoded
    user = django_user_model.objects.create_user("olga", is_staff=True)
    django_user_model.objects.filter(pk=user.pk).update(password=encoded)
    assert login("olga", "wrong password").status_code in (200, 400)  # refused, and nothing redone
    user.refresh_from_db()
    assert user.password == encoded
    assert login("olga").status_code in (200, 302)
    user.refresh_from_db()
    assert user.password.startswith(ARGON2ID) and user.check_password(PASSWORD)
    assert login("olga").status_code in (200, 302)  # and the new hash lets them in


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Each hash made or checked: (what, whether a transaction was open around it)."""
    seen: list[tuple[str, bool]] = []
    encode, verify = passwords.Argon2idHasher.encode, passwords.Argon2idHasher.verify

    def spy_encode(self: Any, password: str, salt: str) -> str:
        seen.append(("encode", connection.in_atomic_block))
        return encode(self, password, salt)

    def spy_verify(self: Any, password: str, encoded: str) -> bool:
        seen.append(("verify", connection.in_atomic_block))
        return verify(self, password, encoded)

    monkeypatch.setattr(passwords.Argon2idHasher, "encode", spy_encode)
    monkeypatch.setattr(passwords.Argon2idHasher, "verify", spy_verify)
    return seen


def test_no_transaction_is_open_while_a_password_is_hashed(hashes: list[tuple[str, bool]],
                                                            django_user_model: Any) -> None:
    """A transaction pins the pooled connection (it cannot go back to the pool): a sign-up hashed inside its
    own, so a burst of sign-ups held every connection of the pool while they hashed."""
    r = APIClient().post("/api/auth/signup/", {"username": "hugo", "password": PASSWORD}, format="json")
    assert r.status_code == 201
    r = Client().post("/accounts/signup/", {"username": "hilda", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302
    django_user_model.objects.filter(username="hugo").update(is_staff=True)
    assert _api_login("hugo").status_code == 200
    assert _html_login("hugo").status_code == 302
    assert _admin_login("hugo").status_code == 302
    assert _api_login("nobody").status_code == 400  # a made-up name is hashed too (same time as a real one)
    assert len(hashes) >= 6 and {kind for kind, _ in hashes} == {"encode", "verify"}
    assert not any(in_transaction for _, in_transaction in hashes), hashes


@pytest.fixture
def slots_taken(settings: Any) -> Iterator[None]:
    """Every hashing slot taken (as by a crowd) and a short wait for one."""
    settings.PASSWORD_HASH_SLOTS = 1
    settings.PASSWORD_HASH_WAIT = 0.05
    semaphore = passwords._semaphore()
    assert semaphore.acquire(timeout=5)
    yield
    semaphore.release()


def test_past_the_wait_for_a_hashing_slot_the_answer_is_503_with_retry_after(
        make_user: Any, slots_taken: None) -> None:
    answers = [
        APIClient().post("/api/auth/signup/", {"username": "quinn", "password": PASSWORD}, format="json"),
        _api_login("quinn"),
    ]
    for r in answers:
        assert r.status_code == 503 and r.json()["code"] == "busy" and r["Retry-After"] == "5", r.content
    page = Client(raise_request_exception=False)
    for r in (page.post("/accounts/signup/", {"username": "quinn", "password1": PASSWORD, "password2": PASSWORD}),
              page.post("/accounts/login/", {"username": "quinn", "password": PASSWORD})):
        assert r.status_code == 503 and r["Retry-After"] == "5"


def test_a_slot_freed_in_time_is_taken(settings: Any) -> None:
    settings.PASSWORD_HASH_SLOTS = 1
    settings.PASSWORD_HASH_WAIT = 10
    semaphore = passwords._semaphore()
    assert semaphore.acquire(timeout=5)
    import threading

    threading.Timer(0.3, semaphore.release).start()
    r = APIClient().post("/api/auth/signup/", {"username": "patient", "password": PASSWORD}, format="json")
    assert r.status_code == 201


def test_a_pool_that_waited_too_long_is_503_with_a_longer_retry_after() -> None:
    class PoolTimeout(Exception):  # psycopg_pool's, as Django wraps it
        pass

    waited = OperationalError("couldn't get a connection after 20.00 sec")
    waited.__cause__ = PoolTimeout()
    assert unavailable(waited) == ({"code": "unavailable", "detail": "The service is briefly unavailable; try again."},
                                   5)
    assert unavailable(OperationalError("server closed the connection"))[1] == 1  # type: ignore[index]
    assert unavailable(ValueError()) is None
