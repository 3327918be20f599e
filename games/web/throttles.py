"""DRF's throttle over the rate limits (``games.platform.ratelimit``): every API view counts its route's scopes
(``settings.RATE_LIMIT_ROUTES``) and ``api`` per signed-in user, and answers a request over a limit with
``429 {"code": "throttled", "detail", "retry_after", "scope"}`` and a ``Retry-After`` header."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from games.platform.ratelimit import Refusal, check, route_scopes

__all__ = ["RateLimited", "RouteThrottle"]


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
