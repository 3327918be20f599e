"""Admin of accounts: users (search, filters, deactivate -> bots take their seats, password-reset email),
settings, API tokens (deleting one revokes it) and username keys."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from . import commands
from .models import ApiToken, Profile, UsernameKey


@admin.action(description="Deactivate selected users (bots take their seats)")
def deactivate_users(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
    count = 0
    for user in queryset:
        if user.pk == request.user.pk:
            modeladmin.message_user(request, "You cannot deactivate yourself.", messages.WARNING)
            continue
        commands.deactivate_user(user)
        count += 1
    modeladmin.message_user(request, f"Deactivated {count} user(s); their running seats are played by bots.")


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


if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    actions = [deactivate_users, send_password_reset]

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        """Unticking *active* deactivates the account as the action does (sockets close, bots take its seats)."""
        super().save_model(request, obj, form, change)
        if change and not obj.is_active and "is_active" in form.changed_data:
            commands.deactivate_user(obj)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin[Profile]):
    list_display = ("user", "email_notifications")
    list_filter = ("email_notifications",)
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    """Each client's API token (the key is not kept). Deleting one revokes it and closes its sockets."""

    list_display = ("user", "client", "created_at", "expires_at")
    list_filter = ("created_at", "expires_at")
    search_fields = ("user__username", "client")
    readonly_fields = ("digest", "user", "client", "created_at", "expires_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tokens come from sign-up and log-in only

    def delete_model(self, request: HttpRequest, obj: ApiToken) -> None:
        commands.revoke_token(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset:
            commands.revoke_token(token)


@admin.register(UsernameKey)
class UsernameKeyAdmin(admin.ModelAdmin[UsernameKey]):
    """The look-alike-proof key of each username (kept up to date on every save of a user)."""

    list_display = ("key", "user")
    search_fields = ("key", "user__username")
    readonly_fields = ("key", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
