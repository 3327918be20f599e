"""Rate limits and the log-in lockout.

Limits are counted in the Django cache (Redis when ``REDIS_URL`` is set, so every web process shares them;
this process's memory otherwise), per fixed window: ``settings.RATE_LIMITS`` names each *scope* with what it
counts by and its rate, ``"N/s"``, ``"N/10s"``, ``"N/min"``, ``"N/h"``, ``"N/day"``:

- ``ip``: the client's address (``REMOTE_ADDR``, which the ASGI server takes from ``X-Forwarded-For`` for
  proxies it trusts: uvicorn's ``FORWARDED_ALLOW_IPS``),
- ``account``: the username a log-in names (case folded), whoever sends it,
- ``user``: the signed-in user (the address for anonymous requests).

``settings.RATE_LIMIT_ROUTES`` says which scopes count a request, by URL name and method; every API request
of a signed-in user also counts against the ``api`` scope. The API answers a request over a limit with
``429 {"code": "throttled", "detail", "retry_after", "scope"}`` and a ``Retry-After`` header (``RouteThrottle``,
DRF's throttle for every API view); the HTML sign-up form uses ``check`` too. A cache that does not answer (Redis
away) does not turn the limits off: the counts go on in this process's memory (``LocalCounts``) until it is back,
so each web process limits on its own (a crowd spread over N processes gets at most N times the rate), and the log
says so once a minute.

Log-ins (the HTML form, the admin's and ``POST /api/auth/token/``) are also watched by django-axes: after
``AXES_FAILURE_LIMIT`` failures from one address, or for one username, log-ins from there or to it are refused
for ``AXES_COOLOFF_TIME`` (``429``; ``lockout_response``), the right password included.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import re
import threading
import time
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from axes.backends import AxesStandaloneBackend  # type: ignore[import-untyped]
from django import forms
from django.conf import settings
from django.contrib import admin
from django.core.cache import cache as django_cache
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

_UNITS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
          "d": 86400, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


@cache
def parse_rate(text: str) -> Rate:
    """``"20/s"``, ``"300/min"``, ``"100/10s"``, ``"20/hour"`` …"""
    match = _RATE.match(text.lower())
    unit = (_UNITS.get(match.group(3)) or _UNITS.get(match.group(3).rstrip("s"))) if match else None
    if match is None or unit is None:
        raise ImproperlyConfigured(f"A rate is N/period (such as 20/s, 300/min, 100/10s), not {text!r}.")
    return Rate(int(match.group(1)), int(match.group(2) or 1) * unit)


def client_ip(request: Any) -> str | None:
    """The client's address as the server saw it (also django-axes' ``AXES_CLIENT_IP_CALLABLE``); None when
    there is none (a request made in-process, such as a test client's log-in)."""
    raw = str(getattr(request, "META", {}).get("REMOTE_ADDR") or "")
    try:
        return str(ipaddress.ip_address(raw.strip()))
    except ValueError:
        return None


def account_name(name: object) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold() if isinstance(name, str) else ""


@dataclass(frozen=True)
class Refusal:
    scope: str
    wait: int


def _ident(kind: str, request: Any, data: Any = None) -> str | None:
    if kind == "ip":
        return f"ip:{client_ip(request)}"
    if kind == "account":
        name = account_name(data.get("username") if hasattr(data, "get") else None)
        return "account:" + name if name else None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(request)}"


def _key(scope: str, ident: str, rate: Rate, now: float) -> str:
    digest = hashlib.sha256(ident.encode()).hexdigest()[:24]
    return f"rl:{scope}:{digest}:{int(now // rate.seconds)}"


def _incr_many(keys: list[tuple[str, int]]) -> list[int]:
    """Count one more in each ``(key, seconds to live)``; the counts. On Redis one round trip for all of them
    (a request counts in up to three scopes), else the cache's ``add`` and ``incr``."""
    client_of = getattr(getattr(django_cache, "_cache", None), "get_client", None)
    if client_of is not None:
        pipe = client_of(None, write=True).pipeline(transaction=False)
        for key, ttl in keys:
            full = django_cache.make_and_validate_key(key)
            pipe.set(full, 0, ex=ttl, nx=True)
            pipe.incr(full)
        return [int(n) for n in pipe.execute()[1::2]]
    counts = []
    for key, ttl in keys:
        django_cache.add(key, 0, timeout=ttl)
        try:
            counts.append(django_cache.incr(key))
        except ValueError:  # expired between add and incr
            django_cache.set(key, 1, timeout=ttl)
            counts.append(1)
    return counts


