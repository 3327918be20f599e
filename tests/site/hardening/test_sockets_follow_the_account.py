"""Sockets follow the account: revoking a token, logging out a session and deactivating a user close every
open socket of theirs (match sockets and /ws/me/) within a second, and a closed socket can't be reused. Each
client has its own token: one log-out does not end another client. A client with no Origin (not a browser)
is let in with a token only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient
from site_helpers import ORIGIN, PASSWORD, token_for

from callbreak_site.asgi import application
from games.accounts import commands, sockets
from games.accounts.models import ApiToken
from games.matches import commands as match_commands
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

CLOSED = 4401


def sync(func: Any) -> Any:
    return database_sync_to_async(func)


async def open_socket(path: str, *, token: str | None = None, cookie: str | None = None,
                      origin: bool = True) -> WebsocketCommunicator:
    headers = [ORIGIN] if origin else []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"{path}?token={token}" if token else path, headers=headers)
    connected, code = await comm.connect()
    assert connected, code
    if path.startswith("/ws/matches/"):
        assert (await comm.receive_json_from(timeout=5))["type"] == "match"
    return comm


async def refused(path: str, *, token: str | None = None, cookie: str | None = None, origin: bool = True,
                  origin_value: bytes = b"http://testserver") -> int | None:
    headers = [(b"origin", origin_value)] if origin else []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"{path}?token={token}" if token else path, headers=headers)
    connected, code = await comm.connect()
    assert not connected, path
    return code  # type: ignore[no-any-return]


async def closed_within_a_second(comm: WebsocketCommunicator) -> None:
    """The socket closes (code 4401) within a second, with no message before the close."""
    out = await comm.receive_output(timeout=1)
    assert out == {"type": "websocket.close", "code": CLOSED}, out


async def still_open(comm: WebsocketCommunicator) -> None:
    assert await comm.receive_nothing(timeout=0.3)
    await comm.send_json_to({"type": "resync"})
    answer = await comm.receive_json_from(timeout=5)
    assert answer["type"] in ("match", "error")


def _match_for(user: Any) -> Match:
    return match_commands.create_bot_match(user, bot="random")


def _session_cookie(user: Any) -> tuple[Client, str]:
    c = Client()
    assert c.login(username=user.username, password=PASSWORD)
    return c, f"sessionid={c.cookies['sessionid'].value}"


async def test_logging_out_a_token_closes_its_sockets_only(make_user: Any) -> None:
    u = await sync(make_user)("tina")
    match = await sync(_match_for)(u)
    key_a, key_b = await sync(token_for)(u), await sync(token_for)(u)  # two clients of one person
    a_match = await open_socket(f"/ws/matches/{match.pk}/", token=key_a)
    a_me = await open_socket("/ws/me/", token=key_a)
    b_match = await open_socket(f"/ws/matches/{match.pk}/", token=key_b)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key_a}")
    assert (await sync(api.post)("/api/auth/logout/")).status_code == 204
    await closed_within_a_second(a_match)
    await closed_within_a_second(a_me)
    await still_open(b_match)  # the other client is still logged in
    assert (await sync(api.get)("/api/me/")).status_code == 401
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {key_b}")
    assert (await sync(other.get)("/api/me/")).status_code == 200
    # the revoked token opens nothing again
    assert await refused(f"/ws/matches/{match.pk}/", token=key_a) == CLOSED
    assert await refused("/ws/me/", token=key_a) == CLOSED
    await b_match.disconnect()


async def test_after_the_close_nothing_more_is_sent(make_user: Any) -> None:
    u = await sync(make_user)("uma")
    match = await sync(_match_for)(u)
    key = await sync(token_for)(u)
    comm = await open_socket(f"/ws/matches/{match.pk}/", token=key)
    await sync(commands.revoke_token)(await sync(ApiToken.objects.get)(digest=commands.token_digest(key)))
    await closed_within_a_second(comm)
    # a move afterwards (by another client of hers) reaches the match group, not this closed socket
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {await sync(token_for)(u)}")
    view = (await sync(api.get)(f"/api/matches/{match.pk}/")).json()
    r = await sync(api.post)(f"/api/matches/{match.pk}/actions/", {"seq": view["seq"], "bid": 3}, format="json")
    assert r.status_code == 200
    assert await comm.receive_nothing(timeout=0.5)


async def test_a_session_log_out_closes_that_sessions_sockets(make_user: Any) -> None:
    u = await sync(make_user)("vera")
    match = await sync(_match_for)(u)
    browser, cookie = await sync(_session_cookie)(u)
    _, other_cookie = await sync(_session_cookie)(u)  # another browser of hers
    key = await sync(token_for)(u)
    s_match = await open_socket(f"/ws/matches/{match.pk}/", cookie=cookie)
    s_me = await open_socket("/ws/me/", cookie=cookie)
    other_me = await open_socket("/ws/me/", cookie=other_cookie)
    t_me = await open_socket("/ws/me/", token=key)
    assert (await sync(browser.post)("/accounts/logout/")).status_code == 302
    await closed_within_a_second(s_match)
    await closed_within_a_second(s_me)
    for comm in (other_me, t_me):
        await still_open(comm)
        await comm.disconnect()
    assert await refused("/ws/me/", cookie=cookie) == CLOSED


async def test_the_api_log_out_of_a_browser_session_closes_its_sockets(make_user: Any) -> None:
    u = await sync(make_user)("wren")
    browser, cookie = await sync(_session_cookie)(u)
    s_me = await open_socket("/ws/me/", cookie=cookie)
    token = browser.cookies["csrftoken"].value if "csrftoken" in browser.cookies else None
    csrf_client = Client(enforce_csrf_checks=False)
    csrf_client.cookies = browser.cookies
    r = await sync(csrf_client.post)("/api/auth/logout/", HTTP_X_CSRFTOKEN=token or "")
    assert r.status_code == 204
    await closed_within_a_second(s_me)


async def test_deactivating_a_user_closes_every_socket_of_theirs(make_user: Any, django_user_model: Any) -> None:
    u = await sync(make_user)("xena")
    match = await sync(_match_for)(u)
    _, cookie = await sync(_session_cookie)(u)
    key = await sync(token_for)(u)
    comms = [
        await open_socket(f"/ws/matches/{match.pk}/", token=key),
        await open_socket("/ws/me/", token=key),
        await open_socket(f"/ws/matches/{match.pk}/", cookie=cookie),
        await open_socket("/ws/me/", cookie=cookie),
    ]
    root = Client()
    await sync(django_user_model.objects.create_superuser)("boss", "b@example.com", PASSWORD)
    assert await sync(root.login)(username="boss", password=PASSWORD)
    r = await sync(root.post)("/admin/auth/user/", {"action": "deactivate_users", "_selected_action": [u.pk]})
    assert r.status_code == 302
    for comm in comms:
        await closed_within_a_second(comm)
    assert await refused("/ws/me/", token=key) == CLOSED
    assert await refused("/ws/me/", cookie=cookie) == CLOSED
    assert not await sync(ApiToken.objects.filter(user=u).exists)()


async def test_a_socket_that_missed_the_close_message_closes_on_its_next_check(
        make_user: Any, monkeypatch: Any) -> None:
    u = await sync(make_user)("yara")
    match = await sync(_match_for)(u)
    key = await sync(token_for)(u)
    comm = await open_socket(f"/ws/matches/{match.pk}/", token=key)
    monkeypatch.setattr(sockets, "RECHECK_SECONDS", 0.0)
    # revoked without a word to the sockets (as if the channel layer had lost the message)
    await sync(ApiToken.objects.filter(digest=commands.token_digest(key))._raw_delete)("default")
    await comm.send_json_to({"type": "resync"})
    await closed_within_a_second(comm)


async def test_an_expired_token_is_refused_and_closes_on_the_next_check(make_user: Any, monkeypatch: Any) -> None:
    u = await sync(make_user)("zoe")
    key = await sync(token_for)(u)
    comm = await open_socket("/ws/me/", token=key)
    past = timezone.now() - timedelta(seconds=1)
    await sync(ApiToken.objects.filter(digest=commands.token_digest(key)).update)(expires_at=past)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert (await sync(api.get)("/api/me/")).status_code == 401
    assert await refused("/ws/me/", token=key) == CLOSED
    monkeypatch.setattr(sockets, "RECHECK_SECONDS", 0.0)
    from games.platform import groups, outbox

    await sync(outbox.group_send_now)(groups.user_group(u.pk), groups.user_message({"type": "notice",
                                                                                   "kind": "your_turn"}))
    await closed_within_a_second(comm)


# --- tokens per client, and the Origin rule -------------------------------------------------------

def test_each_log_in_is_a_client_with_its_own_token(make_user: Any) -> None:
    make_user("ari")
    api = APIClient()
    first = api.post("/api/auth/token/", {"username": "ari", "password": PASSWORD}, format="json").json()
    second = api.post("/api/auth/token/", {"username": "ari", "password": PASSWORD}, format="json").json()
    assert set(first) == {"token", "user_id", "username"} and first["token"] != second["token"]
    assert not ApiToken.objects.filter(digest=first["token"]).exists()  # only digests are kept
    a, b = APIClient(), APIClient()
    a.credentials(HTTP_AUTHORIZATION=f"Token {first['token']}")
    b.credentials(HTTP_AUTHORIZATION=f"Token {second['token']}")
    assert a.post("/api/auth/logout/").status_code == 204
    assert a.get("/api/me/").status_code == 401 and b.get("/api/me/").status_code == 200


def test_tokens_expire_unused_and_each_use_moves_the_expiry_on(make_user: Any, settings: Any) -> None:
    u = make_user("bea")
    key = token_for(u)
    token = ApiToken.objects.get(digest=commands.token_digest(key))
    assert token.expires_at - timezone.now() > timedelta(days=settings.API_TOKEN_TTL_DAYS) - timedelta(minutes=1)
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() + timedelta(days=1))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/me/").status_code == 200
    token.refresh_from_db()
    assert token.expires_at - timezone.now() > timedelta(days=settings.API_TOKEN_TTL_DAYS - 1)


def test_expired_tokens_are_dropped_at_the_next_log_in(make_user: Any) -> None:
    u = make_user("dina")
    old = token_for(u)
    ApiToken.objects.filter(digest=commands.token_digest(old)).update(expires_at=timezone.now())
    token_for(u)
    assert not ApiToken.objects.filter(digest=commands.token_digest(old)).exists()
    assert ApiToken.objects.filter(user=u).count() == 1


def test_beat_sweep_drops_the_expired_tokens_of_people_who_do_not_come_back(make_user: Any) -> None:
    from games import tasks

    gone, kept = make_user("eli"), make_user("fay")
    old, live = token_for(gone), token_for(kept)
    ApiToken.objects.filter(digest=commands.token_digest(old)).update(expires_at=timezone.now())
    assert tasks.sweep()["tokens"] == 1
    assert not ApiToken.objects.filter(user=gone).exists()
    assert ApiToken.objects.filter(digest=commands.token_digest(live)).exists()
    assert tasks.sweep()["tokens"] == 0


def test_a_user_keeps_the_newest_tokens_only(make_user: Any, settings: Any) -> None:
    settings.API_TOKENS_PER_USER = 3
    u = make_user("cara")
    keys = [token_for(u) for _ in range(5)]
    assert ApiToken.objects.filter(user=u).count() == 3
    for i, key in enumerate(keys):
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api.get("/api/me/").status_code == (401 if i < 2 else 200)


async def test_clients_without_origin_need_a_token(make_user: Any) -> None:
    u = await sync(make_user)("dee")
    match = await sync(_match_for)(u)
    key = await sync(token_for)(u)
    _, cookie = await sync(_session_cookie)(u)
    # no Origin, a token: a non-browser client (a bot, a command-line tool) is let in
    comm = await open_socket(f"/ws/matches/{match.pk}/", token=key, origin=False)
    await comm.disconnect()
    header = WebsocketCommunicator(application, "/ws/me/", headers=[(b"authorization", f"Token {key}".encode())])
    assert (await header.connect())[0]
    await header.disconnect()
    # no Origin, no token (a cookie alone proves nothing about the page that opened it): refused
    assert await refused(f"/ws/matches/{match.pk}/", cookie=cookie, origin=False) is not None
    assert await refused("/ws/me/", origin=False) is not None
    # a browser on another site: refused, cookie or token
    for kwargs in ({"cookie": cookie}, {"token": key}):
        assert await refused("/ws/me/", origin_value=b"https://evil.example", **kwargs) is not None
