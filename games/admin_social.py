"""Admin for tables, ratings, notices and settings; actions to abort a match and to send a
password-reset email. Imported by ``games.admin`` (which owns users and matches)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.forms import PasswordResetForm
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Notice, Profile, Rating, RatingChange, Table, TableSeat


@admin.action(description="Abort selected running matches (nobody is rated)")
def abort_matches(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
    from .correspondence import abort_match

    done = sum(1 for match in queryset if abort_match(match))
    modeladmin.message_user(request, f"Aborted {done} match(es); finished or aborted ones were left alone.")


@admin.action(description="Send a password-reset email to selected users")
def send_password_reset(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
    sent = 0
    for user in queryset:
        if not user.email:
            modeladmin.message_user(request, f"{user.get_username()} has no email address.", messages.WARNING)
            continue
        form = PasswordResetForm(data={"email": user.email})
        if form.is_valid():
            form.save(request=request, use_https=request.is_secure(),
                      email_template_name="registration/password_reset_email.html")
            sent += 1
    modeladmin.message_user(request, f"Sent {sent} password-reset email(s).")


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    can_delete = False
    fields = ("index", "user", "bot")
    readonly_fields = ("index",)
    raw_id_fields = ("user",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "host", "visibility", "move_seconds", "rated", "status", "match", "created_at",
                    "expires_at")
    list_filter = ("status", "visibility", "rated", "move_seconds", "created_at")
    search_fields = ("id", "host__username", "invite_code", "seats__user__username")
    readonly_fields = ("invite_code", "match", "created_at")
    raw_id_fields = ("host",)
    inlines = [TableSeatInline]


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = ("match", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("name", "bot", "mu", "sigma", "conservative_rating", "games", "updated_at")
    list_filter = ("games",)
    search_fields = ("user__username", "bot")
    readonly_fields = ("user", "bot", "mu", "sigma", "games", "updated_at")
    inlines = [RatingChangeInline]

    @admin.display(description="μ − 3σ")
    def conservative_rating(self, obj: Rating) -> str:
        return f"{obj.conservative:.2f}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # ratings come from finished rated matches only


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("user", "match", "seq", "kind", "emailed", "created_at")
    list_filter = ("kind", "emailed", "created_at")
    search_fields = ("user__username", "match__id")
    readonly_fields = ("user", "match", "seq", "kind", "emailed", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "email_notifications")
    list_filter = ("email_notifications",)
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)
