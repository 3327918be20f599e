"""WebSocket authentication and the Origin rule.

Browsers use the session cookie (Channels' ``AuthMiddlewareStack``); API clients send their token as
``?token=<key>`` or an ``Authorization: Token <key>`` header (``TokenAuthMiddleware``, which runs after it and
wins). The socket's scope then names its credential (``auth_token``: the token's digest; or the session), so
the consumers can join its group and close when it is revoked (``games.accounts.sockets``).

The Origin rule (``OriginRule``, outermost): a browser always sends ``Origin`` on a WebSocket, and it must be
one of ``ALLOWED_HOSTS`` (so another site's page cannot open a socket with the visitor's cookie). A client
that sends no ``Origin`` is not a browser: it is let in only with a token, and by the token alone (its cookies
are dropped).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.contrib.auth.models import AnonymousUser

from .auth import user_for_key


@database_sync_to_async
def _authenticate(key: str) -> tuple[Any, str | None]:
    found = user_for_key(key)
    if found is None:
        return AnonymousUser(), None
    user, token = found
    return user, token.digest


def token_from_scope(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() == "token":
                return str(parts[1])
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    keys = query.get("token")
    return keys[0] if keys else None


class TokenAuthMiddleware:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = token_from_scope(scope)
        if key:
            user, digest = await _authenticate(key)
            scope = dict(scope, user=user, auth_token=digest)
        return await self.inner(scope, receive, send)


class OriginRule:
    """Browsers (an ``Origin`` header) must come from an allowed host; other clients must bring a token."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.browsers = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        headers = scope.get("headers", [])
        if any(name.lower() == b"origin" for name, _ in headers):
            return await self.browsers(scope, receive, send)
        if token_from_scope(scope):
            without_cookies = [(n, v) for n, v in headers if n.lower() != b"cookie"]
            return await self.inner(dict(scope, headers=without_cookies), receive, send)
        return await WebsocketDenier()(scope, receive, send)
