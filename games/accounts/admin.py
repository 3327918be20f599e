"""Admin of accounts: users (search, filters, deactivate -> bots take their seats, password-reset email; names by
the site's rule, ``games.accounts.forms``), settings, API tokens (deleting one revokes it) and username keys.

A user is never deleted here (their matches, seats and replays must survive): *Deactivate* takes the place of
*Delete*. A user's page shows their API tokens and what the concepts above accounts register with
``add_user_panel`` (``games.admin``: their matches and seats, rating, push subscriptions), each in a bounded
number of queries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from . import commands
from .forms import AdminAddUserForm, AdminUserForm
from .models import ApiToken, Guest, Profile, UsernameKey


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


# A panel of a user's page: what a concept above accounts shows of that user (safe HTML), added by ``games.admin``.
UserPanel = Callable[[User], str]
USER_PANELS: list[str] = []

# The admin's help texts, by the site's rules (the username's is the form's own: ``usernames.HELP_TEXT``).
HELP_TEXTS = {
    "email": "Optional. Notices and password resets go here; a person changes it on the settings page, where a "
             "link sent to the new address confirms it.",
    "is_active": "Untick (or use Deactivate) to deactivate: no log-in, API tokens revoked, sockets closed, bots take "
                 "the seats in running matches. Users are never deleted: their matches must survive.",
    "is_staff": "May log in to this admin site.",
}


def add_user_panel(name: str, label: str, panel: UserPanel) -> None:
    """Show ``panel`` (a concept's view of a user, safe HTML) on every user's admin page, under ``label``; ``name``
    must not be a field of the user (the admin would show that field instead: ``rating`` is the user's rating row)."""
    def show(self: Any, obj: User) -> str:
        return panel(obj)

    setattr(UserAdmin, name, admin.display(description=label)(show))
    if name not in USER_PANELS:
        USER_PANELS.append(name)


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    form = AdminUserForm
    add_form = AdminAddUserForm
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", ("guest", admin.EmptyFieldListFilter), "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    actions = [deactivate_users, send_password_reset]
    change_form_template = "admin/accounts/user_change_form.html"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # people's matches must survive: deactivate instead

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        for name, text in HELP_TEXTS.items():
            if name in form.base_fields:
                form.base_fields[name].help_text = text
        return form

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is None:
            return fieldsets
        return [*fieldsets, ("Activity", {"fields": ("guest_flag", "api_tokens", *USER_PANELS)})]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if obj is None else (*fields, "guest_flag", "api_tokens", *USER_PANELS)

    @admin.display(description="Guest")
    def guest_flag(self, obj: User) -> str:
        """Whether this is a guest account (made by *Play now*: no name chosen, no password), since when."""
        guest = Guest.objects.filter(user=obj).first()
        if guest is None:
            return "no"
        if guest.removed_at is not None:
            return f"yes, removed for idleness {guest.removed_at:%Y-%m-%d}"
        return f"yes, since {guest.created_at:%Y-%m-%d %H:%M}"

    @admin.display(description="API tokens")
    def api_tokens(self, obj: User) -> str:
        """Each client's token: which client, since and until when (never its key, which is not kept)."""
        rows = ApiToken.objects.filter(user=obj).order_by("-created_at")
        if not rows:
            return "none"
        return format_html("<table><tr><th>client</th><th>created</th><th>expires</th></tr>{}</table>",
                           format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                                            ((t.client or "?", f"{t.created_at:%Y-%m-%d %H:%M}",
                                              f"{t.expires_at:%Y-%m-%d}") for t in rows)))

    def get_urls(self) -> list[URLPattern]:
        deactivate = path("<path:object_id>/deactivate/", self.admin_site.admin_view(self.deactivate_view),
                          name="auth_user_deactivate")
        return [deactivate, *super().get_urls()]

    def deactivate_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The user page's *Deactivate* button: the action's command for this one user."""
        return _deactivate_one(self, request, object_id)

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        """Unticking *active* deactivates the account as the action does (sockets close, bots take its seats)."""
        super().save_model(request, obj, form, change)
        if change and not obj.is_active and "is_active" in form.changed_data:
            commands.deactivate_user(obj)


def _deactivate_one(modeladmin: UserAdmin, request: HttpRequest, object_id: str) -> HttpResponse:
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    user = get_object_or_404(User, pk=object_id)
    if not modeladmin.has_change_permission(request, user):
        return HttpResponse("You may not change users.", status=403, content_type="text/plain")
    deactivate_users(modeladmin, request, User.objects.filter(pk=user.pk))
    return HttpResponseRedirect(reverse("admin:auth_user_change", args=[user.pk]))


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
