"""Browser pages (HTML) for the Call Break site.

The pages are thin: the table, the match list and the replay viewer are rendered in the browser
from the JSON API (``/api/matches/...``) and the match WebSocket; these views only serve the shells
and the account forms.
"""

from django import forms
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

PLAYER_FACING_LEVELS = ("easy", "normal", "hard")


def _bot_levels() -> list[str]:
    """The player-facing bot levels the engine offers, for the new-match picker (labels in the template)."""
    try:
        from engine.bots import BOT_NAMES, DEFAULT_BOT
    except Exception:  # the engine may not ship bots yet
        return []
    names = [n for n in PLAYER_FACING_LEVELS if n in BOT_NAMES] or list(BOT_NAMES)
    names = [n for n in names if n != DEFAULT_BOT]
    return names


def home(request):
    return render(request, "home.html", {"bot_levels": _bot_levels()})


def rules(request):
    return render(request, "rules.html", {})


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email address"), required=False)

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})


def _safe_next(request, default: str = "/") -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return nxt
    return default


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_safe_next(request))
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request, "")})


@login_required
def my_matches(request):
    return render(request, "matches.html", {})


@login_required
def table(request, match_id: str):
    return render(request, "table.html", {"match_id": match_id})


@login_required
def replay(request, match_id: str):
    return render(request, "replay.html", {"match_id": match_id})
