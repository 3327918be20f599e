"""The signed-in user of a request, typed: views behind ``IsAuthenticated`` or ``login_required`` only."""

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied


def signed_in(request: Any) -> User:
    """``request.user`` as a ``User``; an anonymous one is refused (403), which those views never see."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied
    return user
