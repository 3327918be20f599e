"""Admin of tables among people."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Table, TableSeat


class TableSeatInline(admin.TabularInline[TableSeat, Table]):
    model = TableSeat
    extra = 0
    can_delete = False
    fields = ("index", "user", "bot")
    readonly_fields = ("index",)
    raw_id_fields = ("user",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("id", "host", "visibility", "room_code", "move_seconds", "rated", "status", "match",
                    "created_at", "expires_at")
    list_filter = ("status", "visibility", "rated", "move_seconds", "created_at")
    search_fields = ("id", "host__username", "invite_code", "=room_code", "seats__user__username")
    readonly_fields = ("invite_code", "room_code", "match", "created_at")
    raw_id_fields = ("host",)
    inlines = [TableSeatInline]
