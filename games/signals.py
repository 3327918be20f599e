"""Deactivating a user anywhere (admin form, admin action, shell) hands their seats to bots."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def seats_to_bots_on_deactivation(sender, instance, created, **kwargs):  # type: ignore[no-untyped-def]
    if created or instance.is_active:
        return
    from rest_framework.authtoken.models import Token

    from .services import hand_seats_to_bots

    hand_seats_to_bots(instance)
    Token.objects.filter(user=instance).delete()
