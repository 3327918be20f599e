"""Rate limits and the log-in lockout: per address and per account on sign-up and log-in, per user on actions
and on new matches and tables; a clear 429 with Retry-After; limits from settings; a cache that does not
answer lets requests through. 30 wrong passwords in a row no longer leave the account open to the 31st."""

from __future__ import annotations

import time
from typing import Any

import pytest
import time_machine
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD, client_for

from games.platform import ratelimit
from games.platform.ratelimit import Rate, parse_rate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.rate_limits]

NOON = (time.time() // 3600 + 1) * 3600  # the next full hour: the start of every window used here


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # dozens of log-ins here


def _limits(settings: Any, **rates: str) -> None:
    settings.RATE_LIMITS = {scope: (kind, rates.get(scope, rate))
                            for scope, (kind, rate) in settings.RATE_LIMITS.items()}


def test_rates_are_read_from_settings() -> None:
    assert parse_rate("20/s") == Rate(20, 1)
    assert parse_rate("100/10s") == Rate(100, 10)
    assert parse_rate("300/min") == Rate(300, 60) == parse_rate("300/minute")
    assert parse_rate("20/hour") == Rate(20, 3600) == parse_rate("20/h")
    assert parse_rate("5/day") == Rate(5, 86400)
    for bad in ("20", "x/s", "20/fortnight", "20/"):
        with pytest.raises(ImproperlyConfigured):
            parse_rate(bad)


def _signup(name: str, ip: str = "127.0.0.1") -> Any:
    return APIClient().post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json",
                            REMOTE_ADDR=ip)


def test_signups_per_address_answer_429_with_retry_after(settings: Any) -> None:
    _limits(settings, signup="3/hour")
    with time_machine.travel(NOON + 10, tick=False):
        assert [_signup(f"new{i}").status_code for i in range(3)] == [201, 201, 201]
        r = _signup("new3")
        assert r.status_code == 429
        body = r.json()
        assert body["code"] == "throttled" and body["scope"] == "signup" and body["retry_after"] == 3590
        assert body["detail"] == "Too many requests (signup). Expected available in 3590 seconds."
        assert r["Retry-After"] == "3590"
        assert _signup("new4", ip="203.0.113.9").status_code == 201  # another address
    with time_machine.travel(NOON + 3601, tick=False):
        assert _signup("new5").status_code == 201  # the next hour


def test_the_html_sign_up_shares_the_limit(settings: Any) -> None:
    _limits(settings, signup="2/hour")
    c = Client()
    with time_machine.travel(NOON, tick=False):
        assert _signup("apiuser").status_code == 201
        r = c.post("/accounts/signup/", {"username": "pageuser", "password1": PASSWORD, "password2": PASSWORD})
        assert r.status_code == 302
        r = Client().post("/accounts/signup/", {"username": "third", "password1": PASSWORD, "password2": PASSWORD})
        assert r.status_code == 429 and r["Retry-After"] == "3600"
        assert "Too many sign-ups" in r.content.decode()


def _token(username: str, password: str, ip: str = "127.0.0.1") -> Any:
    return APIClient().post("/api/auth/token/", {"username": username, "password": password}, format="json",
                            REMOTE_ADDR=ip)


def test_thirty_wrong_passwords_lock_the_account_and_the_right_one_is_refused(make_user: Any) -> None:
    make_user("alice")
    answers = [_token("alice", f"wrong-{i}").status_code for i in range(30)]
    assert answers[:9] == [400] * 9  # wrong password
    assert set(answers[9:]) == {429}  # the tenth failure locks the account
    r = _token("alice", PASSWORD)
    assert r.status_code == 429 and r["Retry-After"]
    assert r.json()["code"] in ("locked_out", "throttled")


def _page_login(path: str, username: str, password: str, ip: str) -> Any:
    """A log-in on the page (``/accounts/login/``) or the admin's (``/admin/login/``) from ``ip``."""
    return Client(REMOTE_ADDR=ip).post(path, {"username": username, "password": password})


