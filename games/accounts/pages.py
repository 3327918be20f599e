"""Pages of accounts: sign-up and settings (server-rendered)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games import throttles
from games.errors import GameError
from games.users import signed_in

from . import commands, reads, usernames


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(label=gettext_lazy("Email address"), required=False)

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})
        self.fields["username"].help_text = _(
            "2 to 30 letters (of one script), digits 0-9 and . _ -, with at least one letter.")
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})

    def clean_username(self) -> str:
        """The rules of ``games.accounts.usernames``; taken also when it only looks like another's name."""
        try:
            name = usernames.validate(self.cleaned_data.get("username") or "")
        except ValidationError as err:
            raise forms.ValidationError(err.messages, code="bad_username") from None
        if reads.username_taken(name):
            raise forms.ValidationError(_(commands.USERNAME_TAKEN), code="username_taken")
        return name


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
        refusal = throttles.check(request, throttles.route_scopes(request))
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


SettingsSection = Callable[[HttpRequest], dict[str, Any]]


@login_required
def settings_page(request: HttpRequest, sections: Sequence[SettingsSection] = ()) -> HttpResponse:
    """The settings page; ``sections`` (given by ``games.urls``) add the parts of concepts above accounts, each a
    dict with its ``template`` and what that template shows."""
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            commands.update_settings(signed_in(request), email_notifications=form.cleaned_data["email_notifications"])
            messages.success(request, _("Settings saved."))
            return redirect("settings")
    else:
        form = SettingsForm(initial=reads.settings_json(signed_in(request)))
    return render(request, "settings.html", {"form": form, "has_email": bool(signed_in(request).email),
                                             "tokens": reads.tokens_json(signed_in(request)),
                                             "sections": [section(request) for section in sections]})


@login_required
@require_http_methods(["POST"])
def revoke_token_page(request: HttpRequest, token_id: str) -> HttpResponse:
    """The settings page's *Revoke* button: that client is signed out and its sockets close."""
    if commands.revoke_token_of(signed_in(request), token_id):
        messages.success(request, _("That device is signed out."))
    return redirect("settings")
