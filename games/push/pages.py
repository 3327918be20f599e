"""The settings page's push section (added to the accounts' settings page by ``games.urls``) and its forms:
which kinds to push, and removing a browser."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.platform.errors import GameError
from games.web.users import signed_in

from . import commands, reads

# The kinds the page offers: a quick match found joins them when quick matches exist (the API has it already).
PAGE_KINDS = tuple((kind, label) for kind, label in reads.KINDS if kind != "quick_match")


class PushPreferencesForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind, label in PAGE_KINDS:
            self.fields[kind] = forms.BooleanField(required=False, label=label)


def settings_section(request: HttpRequest) -> dict[str, Any]:
    """The push section's template and what it shows: on or off, the kinds, this person's browsers."""
    user = signed_in(request)
    return {
        "template": "push/settings_section.html",
        "script": "js/push.js",
        "push_on": reads.push_on(),
        "form": PushPreferencesForm(initial=reads.preferences(user.pk), auto_id="push_%s"),
        "subscriptions": reads.subscriptions_json(user),
    }


@login_required
@require_http_methods(["POST"])
def preferences_page(request: HttpRequest) -> HttpResponse:
    form = PushPreferencesForm(request.POST)
    if form.is_valid():
        commands.set_preferences(signed_in(request), {k: bool(v) for k, v in form.cleaned_data.items()})
        messages.success(request, _("Push notification settings saved."))
    return redirect("/settings/#push")


@login_required
@require_http_methods(["POST"])
def remove_subscription_page(request: HttpRequest, subscription_id: int) -> HttpResponse:
    try:
        commands.unsubscribe(signed_in(request), subscription_id)
    except GameError:
        pass
    else:
        messages.success(request, _("That device will get no more push notifications."))
    return redirect("/settings/#push")
