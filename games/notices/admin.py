"""Admin of notices: what was told to whom, and whether it was emailed."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin[Notice]):
    list_display = ("user", "match", "seq", "kind", "emailed", "created_at")
    list_filter = ("kind", "emailed", "created_at")
    search_fields = ("user__username", "match__id")
    readonly_fields = ("user", "match", "seq", "kind", "emailed", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
