"""Browser pages for tables among people, the leaderboard, profiles and settings.

The lobby and the table room are rendered in the browser from the tables API and ``/ws/me/``; the
leaderboard, profiles and settings are plain server-rendered pages. Strings the scripts show are
translated here and handed over as JSON, so they need no JavaScript catalog.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import lobby, ratings
from .models import Profile


def _time_choices() -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for seconds in lobby.MOVE_SECONDS_CHOICES:
        if seconds < lobby.DAY:
            out.append((seconds, _("Live: %(s)d seconds a move") % {"s": seconds}))
        else:
            days = seconds // lobby.DAY
            out.append((seconds, _("%(d)d day a move") % {"d": days} if days == 1
                        else _("%(d)d days a move") % {"d": days}))
    return out


def _strings() -> dict[str, str]:
    return {
        "loading": _("Loading…"),
        "empty": _("No open tables. Create one!"),
        "public": _("Public"),
        "private": _("Private"),
        "rated": _("Rated"),
        "casual": _("Casual"),
        "open_seat": _("Open seat"),
        "bot": _("Bot (%(level)s)"),
        "you": _("you"),
        "host": _("host"),
        "join": _("Join"),
        "sit_here": _("Sit here"),
        "leave": _("Leave"),
        "open": _("Open"),
        "start": _("Start the match"),
        "fill_bots": _("Fill empty seats with bots"),
        "remove_bot": _("Remove bot"),
        "seats_free": _("%(n)s open seats"),
        "invite": _("Invitation link"),
        "copy": _("Copy"),
        "copied": _("Copied"),
        "started": _("The match has started."),
        "go_to_match": _("Go to the match"),
        "not_open": _("This table is no longer open."),
        "live": _("%(s)s s a move"),
        "days": _("%(d)s d a move"),
        "your_turn": _("Your turn in match #%(id)s"),
        "reminder": _("Reminder: your move in match #%(id)s is due soon"),
        "autopilot": _("Time ran out: the autopilot moved for you in match #%(id)s"),
        "handed_over": _("A bot now plays your seat in match #%(id)s"),
        "play": _("Play"),
        "dismiss": _("Dismiss"),
        "resign": _("Resign"),
        "due": _("Turn ends %(when)s"),
        "resign_confirm": _("Resign? A bot plays your seat for the rest of the match."),
    }


@login_required
def lobby_page(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby.html", {"time_choices": _time_choices(), "strings": _strings(),
                                          "bot_levels": _bot_levels()})


def _bot_levels() -> list[str]:
    from engine.bots import DEFAULT_BOT

    from .pages import _bot_levels as levels

    return [DEFAULT_BOT, *levels()]


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    code = request.GET.get("code") or None
    try:
        lobby.visible_table(request.user, table_id, code)
    except lobby.TableNotFound:
        raise Http404() from None
    return render(request, "table_room.html", {"table_id": table_id, "code": code or "", "strings": _strings(),
                                               "bot_levels": _bot_levels()})


@login_required
def invite(request: HttpRequest, code: str) -> HttpResponse:
    try:
        table = lobby.table_by_code(code)
    except lobby.TableNotFound:
        raise Http404() from None
    return redirect(f"/tables/{table.pk}/?code={code}")


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    show_bots = request.GET.get("bots", "1") != "0"
    return render(request, "leaderboard.html", {"rows": ratings.leaderboard(bots=show_bots), "show_bots": show_bots})


def _sparkline(values: list[float], width: int = 480, height: int = 120) -> str:
    """SVG polyline points for the rating history (empty with fewer than two points)."""
    if len(values) < 2:
        return ""
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    step = width / (len(values) - 1)
    return " ".join(f"{i * step:.1f},{height - (v - lo) / span * (height - 10) - 5:.1f}" for i, v in enumerate(values))


def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    data = ratings.profile(username)
    if data is None:
        raise Http404()
    values = [ratings.MODEL.mu - 3 * ratings.MODEL.sigma] + [h["conservative"] for h in data["history"]]
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
    profile, _created = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            profile.email_notifications = form.cleaned_data["email_notifications"]
            profile.save(update_fields=["email_notifications"])
            messages.success(request, _("Settings saved."))
            return redirect("settings")
    else:
        form = SettingsForm(initial={"email_notifications": profile.email_notifications})
    return render(request, "settings.html", {"form": form, "has_email": bool(request.user.email)})

