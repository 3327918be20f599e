"""Pages of people: sign-up, the leaderboard, profiles, settings (server-rendered)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
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
        self.fields["username"].help_text = _("%(rule)s.") % {"rule": usernames.ALLOWED_DESCRIPTION}
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})

    def clean_username(self) -> str:
        """The rules of ``games.players.usernames``; taken also when it only looks like another's name."""
        try:
            name = usernames.validate(self.cleaned_data.get("username") or "")
        except ValidationError as err:
            raise forms.ValidationError(err.messages, code="bad_username") from None
        if reads.username_taken(name):
            raise forms.ValidationError(_(commands.USERNAME_TAKEN), code="username_taken")
        return name


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


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    show_bots = request.GET.get("bots", "1") != "0"
    return render(request, "leaderboard.html", {"rows": reads.leaderboard(bots=show_bots), "show_bots": show_bots})


def _sparkline(values: list[float], width: int = 480, height: int = 120) -> str:
    """SVG polyline points for the rating history (empty with fewer than two points)."""
    if len(values) < 2:
        return ""
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    step = width / (len(values) - 1)
    return " ".join(f"{i * step:.1f},{height - (v - lo) / span * (height - 10) - 5:.1f}" for i, v in enumerate(values))


def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    data = reads.profile(username)
    if data is None:
        raise Http404()
    values = [reads.MODEL.mu - 3 * reads.MODEL.sigma] + [h["conservative"] for h in data["history"]]
    stats = data["stats"]
    mean = stats["mean_score"]
    return render(request, "profile.html", {
        "p": data,
        "mean_score": None if mean is None else f"{mean / 10:.1f}",
        "points": _sparkline(values),
        "history": list(reversed(data["history"]))[:50],
    })


class SettingsForm(forms.Form):
    email_notifications = forms.BooleanField(
        required=False, label=gettext_lazy("Email me when it is my turn and when time runs short"))


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            commands.update_settings(signed_in(request), email_notifications=form.cleaned_data["email_notifications"])
            messages.success(request, _("Settings saved."))
            return redirect("settings")
    else:
        form = SettingsForm(initial=reads.settings_json(signed_in(request)))
    return render(request, "settings.html", {"form": form, "has_email": bool(signed_in(request).email)})
