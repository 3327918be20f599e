"""A socket's token never reaches the log, however its query spells the name: `?%74oken=` authenticates a socket
as `?token=` does (the query's names are percent-decoded), so the log filter reads names the same way. And the
pages allow sockets to their own host only (`connect-src 'self'`, with or without HTTPS)."""

from __future__ import annotations

import itertools
import logging

import pytest
from django.test import Client

from callbreak_site.logs import REDACTED, RedactSecrets, redact
from games.accounts.ws_auth import token_from_scope

KEY = "Zq9_x-Key0123456789abcdefghijklmnopqrstuvwx"


def _spellings() -> list[str]:
    """Names a client may send for `token`: each letter as itself, upper-cased, or percent-encoded (either
    hex case), with a `+` or a prefix."""
    ways = [[c, c.upper(), f"%{ord(c):02x}", f"%{ord(c):02X}"] for c in "token"]
    names = ["".join(parts) for parts in itertools.product(*ways)]
    return names + ["access_token", "+token", "token+", "to+ken", "%2574oken", "tok%65n%00"]


def _log_line(query: str) -> str:
    return f'127.0.0.1:5 - "WebSocket /ws/me/?{query}" [accepted]'


def test_every_spelling_that_authenticates_is_redacted() -> None:
    authenticating = []
    for name in _spellings():
        for query in (f"{name}={KEY}", f"seq=3&{name}={KEY}&x=1", f"{name}={KEY}#top"):
            if token_from_scope({"query_string": query.encode(), "headers": []}) != KEY:
                continue
            authenticating.append(name)
            line = redact(_log_line(query))
            assert KEY not in line and f"{name}={REDACTED}" in line, line
    assert {"token", "%74oken", "t%6Fken", "%74%6F%6B%65%6E"} <= set(authenticating)
    assert "TOKEN" not in authenticating  # names are case-sensitive to the socket (and redacted all the same)
    assert KEY not in redact(_log_line(f"TOKEN={KEY}"))


def test_other_parameters_and_the_rest_of_the_line_are_kept() -> None:
    line = _log_line(f"seq=3&%74oken={KEY}&next=/play/1/")
    assert redact(line) == _log_line(f"seq=3&%74oken={REDACTED}&next=/play/1/")
    assert redact('"GET /accounts/reset/MQ/c3k2-9f8e/ HTTP/1.1" 302') == \
        f'"GET /accounts/reset/MQ/{REDACTED}/ HTTP/1.1" 302'
    assert redact("/accounts/reset/MQ/set-password/") == "/accounts/reset/MQ/set-password/"


def test_the_log_filter_redacts_uvicorns_arguments() -> None:
    """Uvicorn's access log passes the path as an argument: the filter redacts it there too."""
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", f"/api/me/?t%6Fken={KEY}", "1.1", 200), None)
    assert RedactSecrets().filter(record)
    assert KEY not in record.getMessage() and f"t%6Fken={REDACTED}" in record.getMessage()
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, _log_line(f"%74oken={KEY}"), None, None)
    RedactSecrets().filter(record)
    assert KEY not in record.getMessage()


@pytest.mark.django_db
def test_pages_connect_to_their_own_host_only(client: Client) -> None:
    header = client.get("/").headers["Content-Security-Policy"]
    policy = {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}
    assert policy["connect-src"] == ["'self'"]


def test_with_https_sockets_go_to_the_own_host_only() -> None:
    from hardening.test_production_settings import SECRET, _settings

    expr = "s.HTTPS, s.CONTENT_SECURITY_POLICY['DIRECTIVES']['connect-src']"
    assert _settings({"DEBUG": "0", "SECRET_KEY": SECRET}, expr) == "True [\"'self'\"]"
    assert _settings({"DEBUG": "0", "SECRET_KEY": SECRET, "HTTPS": "0"}, expr) == "False [\"'self'\"]"
