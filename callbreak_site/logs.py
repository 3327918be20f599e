"""Logging with no secret in it: ``LOGGING_CONFIG`` (settings) is ``configure`` here.

Uvicorn logs every socket at INFO as ``"WebSocket /ws/matches/368/?token=9c71…" [accepted]`` and its access
log (``ACCESS_LOG=1``) every path with its query; a password-reset link carries its token in the path. Each
log line of the web servers (Uvicorn, gunicorn, Daphne, Django's own) and of the site passes through
``RedactSecrets`` first, which puts ``[redacted]`` in place of such values.
"""

from __future__ import annotations

import logging
import logging.config
import re
from typing import Any

REDACTED = "[redacted]"
# `token=<value>` in a query string (also access_token=, auth_token=…), and the token of a password-reset link
# (/accounts/reset/<uidb64>/<token>/; Django's own next step, .../set-password/, holds none).
PATTERNS = (
    re.compile(r"(?i)(token=)[^&\s\"'#]+"),
    re.compile(r"(/accounts/reset/[^/\s\"']+/)(?!set-password/)[^/\s\"'?#]+"),
)
# The loggers that web servers write requests to: they keep their own handlers (set by gunicorn or Uvicorn
# before Django starts), so the filter goes on the logger.
SERVER_LOGGERS = (
    "uvicorn.error", "uvicorn.access", "gunicorn.error", "gunicorn.access", "django.request", "django.server",
    "django.channels.server", "daphne.server", "daphne.http_protocol", "daphne.ws_protocol",
)


def redact(text: str) -> str:
    for pattern in PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Redacts the message and each string argument in place, keeping the arguments' shape (Uvicorn's access
    formatter reads them one by one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


FILTER = RedactSecrets()


def install() -> None:
    """Put the filter on every server logger (once)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if FILTER not in logger.filters:
            logger.addFilter(FILTER)


def configure(config: dict[str, Any]) -> None:
    """Django's ``LOGGING_CONFIG``: the settings' ``LOGGING``, then the filter on the server loggers."""
    logging.config.dictConfig(config)
    install()
