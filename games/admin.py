"""Admin: users (search, filters, deactivate -> bots take their seats) and matches with a
read-only action log (the log is append-only; editing it would break the replay)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from . import services
from .admin_social import abort_matches, send_password_reset
from .models import Action, Match, Seat

User = get_user_model()


@admin.action(description="Deactivate selected users (bots take their seats)")
def deactivate_users(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
    count = 0
    for user in queryset:
        if user.pk == request.user.pk:
            modeladmin.message_user(request, "You cannot deactivate yourself.", messages.WARNING)
            continue
        services.deactivate_user(user)
        count += 1
    modeladmin.message_user(request, f"Deactivated {count} user(s); their running seats are played by bots.")


if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    actions = [deactivate_users, send_password_reset]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "kind", "name", "user", "bot", "autopilot")
    readonly_fields = ("index", "kind", "name", "user", "bot", "autopilot")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    can_delete = False
    fields = ("seq", "seat", "bid", "card", "made_by", "user", "made_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "seq", "turn", "players", "rated", "deadline", "created_at", "finished_at")
    list_filter = ("status", "rated", "created_at")
    actions = [abort_matches]
    search_fields = ("id", "seats__user__username", "seed_commitment")
    readonly_fields = (
        "status", "seq", "turn", "seed_commitment", "seed", "bot_seed", "created_by", "created_at",
        "updated_at", "finished_at", "move_seconds", "deadline", "remind_at", "rated", "rated_at",
    )
    inlines = [SeatInline, ActionInline]

    @admin.display(description="players")
    def players(self, obj: Match) -> str:
        return ", ".join(s.name for s in obj.seats.all())

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).prefetch_related("seats")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are made through the site so their logs stay engine-valid

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "seat", "bid", "card", "made_by", "made_at")
    list_filter = ("made_by",)
    search_fields = ("match__id",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
