"""Receivers: deactivating a user anywhere (admin form, admin action, shell) hands their seats to bots and closes
their sockets; a user made or renamed anywhere but sign-up gets its username key (``games.players.usernames``);
an API token deleted anywhere (log-out, the admin, deactivation, too many tokens) closes its sockets, and so
does a browser session logging out (``games.players.sockets``: the close is sent once the deletion commits)."""

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games import effects
from games.groups import session_group, token_group

from . import commands
from .models import ApiToken


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created and not instance.is_active:
        commands.user_deactivated(instance)
    update_fields = kwargs.get("update_fields")
    renamed = update_fields is None or "username" in update_fields  # not a log-in's last_login, say
    if renamed and not getattr(instance, "_username_key_by_sign_up", False):
        commands.remember_username_key(instance)


@receiver(post_delete, sender=ApiToken)
def token_deleted(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
    effects.close_sockets(token_group(instance.digest), "token revoked")


@receiver(user_logged_out)
def session_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:  # before Django empties the session
        effects.close_sockets(session_group(key), "logged out")
