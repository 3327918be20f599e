"""Credentials and sockets under attack: a password change or reset revokes every API token and closes every
socket of the account; a person lists their tokens and revokes any (API and settings page); one account opens
at most SOCKETS_PER_USER sockets per process (past it: code 4429 and a message, never a 500, and others
still get in); a socket whose channel layer is away is refused cleanly (code 1013); a closing socket leaves no
presence behind even when the channel layer fails, and beat forgets presence no socket renews."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.forms import SetPasswordForm
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient
from site_helpers import ORIGIN, PASSWORD, token_for

from callbreak_site.asgi import application
from games.accounts import sockets
from games.accounts.models import ApiToken
from games.matches import commands as match_commands
from games.models import Presence
from games.presence import commands as presence_commands
from games.presence import reads as presence_reads

from .test_sockets_follow_the_account import closed_within_a_second, open_socket, refused, sync

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "another-horse-battery-7"


def _api(key: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def _set_password(user: Any) -> None:
    """As the reset link's form does."""
    form = SetPasswordForm(user, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert form.is_valid(), form.errors
    form.save()


async def test_a_password_change_revokes_every_token_and_closes_every_socket(make_user: Any) -> None:
    u = await sync(make_user)("rita")
    other = await sync(make_user)("sam")
    match = await sync(match_commands.create_bot_match)(u, bot="random")
    keys = [await sync(token_for)(u), await sync(token_for)(u)]
    other_key = await sync(token_for)(other)
    comms = [await open_socket(f"/ws/matches/{match.pk}/", token=keys[0]), await open_socket("/ws/me/", token=keys[1])]
    others = await open_socket("/ws/me/", token=other_key)
    await sync(_set_password)(u)
    for comm in comms:
        await closed_within_a_second(comm)
    for key in keys:
        assert (await sync(_api(key).get)("/api/me/")).status_code == 401
        assert await refused("/ws/me/", token=key) == 4401
    assert not await sync(ApiToken.objects.filter(user=u).exists)()
    assert await others.receive_nothing(timeout=0.3)  # another account is untouched
    assert (await sync(_api(other_key).get)("/api/me/")).status_code == 200
    r = await sync(APIClient().post)("/api/auth/token/", {"username": "rita", "password": NEW_PASSWORD},
                                     format="json")
    assert r.status_code == 200  # the new password works and gives a new token


def test_a_reset_link_revokes_the_tokens(admin_client_: Client, make_user: Any) -> None:
    u = make_user("ria", email="ria@example.com")
    key = token_for(u)
    mail.outbox.clear()
    admin_client_.post("/admin/auth/user/", {"action": "send_password_reset", "_selected_action": [u.pk]})
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body)
    assert link
    c = Client()
    r = c.get(link.group(1), follow=True)
    r = c.post(r.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert r.status_code == 302
    assert _api(key).get("/api/me/").status_code == 401


def test_a_hash_upgraded_at_log_in_revokes_nothing(make_user: Any, settings: Any) -> None:
    u = make_user("una")
    key = token_for(u)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    assert APIClient().post("/api/auth/token/", {"username": "una", "password": PASSWORD},
                            format="json").status_code == 200
    u.refresh_from_db()
    assert u.password.startswith("md5$")  # upgraded to the first hasher on log-in
    assert _api(key).get("/api/me/").status_code == 200


def test_a_person_lists_and_revokes_their_tokens(make_user: Any) -> None:
    u, v = make_user("tom"), make_user("uma")
    first, second = token_for(u), token_for(u)
    foreign = token_for(v)
    rows = _api(second).get("/api/me/tokens/").json()
    assert len(rows) == 2 and [r["current"] for r in rows] == [True, False]
    assert all(len(r["id"]) == 16 and first not in str(r) and second not in str(r) for r in rows)
    foreign_id = _api(foreign).get("/api/me/tokens/").json()[0]["id"]
    assert _api(second).delete(f"/api/me/tokens/{foreign_id}/").status_code == 404  # not theirs
    assert _api(foreign).get("/api/me/").status_code == 200
    assert _api(second).delete("/api/me/tokens/nonsense/").status_code == 404
    assert _api(second).delete(f"/api/me/tokens/{rows[1]['id']}/").status_code == 204
    assert _api(first).get("/api/me/").status_code == 401
    assert _api(second).get("/api/me/").status_code == 200


def test_the_settings_page_lists_the_tokens_and_revokes_one(make_user: Any) -> None:
    u = make_user("vic")
    key = token_for(u)
    c = Client()
    assert c.login(username="vic", password=PASSWORD)
    page = c.get("/settings/").content.decode()
    token_id = re.search(r'/settings/tokens/([0-9a-f]{16})/revoke/', page)
    assert token_id and key not in page
    assert c.get(f"/settings/tokens/{token_id.group(1)}/revoke/").status_code == 405  # a POST only
    r = c.post(f"/settings/tokens/{token_id.group(1)}/revoke/")
    assert r.status_code == 302
    assert _api(key).get("/api/me/").status_code == 401
    assert 'data-testid="no-tokens"' in c.get("/settings/").content.decode()


async def _connect(path: str) -> tuple[WebsocketCommunicator, bool, Any]:
    comm = WebsocketCommunicator(application, path, headers=[ORIGIN])
    connected, code = await comm.connect()
    return comm, connected, code


async def test_past_the_cap_a_socket_is_closed_with_4429_and_others_still_get_in(
        make_user: Any, settings: Any) -> None:
    settings.SOCKETS_PER_USER = 3
    u, w = await sync(make_user)("wes"), await sync(make_user)("xia")
    key, other = await sync(token_for)(u), await sync(token_for)(w)
    opened = [await open_socket("/ws/me/", token=key) for _ in range(3)]
    comm, connected, _ = await _connect(f"/ws/me/?token={key}")
    assert connected
    assert (await comm.receive_json_from(timeout=2))["code"] == "too_many_sockets"
    assert (await comm.receive_output(timeout=2)) == {"type": "websocket.close", "code": 4429}
    others = await open_socket("/ws/me/", token=other)  # another person is not held back
    await opened[0].disconnect()
    again = await open_socket("/ws/me/", token=key)  # a closed socket frees its place
    assert sockets._OPEN[u.pk] == 3
    for open_one in (*opened[1:], others, again):
        await open_one.disconnect()


class AwayLayer:
    """A channel layer whose Redis is away."""

    def __init__(self, real: Any) -> None:
        self.real = real

    async def group_add(self, group: str, channel: str) -> None:
        raise ConnectionError("redis is away")

    async def group_discard(self, group: str, channel: str) -> None:
        raise ConnectionError("redis is away")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


async def test_a_socket_is_refused_cleanly_while_redis_is_away(make_user: Any, monkeypatch: Any) -> None:
    from channels import layers

    u = await sync(make_user)("yan")
    key = await sync(token_for)(u)
    real = layers.get_channel_layer()
    monkeypatch.setattr("channels.consumer.get_channel_layer", lambda alias="default": AwayLayer(real))
    comm, connected, _ = await _connect(f"/ws/me/?token={key}")
    assert connected
    assert (await comm.receive_json_from(timeout=2))["code"] == "unavailable"
    assert (await comm.receive_output(timeout=2)) == {"type": "websocket.close", "code": 1013}
    assert sockets._OPEN[u.pk] == 0  # a refused socket holds no place


async def test_a_closing_socket_leaves_no_presence_even_when_redis_fails(make_user: Any, monkeypatch: Any) -> None:
    u = await sync(make_user)("zed")
    key = await sync(token_for)(u)
    match = await sync(match_commands.create_bot_match)(u, bot="random")
    comm = await open_socket(f"/ws/matches/{match.pk}/", token=key)
    assert await sync(presence_reads.on_match_page)(u.pk, match.pk)

    async def broken(*args: Any) -> None:
        raise ConnectionError("redis is away")

    from channels import layers

    monkeypatch.setattr(layers.get_channel_layer(), "group_discard", broken)
    await comm.disconnect()
    assert not await sync(Presence.objects.filter(user=u).exists)()
    assert sockets._OPEN[u.pk] == 0


def test_beat_forgets_presence_no_socket_renewed(make_user: Any) -> None:
    u = make_user("ann")
    match = match_commands.create_bot_match(u, bot="random")
    presence_commands.presence_join(u.pk, match.pk, "live.channel")
    presence_commands.presence_join(u.pk, match.pk, "dead.channel")
    Presence.objects.filter(channel_name="dead.channel").update(
        seen_at=timezone.now() - presence_reads.PRESENCE_MAX_AGE - timedelta(seconds=1))
    assert presence_commands.forget_stale_presence() == 1
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["live.channel"]
    Presence.objects.update(seen_at=timezone.now() - presence_reads.PRESENCE_MAX_AGE - timedelta(seconds=1))
    assert not presence_reads.on_match_page(u.pk, match.pk)  # not renewed: no longer on the page
    presence_commands.presence_renew("live.channel")
    assert presence_reads.on_match_page(u.pk, match.pk)
