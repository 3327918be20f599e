"""Arenas in the admin: staff create them (name, start, 15 to 120 minutes, the live clock, rated or not, an
optional rating limit) and see who joined; entries and results are the pairing run's and the people's."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Entry, Tournament


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    fields = ("user", "status", "points", "matches", "streak", "match", "free_since")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-points", "id")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ("id", "name", "pool", "starts_at", "minutes", "move_seconds", "rated", "rating_limit",
                    "closed_at")
    list_filter = ("pool", "rated", "schedule")
    search_fields = ("name",)
    fields = ("name", "pool", "starts_at", "minutes", "move_seconds", "rated", "rating_limit", "schedule",
              "closed_at")
    readonly_fields = ("schedule", "closed_at")
    inlines = [EntryInline]
