"""Web Push: the browsers a person asked to be told on, what they want pushed, and what was pushed."""

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser's push subscription (its ``PushSubscription.toJSON()``): the push service's URL to call and the
    browser's keys to encrypt for. One endpoint belongs to one account: the browser's last signed-in subscriber."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1024, unique=True, help_text="The push service's URL for this browser.")
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 public key (base64url).")
    auth = models.CharField(max_length=40, help_text="The browser's auth secret (base64url).")
    language = models.CharField(max_length=16, help_text="The page's language when subscribing: the pushes' language.")
    client = models.CharField(max_length=120, blank=True, help_text="The User-Agent that subscribed.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_ok_at = models.DateTimeField(null=True, blank=True, help_text="Last push the service accepted.")
    last_fail_at = models.DateTimeField(null=True, blank=True, help_text="Last push that failed.")
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:60]}"


class PushPreferences(models.Model):
    """Which kinds of notice a person wants pushed (all by default, as with email). ``quick_match``: quick match
    (games/quickmatch) tells a seated person on their open tabs, so nothing records that kind today."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preferences")
    your_turn = models.BooleanField(default=True)
    reminder = models.BooleanField(default=True)
    autopilot = models.BooleanField(default=True)
    handed_over = models.BooleanField(default=True)
    rematch = models.BooleanField(default=True)
    quick_match = models.BooleanField(default=True)
    challenge = models.BooleanField(default=True)

    class Meta:
        verbose_name_plural = "push preferences"


class PushDelivery(models.Model):
    """One notice pushed to one subscription: made under a row lock before the push, so a redelivered task finds it
    done and never pushes twice."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Skipped"
        FAILED = "failed", "Failed"

    notice = models.ForeignKey("games.Notice", on_delete=models.CASCADE, related_name="push_deliveries")
    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    detail = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "push deliveries"
        constraints = [
            models.UniqueConstraint(fields=["notice", "subscription"], name="unique_push_delivery"),
        ]
