"""The admin's view of bot accounts and their events (read-only: the upgrade is the account's own, for good)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.accounts.models import BotAccount

from .models import BotEvent


@admin.register(BotAccount)
class BotAccountAdmin(admin.ModelAdmin[BotAccount]):
    list_display = ("user", "upgraded_at")
    search_fields = ("user__username",)
    readonly_fields = ("user", "upgraded_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(BotEvent)
class BotEventAdmin(admin.ModelAdmin[BotEvent]):
    list_display = ("id", "user", "kind", "match_id", "table_id", "seq", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
