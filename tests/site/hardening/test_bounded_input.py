"""Bounded input: a body over the size limit answers 413 JSON (through the ASGI server too, before the body is
read); malformed or too deeply nested JSON answers 400 JSON; the same on the WebSocket, where the socket stays
open; usernames follow one documented rule set and are unique regardless of case and look-alike letters."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD, client_for, ws

from callbreak_site.asgi import application
from games.accounts.models import UsernameKey
from games.web.bounds import BodyLimit, decode_frame, loads

pytestmark = pytest.mark.django_db(transaction=True)

DEEP = "[" * 50_000 + "]" * 50_000


def test_a_body_over_the_limit_is_413_json(api: APIClient, user: Any) -> None:
    big = json.dumps({"seq": 0, "card": "x" * (3 * 1024 * 1024)})
    r = api.post("/api/matches/1/actions/", big, content_type="application/json")
    assert r.status_code == 413
    assert r.json()["code"] == "too_large" and r.json()["limit"] == settings.MAX_REQUEST_BYTES
    r = APIClient().post("/api/auth/signup/", big, content_type="application/json")
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    page = Client().post("/accounts/signup/", {"username": "x" * (3 * 1024 * 1024)})
    assert page.status_code == 413


def test_too_deep_or_malformed_json_is_400_json(api: APIClient) -> None:
    for body in (DEEP, "[" * 40 + "]" * 40, '{"seq": ', "NaN", "\xff", "  "):
        r = api.post("/api/matches/", body, content_type="application/json")
        assert r.status_code == 400, (body[:10], r.status_code)
        assert r.json()["code"] == "bad_json", r.json()
    r = APIClient().post("/api/auth/signup/", DEEP, content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    # nesting within the limit is fine: the view answers on the content
    r = api.post("/api/matches/", json.dumps({"bot": [[[["x"]]]]}), content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] != "bad_json"


def test_with_debug_off_too(api: APIClient, settings: Any) -> None:
    settings.DEBUG = False
    assert api.post("/api/matches/", DEEP, content_type="application/json").status_code == 400
    big = "x" * (settings.MAX_REQUEST_BYTES + 1)
    assert api.post("/api/matches/", big, content_type="application/json").status_code == 413


def test_json_decoding_has_no_recursion() -> None:
    with pytest.raises(ValueError, match="deeper than 3"):
        loads("[[[[1]]]]", max_depth=3)
    assert loads('[[["[[[[[[[["]]]', max_depth=3) == [[["[[[[[[[["]]]
    with pytest.raises(ValueError):
        loads(DEEP)
    with pytest.raises(ValueError, match="at most"):
        decode_frame("x" * (settings.WS_MAX_FRAME_BYTES + 1), None)
    with pytest.raises(ValueError):
        decode_frame(None, b"\xff\xfe")


async def _asgi(app: Any, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    incoming = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/auth/signup/", "headers": headers}
    await app(scope, receive, send)
    return sent


async def test_the_asgi_limit_answers_before_the_app_reads_the_body() -> None:
    reached: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while True:  # reads the whole body, as Django's handler does, then answers
            message = await receive()
            if not message.get("more_body"):
                break
        reached.append(1)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    limited = BodyLimit(app, limit=100)
    sent = await _asgi(limited, [(b"content-length", b"101")], [b"x" * 101])
    assert sent[0]["status"] == 413 and json.loads(sent[1]["body"])["code"] == "too_large" and not reached
    sent = await _asgi(limited, [], [b"x" * 60, b"x" * 60])  # streamed, no Content-Length
    assert sent[0]["status"] == 413 and not reached
    sent = await _asgi(limited, [(b"content-length", b"100")], [b"x" * 100])
    assert sent[0]["status"] == 200 and reached


async def test_bad_websocket_frames_get_an_error_and_the_socket_stays_up(make_user: Any) -> None:
    from channels.db import database_sync_to_async

    from games.matches import commands

    u = await database_sync_to_async(make_user)("wanda")
    match = await database_sync_to_async(commands.create_bot_match)(u, bot="random")
    for path in (f"/ws/matches/{match.pk}/", "/ws/me/"):
        comm = await ws(path, u)
        if "matches" in path:
            assert (await comm.receive_json_from(timeout=5))["type"] == "match"
        for frame in (DEEP, "{nope", "x" * (settings.WS_MAX_FRAME_BYTES + 10)):
            await comm.send_to(text_data=frame)
            answer = await comm.receive_json_from(timeout=5)
            assert answer["type"] == "error" and answer["code"] == "bad_json", answer
        await comm.send_to(bytes_data=b"\xff\xfe")
        assert (await comm.receive_json_from(timeout=5))["code"] == "bad_json"
        if "matches" in path:  # still open and answering
            await comm.send_json_to({"type": "resync"})
            assert (await comm.receive_json_from(timeout=5))["type"] == "match"
        else:
            await comm.send_json_to({"type": "resync"})
            assert (await comm.receive_json_from(timeout=5))["code"] == "bad_message"
        await comm.disconnect()


# --- usernames ------------------------------------------------------------------------------------

def _signup(name: str) -> Any:
    return APIClient().post("/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json")


@pytest.mark.parametrize("name", ["alice", "ALICE", "Alice", "\u0430lice", "\u0430li\u0441\u0435", "A1ice",
                                  "ａｌｉｃｅ"])
def test_look_alike_and_case_variants_of_a_name_are_taken(name: str, make_user: Any) -> None:
    make_user("alice")
    r = _signup(name)
    assert r.status_code == 400, r.json()
    assert r.json()["code"] == "invalid" and r.json()["errors"]["username"]


def test_a_mixed_script_name_is_refused_with_the_reason() -> None:
    r = _signup("\u0430lice")  # Cyrillic а, then Latin
    assert r.status_code == 400 and "one script" in r.json()["detail"]


@pytest.mark.parametrize("name,ok", [
    ("ann_1.2-3", True), ("小明", True), ("ひらがな漢字", True), ("Иван", True), ("Ελένη", True),
    ("a", False), ("x" * 31, False), ("a b", False), ("bob@home", False), ("1234", False), ("al\u200bice", False),
    ("<script>", False), ("ab\u202ecd", False),
])
def test_the_allowed_characters(name: str, ok: bool) -> None:
    r = _signup(name)
    assert (r.status_code == 201) is ok, (name, r.json())


def test_a_signed_up_name_is_stored_normalized_with_its_key() -> None:
    r = _signup("ｆｕｌｌ")  # fullwidth letters: NFKC makes them plain
    assert r.status_code == 201 and r.json()["username"] == "full"
    assert UsernameKey.objects.get(user_id=r.json()["user_id"]).key == "full"
    assert _signup("FULL").status_code == 400


def test_accounts_made_elsewhere_get_keys_too(make_user: Any, django_user_model: Any) -> None:
    u = make_user("Ilya")  # like the admin or the shell would
    assert UsernameKey.objects.get(user=u).key == "llya"
    assert _signup("llya").status_code == 400
    u.username = "Oleg"
    u.save()
    assert UsernameKey.objects.get(user=u).key == "oleg"
    assert _signup("llya").status_code == 201


def test_the_html_sign_up_form_follows_the_same_rules(make_user: Any) -> None:
    make_user("alice")
    c = Client()
    for name in ("\u0430lice", "ALICE", "a b"):
        r = c.post("/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
        assert r.status_code == 200 and "username" in r.context["form"].errors, name
    r = c.post("/accounts/signup/", {"username": "Алиса", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302
    alisa = UsernameKey.objects.select_related("user").get(user__username="Алиса").user
    assert client_for(alisa).get("/api/me/").json()["username"] == "Алиса"
    r = c.post("/accounts/signup/", {"username": "АЛИСА", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 200 and "username" in r.context["form"].errors


async def test_a_refused_body_is_drained_up_to_a_bound_before_the_413() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):  # reads the body, as Django's handler does
            pass
        raise AssertionError("never reached: the body is over the limit")

    limited = BodyLimit(app, limit=100, drain=1000)
    sent = await _asgi(limited, [(b"content-length", b"500")], [b"x" * 100] * 5)
    assert sent[0]["status"] == 413 and (b"connection", b"close") not in sent[0]["headers"]  # all read: kept open
    sent = await _asgi(limited, [], [b"x" * 100] * 5)  # streamed: past the limit, drained to its end
    assert sent[0]["status"] == 413 and (b"connection", b"close") not in sent[0]["headers"]
    sent = await _asgi(limited, [(b"content-length", b"5000")], [b"x" * 500] * 10)  # past the bound: not read
    assert sent[0]["status"] == 413 and (b"connection", b"close") in sent[0]["headers"]
    sent = await _asgi(limited, [], [b"x" * 500] * 10)  # streamed past the bound: read up to it, then closed
    assert sent[0]["status"] == 413 and (b"connection", b"close") in sent[0]["headers"]
    sent = await _asgi(limited, [(b"content-length", b"\xc2\xb2")], [b"x"])  # not a number
    assert sent[0]["status"] == 413 and (b"connection", b"close") in sent[0]["headers"]


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/matches/abc/", "/ws/", "/elsewhere"])
async def test_a_socket_path_nobody_serves_is_refused_not_a_500(path: str) -> None:
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
    connected, code = await comm.connect()
    assert not connected and code == 4404