def _login(kind: str, username: str, password: str, ip: str) -> tuple[int, bool]:
    """A log-in by the API, the page or the admin's: its status and whether it signed in."""
    if kind == "api":
        r = _token(username, password, ip=ip)
        return r.status_code, r.status_code == 200
    c = Client(REMOTE_ADDR=ip)
    r = c.post("/accounts/login/" if kind == "page" else "/admin/login/", {"username": username, "password": password})
    return r.status_code, "_auth_user_id" in c.session


@pytest.mark.parametrize("kind", ["api", "page", "admin"])
def test_a_stranger_locks_out_only_himself_the_owner_logs_in_from_elsewhere(
        kind: str, django_user_model: Any, settings: Any) -> None:
    """The lockout is for the pair (address, username): failures from A never lock the owner out at B."""
    django_user_model.objects.create_superuser("bella", "bella@example.com", PASSWORD)
    _limits(settings, login_account="1000/min", login="1000/min")  # only django-axes at work here
    attacker, owner = "198.51.100.7", "192.0.2.77"
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(kind, "bella", "wrong", attacker)[0] in (200, 400)
    assert _login(kind, "bella", "wrong", attacker) == (429, False)  # the last failure allowed locks A out
    assert _login(kind, "bella", PASSWORD, attacker) == (429, False)  # the right password too, from A
    assert _login(kind, "bella", PASSWORD, owner)[1]  # the owner, from B
    r = _token("bella", PASSWORD, ip=attacker)
    assert r.status_code == 429 and r.json()["code"] == "locked_out"
    assert int(r["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    from axes.utils import reset

    reset(ip="198.51.100.7", username="bella")  # what the cool-off (or an admin) does
    assert _token("bella", PASSWORD, ip=attacker).status_code == 200


@pytest.mark.parametrize("kind", ["api", "page", "admin"])
def test_thirty_addresses_guessing_one_name_meet_the_account_limit(
        kind: str, django_user_model: Any, settings: Any) -> None:
    """With the default limits, one name guessed from 30 addresses: at most ``login_account`` (10 a minute) of
    the tries reach the password check; the others are refused with 429 and are not failures (the owner, refused
    meanwhile, is not locked out by them)."""
    django_user_model.objects.create_superuser("gwen", "gwen@example.com", PASSWORD)
    assert settings.RATE_LIMITS["login_account"] == ("account", "10/min")
    with time_machine.travel(NOON + 5, tick=False):
        answers = [_login(kind, "gwen", f"guess-{i}", f"203.0.113.{i}")[0] for i in range(30)]
        assert answers.count(429) >= 20 and set(answers[10:]) == {429}, answers
        if kind == "api":
            r = _token("gwen", "guess", ip="203.0.113.99")
            assert r.json() == {"code": "throttled", "scope": "login_account", "retry_after": 55,
                                "detail": "Too many log-ins for this account; try again in 55 seconds."}
            assert r["Retry-After"] == "55"
        else:
            r = _page_login("/accounts/login/" if kind == "page" else "/admin/login/", "gwen", "guess",
                            "203.0.113.99")
            assert r.status_code == 429 and "Too many log-ins for this account" in r.content.decode()
        for _ in range(settings.AXES_FAILURE_LIMIT + 2):  # the owner, refused while the crowd is at it
            assert _login(kind, "gwen", PASSWORD, "192.0.2.1") == (429, False)
    with time_machine.travel(NOON + 65, tick=False):  # the next minute: the owner is not locked out
        assert _login(kind, "gwen", PASSWORD, "192.0.2.1")[1]


def test_one_address_trying_many_names_meets_the_address_limit(make_user: Any) -> None:
    """No lockout for a name per address, but the ``login`` limit (30 a minute from one address) on every
    log-in, whichever names they try."""
    make_user("carla")
    with time_machine.travel(NOON + 5, tick=False):
        for i in range(30):
            assert _token(f"nobody{i}", "wrong", ip="203.0.113.50").status_code == 400
        r = _token("carla", PASSWORD, ip="203.0.113.50")
        assert r.status_code == 429 and r.json()["scope"] == "login"
        assert _page_login("/accounts/login/", "carla", PASSWORD, "203.0.113.50").status_code == 429
        assert _token("carla", PASSWORD, ip="203.0.113.51").status_code == 200


def test_the_html_and_admin_log_ins_lock_out_too(make_user: Any, django_user_model: Any) -> None:
    make_user("dora")
    django_user_model.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    c = Client()
    for _ in range(9):
        r = c.post("/accounts/login/", {"username": "dora", "password": "wrong"})
        assert r.status_code == 200
    assert c.post("/accounts/login/", {"username": "dora", "password": "wrong"}).status_code == 429
    r = c.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert r.status_code == 429 and "Too many failed log-ins" in r.content.decode()
    assert "_auth_user_id" not in c.session
    admin = Client(REMOTE_ADDR="192.0.2.10")
    for _ in range(9):
        assert admin.post("/admin/login/", {"username": "boss", "password": "wrong"}).status_code == 200
    assert admin.post("/admin/login/", {"username": "boss", "password": "wrong"}).status_code == 429
    r = admin.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert r.status_code == 429 and "Too many failed log-ins" in r.content.decode()
    assert admin.get("/admin/").status_code == 302  # not logged in


def test_actions_per_user_have_a_burst_limit(make_user: Any, settings: Any) -> None:
    _limits(settings, action="3/s")
    u, other = make_user("eve"), make_user("fay")
    api = client_for(u)
    match_id = api.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").json()["id"]
    with time_machine.travel(NOON, tick=False):
        codes = [api.post(f"/api/matches/{match_id}/actions/", {"seq": 999, "bid": 3}, format="json").status_code
                 for _ in range(4)]
        assert codes == [409, 409, 409, 429]
        other_api = client_for(other)
        other_match = other_api.post("/api/matches/", {"bot": "random"}, format="json").json()["id"]
        assert other_api.post(f"/api/matches/{other_match}/actions/", {"seq": 999, "bid": 3},
                              format="json").status_code == 409  # someone else is not slowed down
    with time_machine.travel(NOON + 1, tick=False):
        assert api.post(f"/api/matches/{match_id}/actions/", {"seq": 999, "bid": 3}, format="json").status_code == 409


def test_new_matches_and_tables_per_user(make_user: Any, settings: Any) -> None:
    _limits(settings, new_match="2/min", new_table="1/min")
    api = client_for(make_user("gil"))
    with time_machine.travel(NOON, tick=False):
        codes = [api.post("/api/matches/", {"bot": "random"}, format="json").status_code for _ in range(3)]
        assert codes == [201, 201, 429]
        assert api.get("/api/matches/").status_code == 200  # reading is not creating
        codes = [api.post("/api/tables/", {}, format="json").status_code for _ in range(2)]
        assert codes == [201, 429]


def test_a_normal_match_is_never_slowed(make_user: Any) -> None:
    """The default limits leave a person alone, even one playing ten cards a second (a script faster than
    that is slowed to the burst limit)."""
    import random

    from site_helpers import choose

    api, rng = client_for(make_user("hal")), random.Random(1)
    view = api.post("/api/matches/", {"bot": "random"}, format="json").json()
    while view["status"] != "finished":
        time.sleep(0.1)
        r = api.post(f"/api/matches/{view['id']}/actions/", choose(view, rng), format="json")
        assert r.status_code == 200, r.json()
        view = r.json()
        if not view["your_turn"] and view["status"] != "finished":
            view = api.get(f"/api/matches/{view['id']}/").json()


def test_limits_can_be_turned_off_and_a_silent_cache_does_not_turn_them_off(
        settings: Any, monkeypatch: Any) -> None:
    _limits(settings, signup="1/hour")
    settings.RATE_LIMITS_ON = False
    assert [_signup(f"off{i}").status_code for i in range(3)] == [201, 201, 201]
    settings.RATE_LIMITS_ON = True

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("cache down")

    monkeypatch.setattr(ratelimit.django_cache, "add", down)
    ratelimit.LOCAL_COUNTS.clear()
    with time_machine.travel(NOON + 10, tick=False):  # the sign-ups and the log-ins count in this process
        assert [_signup(f"down{i}").status_code for i in range(3)] == [201, 429, 429]
        _limits(settings, login="2/min")
        names = [APIClient().post("/api/auth/token/", {"username": "down0", "password": PASSWORD}, format="json")
                 .status_code for _ in range(3)]
    assert names == [200, 200, 429]
    ratelimit.LOCAL_COUNTS.clear()


def test_limits_come_from_the_environment() -> None:
    from hardening.test_production_settings import _settings

    out = _settings({"RATE_LIMIT_SIGNUP": "5000/hour", "RATE_LIMITS": "1"},
                    "s.RATE_LIMITS['signup'], s.RATE_LIMITS['action'], s.RATE_LIMITS_ON")
    assert out == "('ip', '5000/hour') ('user', '20/s') True"
    assert _settings({"RATE_LIMITS": "0"}, "s.RATE_LIMITS_ON") == "False"


async def test_a_socket_cannot_flood_resyncs(make_user: Any) -> None:
    from channels.db import database_sync_to_async
    from site_helpers import ws

    from games.matches import commands
    from games.platform.ratelimit import RESYNC_LIMIT

    u = await database_sync_to_async(make_user)("ivy")
    match = await database_sync_to_async(commands.create_bot_match)(u, bot="random")
    comm = await ws(f"/ws/matches/{match.pk}/", u)
    assert (await comm.receive_json_from(timeout=5))["type"] == "match"
    for _ in range(RESYNC_LIMIT):
        await comm.send_json_to({"type": "resync"})
        assert (await comm.receive_json_from(timeout=5))["type"] == "match"
    await comm.send_json_to({"type": "resync"})
    answer = await comm.receive_json_from(timeout=5)
    assert answer == {"type": "error", "code": "throttled", "detail": answer["detail"]}
    await comm.disconnect()


@pytest.mark.realstack
def test_on_redis_the_scopes_of_a_request_are_counted_in_one_round_trip(settings: Any) -> None:
    """With the Redis cache (every web process shares the counts), a request's scopes are counted by one
    pipeline; the counts and the refusal are the same as the cache API's."""
    import os

    from django.core.cache import caches
    from django.test import RequestFactory

    settings.CACHES = {"default": {"BACKEND": "callbreak_site.cache.SharedPoolRedisCache",
                                   "LOCATION": os.environ["REDIS_URL"], "KEY_PREFIX": f"rl-test-{os.getpid()}"}}
    _limits(settings, action="3/s", action_sustained="5/min")
    caches["default"].clear()
    request = RequestFactory().post("/api/matches/1/actions/", REMOTE_ADDR="10.0.0.7")
    request.user = type("U", (), {"is_authenticated": True, "pk": 41})()
    with time_machine.travel(NOON + 0.25, tick=False):
        calls = []
        original = ratelimit._incr_many
        ratelimit._incr_many = lambda keys: calls.append(len(keys)) or original(keys)  # type: ignore[assignment,func-returns-value]
        try:
            results = [ratelimit.check(request, ["action", "action_sustained"]) for _ in range(4)]
        finally:
            ratelimit._incr_many = original  # type: ignore[assignment]
    assert calls == [2, 2, 2, 2]
    assert results[:3] == [None, None, None]
    assert results[3] == ratelimit.Refusal("action", 1)
    client = caches["default"]._cache.get_client(None, write=True)
    keys = client.keys(f"rl-test-{os.getpid()}:*")
    assert len(keys) == 2 and all(0 < client.ttl(k) <= 61 for k in keys)
    assert sorted(int(client.get(k)) for k in keys) == [4, 4]
    caches["default"].clear()
