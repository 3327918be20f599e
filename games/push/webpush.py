"""One Web Push request (RFC 8030, 8291, 8292): the payload encrypted for the browser's keys (``aes128gcm``, by
``pywebpush``/``http_ece``), signed for the push service with the site's VAPID key (``py_vapid``), and POSTed to
the endpoint over a connection to an address ``games.push.endpoints`` has just checked.

The connection is opened to that address itself (TLS still verifies the endpoint's host name, sent as SNI and
``Host``); redirects are never followed; the answer is read up to 64 KiB within a bounded time.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any

import urllib3
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPusher

from . import endpoints
from .endpoints import Endpoint

VAPID_TOKEN_SECONDS = 12 * 3600  # the JWT's lifetime: push services take at most 24 h
MAX_ANSWER_BYTES = 64 * 1024
# The CA bundle to verify push services with; None: the system's (tests set their own).
CA_CERTS: str | None = None


class TransientError(Exception):
    """The push service could not be reached now (DNS, connection, timeout): try again later."""


@dataclass(frozen=True)
class Answer:
    status: int
    retry_after: str | None
    body: bytes


def configured() -> bool:
    """Push is on when both VAPID keys are set."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def subject() -> str:
    """The VAPID ``sub``: ``VAPID_SUBJECT``, else the site's https URL, else mailto: the sender's address."""
    if settings.VAPID_SUBJECT:
        return str(settings.VAPID_SUBJECT)
    if settings.SITE_URL.startswith("https://"):
        return str(settings.SITE_URL).rstrip("/")
    return "mailto:" + (parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "webmaster@localhost")


@functools.cache
def _vapid(private_key: str) -> Any:
    return Vapid.from_string(private_key)


def vapid_headers(endpoint: Endpoint, now: float | None = None) -> dict[str, str]:
    """The ``Authorization: vapid t=<JWT>,k=<public key>`` header for this endpoint's push service."""
    now = time.time() if now is None else now
    claims = {"aud": endpoint.origin, "exp": int(now) + VAPID_TOKEN_SECONDS, "sub": subject()}
    signed: dict[str, str] = _vapid(settings.VAPID_PRIVATE_KEY).sign(claims)
    return {"Authorization": signed["Authorization"]}


def encrypt(p256dh: str, auth: str, payload: bytes) -> bytes:
    """``payload`` encrypted for one browser (``aes128gcm``: salt, our ephemeral key and the record)."""
    pusher = WebPusher({"endpoint": "https://unused.invalid/", "keys": {"p256dh": p256dh, "auth": auth}})
    body: bytes = pusher.encode(payload, "aes128gcm")["body"]
    return body


def send(endpoint: Endpoint, p256dh: str, auth: str, payload: bytes, *, ttl: int, topic: str | None = None,
         urgency: str = "normal") -> Answer:
    """Push ``payload`` to one subscription. Raises ``EndpointRefused`` when the endpoint's host now resolves to an
    address that is not public, ``TransientError`` when the service cannot be reached."""
    try:
        address = endpoints.checked_addresses(endpoint)[0]
    except endpoints.EndpointUnreachable as err:
        raise TransientError(str(err)) from None
    headers = {
        "Host": endpoint.host_header,
        "TTL": str(max(0, int(ttl))),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Urgency": urgency,
        **vapid_headers(endpoint),
    }
    if topic:
        headers["Topic"] = topic
    body = encrypt(p256dh, auth, payload)
    timeout = urllib3.Timeout(connect=settings.PUSH_TIMEOUT_SECONDS, read=settings.PUSH_TIMEOUT_SECONDS,
                              total=2 * settings.PUSH_TIMEOUT_SECONDS)
    pool: urllib3.HTTPConnectionPool
    if endpoint.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            address, endpoint.port, timeout=timeout, retries=False, maxsize=1, cert_reqs="CERT_REQUIRED",
            ca_certs=CA_CERTS, server_hostname=endpoint.host, assert_hostname=endpoint.host)
    else:
        pool = urllib3.HTTPConnectionPool(address, endpoint.port, timeout=timeout, retries=False, maxsize=1)
    try:
        response = pool.urlopen("POST", endpoint.target, body=body, headers=headers, redirect=False,
                                retries=False, preload_content=False, assert_same_host=False)
        try:
            answer = response.read(MAX_ANSWER_BYTES)
        finally:
            response.release_conn()
            response.close()
    except (urllib3.exceptions.HTTPError, OSError) as err:
        raise TransientError(f"{type(err).__name__}: {err}"[:200]) from None
    finally:
        pool.close()
    return Answer(status=response.status, retry_after=response.headers.get("Retry-After"), body=answer)
