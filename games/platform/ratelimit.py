"""Rate limits: every limit on how often someone may do something, and how many sockets they may hold.

A limit is a named *scope*: what it counts by and its rate (``"N/s"``, ``"N/10s"``, ``"N/min"``, ``"N/h"``,
``"N/day"``), counted per fixed window in the Django cache (Redis when ``REDIS_URL`` is set, so every web process
shares them; this process's memory otherwise). What a scope counts by:

- ``ip``: the client's address (``REMOTE_ADDR``, which the ASGI server takes from ``X-Forwarded-For`` for
  proxies it trusts: uvicorn's ``FORWARDED_ALLOW_IPS``),
- ``account``: the username a log-in names (case folded), whoever sends it,
- ``user``: the signed-in user (the address for anonymous requests),
- ``socket``: one open socket (``Socket``), counted in that socket's own memory (it lives in one process).

The scopes, for people, bots and sockets:

- ``settings.RATE_LIMITS`` (each rate from ``RATE_LIMIT_<SCOPE>``; ``RATE_LIMITS=0`` turns these off): people's
  (``signup``, ``guest``, ``login``, ``login_account``, ``action``, ``action_sustained``, ``new_match``,
  ``new_table``, ``join_code``, ``schema``, ``api``, ``chat``, ``chat_sustained``, ``chat_report``) and bot
  accounts' (``bot_stream``, ``bot_invite``, ``bot_answer``). ``settings.RATE_LIMIT_ROUTES`` says which count an
  API request, by URL name and method; every API request of a signed-in user also counts against ``api``
  (``route_scopes``; DRF's ``games.web.throttles.RouteThrottle`` applies them).
- ``emote``: ``EMOTE_LIMIT`` emotes per person and match (``per=match_id``) in ``EMOTE_WINDOW`` seconds, in the
  cache (so every socket of the person shares the count). A rule of the table: on with ``RATE_LIMITS=0`` too.
- ``resync``: ``RESYNC_LIMIT`` resyncs per socket in ``RESYNC_WINDOW`` seconds (each builds a view), in a sliding
  window of the socket's own memory. On with ``RATE_LIMITS=0`` too.
- open sockets: at most ``SOCKETS_PER_USER`` per account in this process (``OPEN_SOCKETS``); not a rate but a
  cap, held while the socket is open.

Who is counted: a request (an HTTP request, or anything with its ``user`` and ``META["REMOTE_ADDR"]``), a
``Person`` (a user id, for a command with no request around it) or a ``Socket`` (an open socket's person,
address and channel). A cache that does not answer (Redis away) does not turn the limits off: the counts go on in
this process's memory (``LocalCounts``) until it is back, so each web process limits on its own (a crowd spread
over N processes gets at most N times the rate), and the log says so once a minute.
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
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.conf import settings
from django.core.cache import cache as django_cache
from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

_UNITS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
          "d": 86400, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*$")

EMOTE = "emote"
RESYNC = "resync"
# Resyncs one socket may ask for within RESYNC_WINDOW seconds; more are refused.
RESYNC_LIMIT, RESYNC_WINDOW = 10, 10.0


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: float  # whole seconds for every parsed rate; EMOTE_WINDOW may be a fraction


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
    return _address(raw)


def _address(raw: str) -> str | None:
    try:
        return str(ipaddress.ip_address(raw.strip()))
    except ValueError:
        return None


def account_name(name: object) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold() if isinstance(name, str) else ""


# --- who is counted --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Person:
    """A signed-in person with no request around (a command run for them): counted by ``user`` scopes."""

    user_id: int
    address: str | None = None


@dataclass(eq=False)
class Socket:
    """An open socket: its person (None when anonymous), its client's address and its channel, and the counts
    of its ``socket`` scopes (kept here, so they go with the socket)."""

    user_id: int | None
    address: str | None
    channel: str = ""
    recent: dict[str, deque[float]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, scope: Mapping[str, Any], channel: str = "") -> Socket:
        """The socket an ASGI ``scope`` opened (its ``user`` and ``client``)."""
        user = scope.get("user")
        user_id = int(user.pk) if user is not None and user.is_authenticated else None
        client = scope.get("client") or ("", 0)
        return cls(user_id, _address(str(client[0] or "")), channel)


def _ident(kind: str, who: Any, data: Any = None) -> str | None:
    if isinstance(who, Person | Socket):
        if kind == "user" and who.user_id is not None:
            return f"user:{who.user_id}"
        if kind in ("ip", "user"):
            return f"ip:{who.address}"
        if kind == "account":
            return None
    if kind == "ip":
        return f"ip:{client_ip(who)}"
    if kind == "account":
        name = account_name(data.get("username") if hasattr(data, "get") else None)
        return "account:" + name if name else None
    user = getattr(who, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(who)}"


@dataclass(frozen=True)
class Refusal:
    scope: str
    wait: int


#: The scopes ``RATE_LIMITS=0`` leaves on: rules of the table, not of the service.
ALWAYS_ON = (EMOTE, RESYNC)


def scope_rate(scope: str) -> tuple[str, Rate]:
    """A scope's kind (what it counts by) and its rate."""
    if scope == EMOTE:
        return "user", Rate(int(settings.EMOTE_LIMIT), float(settings.EMOTE_WINDOW))
    if scope == RESYNC:
        return "socket", Rate(RESYNC_LIMIT, RESYNC_WINDOW)
    kind, text = settings.RATE_LIMITS[scope]
    return kind, parse_rate(text)


