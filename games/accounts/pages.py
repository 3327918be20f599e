"""Pages of accounts: sign-up and settings (server-rendered)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model, login, logout, update_session_auth_hash
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.mail import send_mail
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games.platform import ratelimit
from games.platform.errors import GameError
from games.web.users import signed_in

from . import commands, reads
from .forms import KeepGamesForm, SignUpForm


class PeopleLoginForm(AuthenticationForm):
    """The page log-in, for people: a bot account signs in with API tokens only."""

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if reads.is_bot_account(user):
            raise forms.ValidationError(_("This is a bot account: it signs in with API tokens only."),
                                        code="bot_account")


def _safe_next(request: HttpRequest, default: str = "/") -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return nxt
    return default


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignUpForm(request.POST)
        refusal = ratelimit.check(request, ratelimit.route_scopes(request))
        if refusal is not None:  # too many new accounts from this address
            form.is_valid()
            form.add_error(None, _("Too many sign-ups from your address; try again in %(minutes)d minutes.")
                           % {"minutes": max(1, round(refusal.wait / 60))})
            response = render(request, "registration/signup.html", {"form": form, "next": _safe_next(request, "")},
                              status=429)
            response["Retry-After"] = str(refusal.wait)
            return response
        if form.is_valid():
            try:
                user = commands.sign_up(username=form.cleaned_data["username"],
                                        password=form.cleaned_data["password1"],
                                        email=form.cleaned_data.get("email") or "")
            except GameError as err:  # someone took a look-alike name a moment ago
                form.add_error("username", err.detail)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect(_safe_next(request))
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request, "")})


class SettingsForm(forms.Form):
    email_notifications = forms.BooleanField(
        required=False, label=gettext_lazy("Email me when it is my turn and when time runs short"))


class TableOptionsForm(forms.Form):
    """The table's options (``reads.TABLE_DEFAULTS``), as the match page's *Options* sets them."""

    card_speed = forms.ChoiceField(
        label=gettext_lazy("Card speed"), widget=forms.RadioSelect,
        choices=[("slow", gettext_lazy("Slow")), ("normal", gettext_lazy("Normal")), ("fast", gettext_lazy("Fast")),
                 ("instant", gettext_lazy("Instant"))])
    auto_play = forms.BooleanField(
        required=False, label=gettext_lazy("Play a forced card for me (when only one card may be played)"))
    sound = forms.BooleanField(required=False, label=gettext_lazy("Sound"))
    vibration = forms.BooleanField(required=False, label=gettext_lazy("Vibrate on my turn"))
    tap_twice = forms.BooleanField(
        required=False, label=gettext_lazy("Tap twice to play: a first tap raises a card, a second tap plays it"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "table_%s")
        super().__init__(*args, **kwargs)  # ids apart from the page's other forms


def _password_is(request: HttpRequest, password: str) -> bool:
    """Whether ``password`` is the signed-in person's, checked as a log-in is (django-axes counts the failures,
    so the settings forms cannot be used to guess it)."""
    user = signed_in(request)
    found = authenticate(request, username=user.get_username(), password=password)
    return found is not None and found.pk == user.pk


class CurrentPasswordForm(forms.Form):
    """A form that asks for the current password first (``password``), for a change that matters."""

    password = forms.CharField(label=gettext_lazy("Your password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    ids = "current_%s"  # each form's own ids: the page shows several with a password field

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", self.ids)
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not _password_is(self.request, password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


class EmailChangeForm(CurrentPasswordForm):
    ids = "email_%s"
    email = forms.EmailField(label=gettext_lazy("New email address"),
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    field_order = ("email", "password")


class DeactivateForm(CurrentPasswordForm):
    ids = "deactivate_%s"


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's password change (its rules, ``AUTH_PASSWORD_VALIDATORS``), the old password checked as a log-in."""

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "password_%s")
        super().__init__(signed_in(request), *args, **kwargs)
        self.fields["old_password"].widget.attrs.pop("autofocus", None)  # one part of a longer page
        self.request = request

    def clean_old_password(self) -> str:
        old: str = self.cleaned_data["old_password"]
        if not _password_is(self.request, old):
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old


SettingsSection = Callable[[HttpRequest], dict[str, Any]]
# The page's own forms, each posted with its name in ``form`` (none: the notifications, as before).
SETTINGS_FORMS = ("notifications", "table", "email", "password", "deactivate")


