"""API authentication by per-client token: ``Authorization: Token <key>`` (DRF), ``?token=<key>`` or the same
header on a WebSocket (``games.accounts.ws_auth``). See ``games.accounts.models.ApiToken``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from . import commands, reads
from .models import ApiToken

KEYWORD = "Token"


def user_for_key(key: str) -> tuple[User, ApiToken] | None:
    """The active user and the unexpired token behind ``key`` (its expiry moved on), or None."""
    token = reads.live_token(commands.token_digest(key))
    if token is None:
        return None
    commands.touch_token(token)
    return token.user, token


class TokenAuthentication(authentication.BaseAuthentication):
    """DRF authentication by ``Authorization: Token <key>``; a wrong, revoked or expired key is 401."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Send `Authorization: Token <key>`.")
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        found = user_for_key(key)
        if found is None:
            raise exceptions.AuthenticationFailed("Invalid, revoked or expired token: log in again.")
        return found

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The OpenAPI document's name for it: ``Authorization: Token <key>``."""

    target_class = "games.accounts.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": 'A per-client token from sign-up or log-in, as "Token <key>".'}
