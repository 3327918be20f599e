"""The log-in lockout: log-ins' rate limits and django-axes' lockout, for the log-in page, the admin's and
``POST /api/auth/token/`` alike.

Log-ins count against ``login`` (per address) and ``login_account`` (per username named, from anywhere) as they
reach the password check (``LockoutBackend``; the scopes are ``games.platform.ratelimit``'s), so all three share them.
They are also watched by django-axes: after ``AXES_FAILURE_LIMIT`` failures for one username from one address,
that username is refused from that address for ``AXES_COOLOFF_TIME``, the right password included
(``AXES_LOCKOUT_PARAMETERS``: the pair, so a stranger's failures never lock the owner out elsewhere; guessing from
many addresses is slowed by ``login_account``, many names from one address by ``login``). Both answer ``429``
(``lockout_response``); an attempt refused by a limit is not counted as a failure (``LockoutHandler``).
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend  # type: ignore[import-untyped]
from axes.handlers.database import AxesDatabaseHandler  # type: ignore[import-untyped]
from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games.platform.ratelimit import Refusal, check

LOGIN_SCOPES = ("login", "login_account")


class LockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]
    """Before the real backend: django-axes' lockout, then the log-in limits (``LOGIN_SCOPES``), for the page,
    the admin and the API alike. A log-in without a request (the shell, a test client's ``login``) is no web
    log-in and is not watched."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)  # raises while locked out
        refusal = check(request, list(LOGIN_SCOPES), {"username": username})
        if refusal is not None:
            request.login_refusal = refusal  # type: ignore[attr-defined]
            request.axes_locked_out = True  # type: ignore[attr-defined]  # AxesMiddleware answers: lockout_response
            raise PermissionDenied(f"log-in limit ({refusal.scope})")
        return None


class LockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """django-axes' records (``AXES_HANDLER``), without the attempts a log-in limit refused: no password was
    checked, and counting them would let a crowd over ``login_account`` lock the owner out too."""

    def user_login_failed(self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
        if getattr(request, "login_refusal", None) is not None:
            return
        super().user_login_failed(sender, credentials, request, **kwargs)


def cool_off_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = max(1, round(cool_off_seconds() / 60))
    return (f"Too many failed log-ins for this account from this address; try again in {minutes} minutes "
            "(the right password is refused until then too).")


def login_limit_message(refusal: Refusal) -> str:
    whom = "from this address" if refusal.scope == "login" else "for this account"
    return f"Too many log-ins {whom}; try again in {refusal.wait} seconds."


class LockedOutForm(forms.Form):
    """The log-in form as the refusal page shows it: the fields as typed, the reason as its error (it never
    authenticates, so showing it is not one more log-in)."""

    username = forms.CharField(label="Username")
    password = forms.CharField(label="Password", widget=forms.PasswordInput)

    def __init__(self, *args: Any, reason: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reason = reason

    def clean(self) -> dict[str, Any]:
        raise ValidationError(self.reason, code="locked_out")


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """django-axes' ``AXES_LOCKOUT_CALLABLE`` (for a lockout, and for a log-in limit: ``LockoutBackend``): 429
    JSON for the API (``locked_out``, or ``throttled`` with its ``scope`` as every limit of the API), the log-in
    page with the reason otherwise."""
    refusal: Refusal | None = getattr(request, "login_refusal", None)
    body: dict[str, Any]
    if refusal is None:
        wait, reason = cool_off_seconds(), lockout_message()
        body = {"code": "locked_out", "detail": reason, "retry_after": wait}
    else:
        wait, reason = refusal.wait, login_limit_message(refusal)
        body = {"code": "throttled", "detail": reason, "retry_after": wait, "scope": refusal.scope}
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(body, status=429)
    else:
        form = LockedOutForm(data={"username": request.POST.get("username", "")}, reason=reason)
        form.is_valid()
        if request.path.startswith("/admin/"):
            context = {**admin.site.each_context(request), "form": form, "title": "Log in",
                       "app_path": request.get_full_path(), "username": request.POST.get("username", "")}
            response = render(request, "admin/login.html", context, status=429)
        else:
            response = render(request, "registration/login.html",
                              {"form": form, "next": request.POST.get("next", "")}, status=429)
    response["Retry-After"] = str(wait)
    return response
