"""The Content-Security-Policy middleware: django-csp's, plus additions by path prefix.

The site's pages use no inline script, style or event handler, so the policy in
``settings.CONTENT_SECURITY_POLICY`` is strict (``'self'`` only). Third-party pages served under the
site get what they need and no more: ``settings.CSP_PATH_UPDATES`` maps a path prefix to directives
added there (the Django admin's templates still carry a ``<style>`` block); a view may also add its
own with django-csp's ``csp_update`` decorator (the API docs, in ``callbreak_site/urls.py``).
"""

from __future__ import annotations

from typing import Any

from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.middleware import PolicyParts
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase


def path_updates(path: str) -> dict[str, list[str]]:
    """The directives ``settings.CSP_PATH_UPDATES`` adds for ``path`` (every matching prefix, merged)."""
    merged: dict[str, list[str]] = {}
    for prefix, update in settings.CSP_PATH_UPDATES.items():
        if path.startswith(prefix):
            for directive, sources in update.items():
                merged.setdefault(directive, [])
                merged[directive] += [s for s in sources if s not in merged[directive]]
    return merged


class CSPMiddleware(BaseCSPMiddleware):
    def get_policy_parts(self, request: HttpRequest, response: HttpResponseBase,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        extra = path_updates(request.path_info)
        if extra and not report_only:
            update: dict[str, Any] = dict(parts.update or {})
            for directive, sources in extra.items():
                current = update.get(directive) or []
                current = [current] if isinstance(current, str) else list(current)
                update[directive] = current + [s for s in sources if s not in current]
            parts.update = update
        return parts