def _send_email_link(request: HttpRequest, email: str) -> None:
    """The link that makes ``email`` the account's address, sent to that address."""
    user = signed_in(request)
    link = request.build_absolute_uri(reverse("settings-email-confirm",
                                              args=[commands.email_change_token(user, email)]))
    days = commands.EMAIL_CHANGE_MAX_AGE // 86400
    body = render_to_string("registration/email_change_email.txt",
                            {"user": user, "link": link, "days": days}, request=request)
    send_mail(_("Confirm your email address for Call Break"), body, None, [email])


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest, sections: Sequence[SettingsSection] = ()) -> HttpResponse:
    """The settings page; ``sections`` (given by ``games.urls``) add the parts of concepts above accounts, each a
    dict with its ``template`` and what that template shows. Each of the page's forms posts here with its name in
    ``form``; a refused one is shown again with its errors (400)."""
    user = signed_in(request)
    which = request.POST.get("form", "notifications") if request.method == "POST" else None
    bound: dict[str, Any] = {}
    if which == "notifications":
        form = SettingsForm(request.POST)
        if form.is_valid():
            commands.update_settings(user, email_notifications=form.cleaned_data["email_notifications"])
            messages.success(request, _("Settings saved."))
            return redirect("settings")
        bound["form"] = form
    elif which == "table":
        table = TableOptionsForm(request.POST)
        if table.is_valid():
            commands.update_settings(user, table=dict(table.cleaned_data))
            messages.success(request, _("Table options saved."))
            return redirect("/settings/#table")
        bound["table_form"] = table
    elif which == "email":
        email = EmailChangeForm(request, request.POST)
        if email.is_valid():
            _send_email_link(request, email.cleaned_data["email"])
            messages.success(request, _("We sent a link to %(email)s: your address changes once you open it.")
                             % {"email": email.cleaned_data["email"]})
            return redirect("/settings/#email")
        bound["email_form"] = email
    elif which == "password":
        password = PasswordChangeForm(request, request.POST)
        if password.is_valid():
            password.save()  # the hook (``hooks.RevokeCredentialsOnPasswordChange``) revokes tokens, closes sockets
            update_session_auth_hash(request, password.user)  # this browser stays signed in; the others do not
            messages.success(request, _("Password changed. Every app and other browser signed in must log in again."))
            return redirect("/settings/#password")
        bound["password_form"] = password
    elif which == "deactivate":
        deactivate = DeactivateForm(request, request.POST)
        if deactivate.is_valid():
            commands.deactivate_user(user)  # the admin's command: sockets close, bots take the running seats
            logout(request)
            messages.success(request, _("Your account is deactivated. Bots play your seats in running matches."))
            return redirect("home")
        bound["deactivate_form"] = deactivate
    elif which is not None:
        return HttpResponse(_("Unknown form."), status=400, content_type="text/plain; charset=utf-8")
    settings_now = reads.settings_json(user)
    context = {
        "form": SettingsForm(initial=settings_now),
        "table_form": TableOptionsForm(initial=settings_now),
        "email_form": EmailChangeForm(request),
        "password_form": PasswordChangeForm(request),
        "deactivate_form": DeactivateForm(request),
        "has_email": bool(user.email),
        "email": user.email,
        "has_password": user.has_usable_password(),
        "tokens": reads.tokens_json(user),
        "sections": [section(request) for section in sections],
    }
    context.update(bound)
    return render(request, "settings.html", context, status=400 if bound else 200)


@require_http_methods(["GET", "POST"])
def confirm_email_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link of an email change: GET shows the address and a button (a mail scanner's visit changes nothing),
    POST keeps it. No log-in needed: the signed token names the account."""
    try:
        if request.method == "POST":
            user = commands.confirm_email_change(token)
            messages.success(request, _("Your email address is now %(email)s.") % {"email": user.email})
            return redirect("settings" if request.user.is_authenticated else "home")
        user, email = commands.email_change_of(token)
    except GameError as err:
        return render(request, "registration/email_change_confirm.html", {"error": _(err.detail)}, status=400)
    return render(request, "registration/email_change_confirm.html", {"account": user, "email": email})


@login_required
@require_http_methods(["POST"])
def revoke_token_page(request: HttpRequest, token_id: str) -> HttpResponse:
    """The settings page's *Revoke* button: that client is signed out and its sockets close."""
    if commands.revoke_token_of(signed_in(request), token_id):
        messages.success(request, _("That device is signed out."))
    return redirect("settings")


@login_required
@require_http_methods(["GET", "POST"])
def keep_games_page(request: HttpRequest) -> HttpResponse:
    """*Keep my games*: a guest chooses a name (its generated one may stay) and a password, email optional, by
    the sign-up's rules; the account stays the same, with every match, option and notice, and stays signed in."""
    user = signed_in(request)
    if not reads.is_guest(user):
        return redirect(_safe_next(request, reverse("my_matches")))
    # the form checks (and changes) a copy: the account changes in the command only
    copy = get_user_model().objects.get(pk=user.pk)
    form = KeepGamesForm(request.POST if request.method == "POST" else None, instance=copy)
    if request.method == "POST" and form.is_valid():
        try:
            user = commands.keep_guest(user, username=form.cleaned_data["username"],
                                       password=form.cleaned_data["password1"],
                                       email=form.cleaned_data.get("email") or "")
        except GameError as err:  # someone took a look-alike name a moment ago
            form.add_error("username", err.detail)
        else:
            update_session_auth_hash(request, user)  # a new password: this session stays signed in
            messages.success(request, _("Your games are kept: log in as %(name)s from now on.")
                             % {"name": user.get_username()})
            return redirect(_safe_next(request, reverse("my_matches")))
    return render(request, "registration/keep.html", {"form": form, "next": _safe_next(request, "")})

