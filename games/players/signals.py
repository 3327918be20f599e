"""Receivers of user saves: deactivating a user anywhere (admin form, admin action, shell) hands their seats to
bots; a user made or renamed anywhere but sign-up gets its username key (``games.players.usernames``)."""

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from . import commands


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created and not instance.is_active:
        commands.user_deactivated(instance)
    update_fields = kwargs.get("update_fields")
    renamed = update_fields is None or "username" in update_fields  # not a log-in's last_login, say
    if renamed and not getattr(instance, "_username_key_by_sign_up", False):
        commands.remember_username_key(instance)
