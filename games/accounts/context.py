"""A template context processor: whether the signed-in account is a guest (the pages then offer *Keep my games*,
hide the rated choice and the chat box). Asked of the database only by a page that shows it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from . import reads


def guest(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {"is_guest": SimpleLazyObject(
        lambda: bool(user is not None and user.is_authenticated and reads.is_guest(user))),
        "guest_idle_days": settings.GUEST_IDLE_DAYS}
