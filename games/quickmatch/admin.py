"""Quick-match requests in the admin (read-only: the pairing run and the people change them)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin[Seek]):
    list_display = ("id", "user", "pool", "pace", "rated", "status", "waiting_since", "match")
    list_filter = ("status", "pool", "pace", "rated")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "match")
    readonly_fields = ("user", "pool", "pace", "rated", "status", "skill", "waiting_since", "match", "ended_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
