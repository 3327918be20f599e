"""Sockets follow the account: every open socket (``/ws/matches/{id}/`` and ``/ws/me/``) sits in three groups,
its account's, its credential's (the API token it opened with, or the browser session), and closes when told
to through either:

- an API token revoked (log-out with it, the admin deleting it, the account deactivated): its sockets close;
- a browser session logged out: its sockets close;
- an account deactivated: every socket of it closes.

The close message is sent once the transaction that revoked the credential commits (a ``CredentialsRevoked``
event, through ``games.platform.outbox``; the groups are in ``games.platform.groups``); a socket also re-checks its
credential when it opens and now and then after (``credential_valid``), so one that missed the message (a channel
layer restarted) closes too. A closed socket cannot be reused: opening a new one needs a credential that is still
valid.
"""

from __future__ import annotations

import logging
import time
from typing import Any, cast

from channels.db import database_sync_to_async
from django.contrib.sessions.backends.base import SessionBase
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from games.platform import metrics, ratelimit
from games.platform.groups import account_group, session_group, token_group
from games.web.bounds import BAD_JSON, decode_frame

from .models import ApiToken

log = logging.getLogger(__name__)

CLOSE_CODE = 4401  # the same as a socket refused for want of a valid credential
CLOSE_TOO_MANY = 4429  # the account has SOCKETS_PER_USER sockets open in this process already
CLOSE_TRY_AGAIN = 1013  # "try again later" (RFC 6455): the channel layer (Redis) is away
RECHECK_SECONDS = 30.0  # an open socket re-checks its credential at most this often, when it next sends

# Open sockets per account in this process (the rate limits' cap, ``games.platform.ratelimit.OPEN_SOCKETS``).
_OPEN = ratelimit.OPEN_SOCKETS.counts


def credential_groups(user_id: int, token_digest: str | None, session_key: str | None) -> list[str]:
    groups = [account_group(user_id)]
    if token_digest:
        groups.append(token_group(token_digest))
    elif session_key:
        groups.append(session_group(session_key))
    return groups


def credential_valid(user_id: int, token_digest: str | None, session: SessionBase | None) -> bool:
    """Whether a socket's credential still holds: its token unrevoked and unexpired, or its session still
    logged in as the same user; and the account active."""
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model

    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return False
    if token_digest:
        return ApiToken.objects.filter(digest=token_digest, user_id=user_id, expires_at__gt=timezone.now()).exists()
    if session is not None and session.session_key:
        fresh = session.__class__(session.session_key)  # as stored now: empty once logged out
        return str(fresh.get(SESSION_KEY)) == str(user_id) and constant_time_compare(
            str(fresh.get(HASH_SESSION_KEY, "")), user.get_session_auth_hash())  # a password change ends it too
    return False


class FollowsAccount:
    """For a socket consumer: ``join_account`` once authenticated (before accepting), ``leave_account`` on
    disconnect, ``credential_still_valid`` before sending; ``account_closed`` handles the close message."""

    scope: dict[str, Any]
    channel_layer: Any
    channel_name: str
    account_groups: list[str]
    socket_kind = "socket"  # the label of this kind of socket in callbreak_open_sockets
    counted_user: int | None = None  # whose socket count this socket is in (once admitted)
    credential_checked_at: float = 0.0
    shut: bool = False  # closed for the account's sake: send nothing more
    _limited_as: ratelimit.Socket | None = None

    @property
    def limited_as(self) -> ratelimit.Socket:
        """This socket as the rate limits count it (its person, address and channel; its own ``socket``
        scopes' counts), made once."""
        if self._limited_as is None:
            self._limited_as = ratelimit.Socket.of(self.scope, getattr(self, "channel_name", ""))
        return self._limited_as

    def _credential(self) -> tuple[int, str | None, Any]:
        user_id = int(self.scope["user"].pk)
        digest = self.scope.get("auth_token")
        session = None if digest else self.scope.get("session")
        return user_id, digest, session

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Malformed, oversized or too deeply nested frames get an error message; the socket stays open."""
        try:
            content = decode_frame(text_data, bytes_data)
        except ValueError as err:
            await cast(Any, self).send_json({"type": "error", "code": BAD_JSON, "detail": str(err)})
            return
        await cast(Any, self).receive_json(content)

    async def join_account(self, *groups: str) -> int | None:
        """Admit this socket: None when it may open (it is counted and in its account's, its credential's and
        ``groups``), else the close code that refuses it: ``CLOSE_CODE`` when the credential no longer holds
        (revoked while it opened), ``CLOSE_TOO_MANY`` past ``SOCKETS_PER_USER`` in this process,
        ``CLOSE_TRY_AGAIN`` when the channel layer cannot be reached. A refused socket holds nothing."""
        user_id, digest, session = self._credential()
        if not ratelimit.OPEN_SOCKETS.admit(user_id):
            return CLOSE_TOO_MANY
        self.counted_user = user_id
        metrics.OPEN_SOCKETS.labels(self.socket_kind).inc()
        key = getattr(session, "session_key", None) if session is not None else None
        self.account_groups = [*credential_groups(user_id, digest, key), *groups]
        try:
            for group in self.account_groups:
                await self.channel_layer.group_add(group, self.channel_name)
        except Exception:  # Redis away or its pool exhausted: the client retries later
            log.warning("a socket of user %s could not join its groups", user_id, exc_info=True)
            await self.leave_account()
            return CLOSE_TRY_AGAIN
        if not await self.credential_still_valid(force=True):
            await self.leave_account()
            return CLOSE_CODE
        return None

    async def leave_account(self) -> None:
        """Out of every group joined and no longer counted; a group the channel layer cannot leave now expires
        there on its own (channels_redis's group expiry)."""
        groups, self.account_groups = getattr(self, "account_groups", []), []
        user_id, self.counted_user = getattr(self, "counted_user", None), None
        try:
            for group in groups:
                try:
                    await self.channel_layer.group_discard(group, self.channel_name)
                except Exception:
                    log.warning("a socket could not leave group %s", group, exc_info=True)
        finally:
            if user_id is not None:
                metrics.OPEN_SOCKETS.labels(self.socket_kind).dec()
                ratelimit.OPEN_SOCKETS.release(user_id)

    async def refuse(self, code: int) -> None:
        """Refuse an opening socket: a credential that does not hold is refused at the handshake, as before;
        a refusal the client should understand (too many sockets, try again later) is accepted and closed
        at once with its code and a message saying why."""
        consumer = cast(Any, self)
        if code == CLOSE_CODE:
            await consumer.close(code=code)
            return
        detail = ("Too many open sockets for this account; close some." if code == CLOSE_TOO_MANY
                  else "The live updates are briefly unavailable; reconnect in a few seconds.")
        await consumer.accept()
        await consumer.send_json({"type": "error", "code": "too_many_sockets" if code == CLOSE_TOO_MANY
                                  else "unavailable", "detail": detail})
        await consumer.close(code=code)

    async def credential_still_valid(self, force: bool = False) -> bool:
        now = time.monotonic()
        if not force and now - self.credential_checked_at < RECHECK_SECONDS:
            return True
        self.credential_checked_at = now
        user_id, digest, session = self._credential()
        return bool(await database_sync_to_async(credential_valid)(user_id, digest, session))

    async def account_closed(self, event: dict[str, Any]) -> None:
        await self.shut_down()

    async def shut_down(self) -> None:
        """Close for good: nothing more is sent on this socket, and it leaves the account's groups now."""
        if self.shut:
            return
        self.shut = True
        await self.leave_account()
        await cast(Any, self).close(code=CLOSE_CODE)
