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
from urllib.parse import unquote_plus

REDACTED = "[redacted]"
# A `name=value` pair, as in a query string: its value is redacted when the name, read as the sockets read it
# (percent-decoded, `+` a space: `parse_qs` in games/accounts/ws_auth.py), ends in `token` in any case (token=,
# %74oken=, access_token=, auth_token=…), so every spelling that authenticates a socket is redacted.
PARAM = re.compile(r"([^\s?&;=\"'#]+)=([^&\s\"'#]*)")
# The token of a password-reset link (/accounts/reset/<uidb64>/<token>/; Django's own next step,
# .../set-password/, holds none).
RESET_LINK = re.compile(r"(/accounts/reset/[^/\s\"']+/)(?!set-password/)[^/\s\"'?#]+")
# The loggers that web servers write requests to: they keep their own handlers (set by gunicorn or Uvicorn
# before Django starts), so the filter goes on the logger.
SERVER_LOGGERS = (
    "uvicorn.error", "uvicorn.access", "gunicorn.error", "gunicorn.access", "django.request", "django.server",
    "django.channels.server", "daphne.server", "daphne.http_protocol", "daphne.ws_protocol",
)


def _param(match: re.Match[str]) -> str:
    name, value = match.group(1), match.group(2)
    if value and unquote_plus(name).casefold().endswith("token"):
        return f"{name}={REDACTED}"
    return match.group(0)


def redact(text: str) -> str:
    if "=" in text:
        text = PARAM.sub(_param, text)
    return RESET_LINK.sub(lambda m: m.group(1) + REDACTED, text)


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
