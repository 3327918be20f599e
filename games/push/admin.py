"""Admin of Web Push: who subscribed which browsers, and what was pushed (read-only)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import PushDelivery, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ("user", "short_endpoint", "language", "created_at", "last_ok_at", "last_fail_at")
    list_filter = ("language", "created_at")
    search_fields = ("user__username", "endpoint")
    exclude = ("p256dh", "auth")  # the browser's keys: whoever holds them can read its pushes
    readonly_fields = ("user", "endpoint", "language", "client", "created_at", "last_ok_at", "last_fail_at",
                       "last_error")

    @admin.display(description="endpoint")
    def short_endpoint(self, obj: PushSubscription) -> str:
        return obj.endpoint[:60]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(PushDelivery)
class PushDeliveryAdmin(admin.ModelAdmin[PushDelivery]):
    list_display = ("notice", "subscription", "status", "attempts", "created_at", "done_at")
    list_filter = ("status", "created_at")
    readonly_fields = ("notice", "subscription", "status", "attempts", "detail", "created_at", "done_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
