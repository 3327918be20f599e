"""Deactivating a user anywhere (admin form, admin action, shell) hands their seats to bots."""

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from . import commands


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created and not instance.is_active:
        commands.user_deactivated(instance)