class LocalCounts:
    """Fixed-window counters in this process's memory: the fallback while the shared cache is away."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self._counts: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()
        self.max_keys = max_keys

    def incr_many(self, keys: list[tuple[str, int]], now: float | None = None) -> list[int]:
        now = time.monotonic() if now is None else now
        counts = []
        with self._lock:
            if len(self._counts) >= self.max_keys:  # expired windows go; if none had, the oldest half
                self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
                if len(self._counts) >= self.max_keys:
                    kept = sorted(self._counts.items(), key=lambda kv: kv[1][1])[self.max_keys // 2:]
                    self._counts = dict(kept)
            for key, ttl in keys:
                count, expires = self._counts.get(key, (0, 0.0))
                if expires <= now:
                    count, expires = 0, now + ttl
                self._counts[key] = (count + 1, expires)
                counts.append(count + 1)
        return counts

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


LOCAL_COUNTS = LocalCounts()
_warned_at = 0.0


def _count(keys: list[tuple[str, int]], scopes: list[str]) -> list[int]:
    """The counts from the shared cache, or from this process's memory while the cache does not answer."""
    global _warned_at
    try:
        return _incr_many(keys)
    except Exception:  # the cache is away: keep limiting, here
        if time.monotonic() - _warned_at > 60:
            _warned_at = time.monotonic()
            log.warning("rate limits (%s…) counted in this process: the cache did not answer", ",".join(scopes),
                        exc_info=True)
        return LOCAL_COUNTS.incr_many(keys)


def check(request: Any, scopes: list[str], data: Any = None) -> Refusal | None:
    """Count the request in each scope; the refusal with the longest wait (its scope and the seconds to wait),
    or None."""
    if not getattr(settings, "RATE_LIMITS_ON", True):
        return None
    now = time.time()
    counted: list[tuple[str, Rate, str]] = []
    for scope in scopes:
        kind, text = settings.RATE_LIMITS[scope]
        ident = _ident(kind, request, data)
        if ident is not None:
            rate = parse_rate(text)
            counted.append((scope, rate, _key(scope, ident, rate, now)))
    if not counted:
        return None
    counts = _count([(key, rate.seconds + 1) for _, rate, key in counted], scopes)
    refusal: Refusal | None = None
    for (scope, rate, _), count in zip(counted, counts, strict=True):
        if count > rate.count:
            wait = max(1, math.ceil((now // rate.seconds + 1) * rate.seconds - now))
            if refusal is None or wait > refusal.wait:
                refusal = Refusal(scope, wait)
    return refusal


def route_scopes(request: Any) -> list[str]:
    """The scopes that count this request: its route's for its method, and ``api`` for a signed-in user."""
    match = getattr(request, "resolver_match", None)
    routes: dict[str, dict[str, list[str]]] = settings.RATE_LIMIT_ROUTES
    scopes = list(routes.get(match.url_name or "", {}).get(request.method, [])) if match else []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and "api" in settings.RATE_LIMITS:
        scopes.append("api")
    return scopes


class RateLimited(Throttled):
    default_code = "throttled"

    def __init__(self, refusal: Refusal) -> None:
        # DRF adds "Expected available in N seconds."
        super().__init__(wait=refusal.wait, detail=f"Too many requests ({refusal.scope}).")
        self.scope = refusal.scope


class RouteThrottle(BaseThrottle):
    """DRF's throttle for every API view: ``settings.RATE_LIMIT_ROUTES``, and ``api`` per signed-in user."""

    def allow_request(self, request: Request, view: Any) -> bool:
        scopes = route_scopes(request)
        if not scopes:
            return True
        needs_data = any(settings.RATE_LIMITS[s][0] == "account" for s in scopes)
        refusal = check(request, scopes, request.data if needs_data else None)
        if refusal is not None:
            raise RateLimited(refusal)
        return True


# --- the log-in lockout (django-axes) --------------------------------------------------------------

class LockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]
    """django-axes' check before the real backend; a log-in without a request (the shell, a test client's
    ``login``) is no web log-in and is not watched."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)  # type: ignore[no-any-return]


def cool_off_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = max(1, round(cool_off_seconds() / 60))
    return (f"Too many failed log-ins from this address or for this account; try again in {minutes} minutes "
            "(the right password is refused until then too).")


class LockedOutForm(forms.Form):
    """The log-in form as the locked-out page shows it: the fields as typed, the reason as its error (it
    never authenticates, so showing it is not one more failed log-in)."""

    username = forms.CharField(label="Username")
    password = forms.CharField(label="Password", widget=forms.PasswordInput)

    def clean(self) -> dict[str, Any]:
        raise ValidationError(lockout_message(), code="locked_out")


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """django-axes' ``AXES_LOCKOUT_CALLABLE``: 429 JSON for the API, the log-in page with the reason otherwise."""
    wait = cool_off_seconds()
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": "locked_out", "detail": lockout_message(), "retry_after": wait}, status=429)
    else:
        form = LockedOutForm(data={"username": request.POST.get("username", "")})
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