# --- counting --------------------------------------------------------------------------------------

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


def _socket_hit(socket: Socket, scope: str, rate: Rate) -> Refusal | None:
    """One more in a sliding window of the socket's own memory; refused (and not counted) when full."""
    now = time.monotonic()
    recent = socket.recent.setdefault(scope, deque())
    while recent and recent[0] <= now - rate.seconds:
        recent.popleft()
    if len(recent) >= rate.count:
        return Refusal(scope, max(1, math.ceil(recent[0] + rate.seconds - now)))
    recent.append(now)
    return None


def check(who: Any, scopes: list[str], data: Any = None, *, per: object = None) -> Refusal | None:
    """Count ``who`` (a request, a ``Person`` or a ``Socket``) in each scope, ``per`` something when given
    (``emote``: per match); the refusal with the longest wait (its scope and the seconds to wait), or None.
    ``data`` holds the username an ``account`` scope counts."""
    now = time.time()
    counted: list[tuple[str, Rate, str]] = []
    refusal: Refusal | None = None
    for scope in scopes:
        if scope not in ALWAYS_ON and not settings.RATE_LIMITS_ON:
            continue
        kind, rate = scope_rate(scope)
        if kind == "socket":
            if not isinstance(who, Socket):
                raise TypeError(f"the {scope} scope counts a Socket")
            refused = _socket_hit(who, scope, rate)
            if refused is not None and (refusal is None or refused.wait > refusal.wait):
                refusal = refused
            continue
        ident = _ident(kind, who, data)
        if ident is not None:
            if per is not None:
                ident = f"{ident}@{per}"
            counted.append((scope, rate, _key(scope, ident, rate, now)))
    if not counted:
        return refusal
    counts = _count([(key, int(rate.seconds) + 1) for _, rate, key in counted], scopes)
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


# --- open sockets ----------------------------------------------------------------------------------

class OpenSockets:
    """Open sockets per account in this process, at most ``settings.SOCKETS_PER_USER``. Per process, so a process
    that dies takes its counts with it; the cap across the site is SOCKETS_PER_USER times the web processes."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()

    def admit(self, user_id: int) -> bool:
        """Count one more socket of ``user_id`` unless it holds its cap already."""
        if self.counts[user_id] >= settings.SOCKETS_PER_USER:
            return False
        self.counts[user_id] += 1
        return True

    def release(self, user_id: int) -> None:
        self.counts[user_id] -= 1
        if self.counts[user_id] <= 0:
            del self.counts[user_id]


OPEN_SOCKETS = OpenSockets()
