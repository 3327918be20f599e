"""The two framework hooks accounts keep: a user made or renamed anywhere (sign-up, admin, shell) gets its
username key, an invariant of the data (``games.accounts.usernames``); a browser session logging out through
Django's views closes its sockets. Business flows (deactivation, revoking tokens) are explicit commands."""

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver

from games import outbox
from games.groups import session_group

from . import commands
from .events import CredentialsRevoked


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if created or update_fields is None or "username" in update_fields:  # not a log-in's last_login, say
        commands.remember_username_key(instance)


@receiver(user_logged_out)
def session_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:  # before Django empties the session
        outbox.emit(CredentialsRevoked((session_group(key),), "logged out"))
