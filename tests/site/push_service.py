"""A stand-in Web Push service for the tests: a small HTTP(S) server on loopback that records every request and
answers with the statuses it is told to, and a browser's side of a subscription (its P-256 key pair and auth
secret) to decrypt what was pushed, as the browser would, and to read the VAPID token."""

from __future__ import annotations

import base64
import json
import os
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Answers each POST with the next of ``statuses`` (201 once they run out)."""

    server: ThreadingHTTPServer
    received: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def endpoint(self, name: str = "sub", scheme: str = "http", host: str | None = None) -> str:
        return f"{scheme}://{host or self.host}/push/{name}"

    def wait_for(self, count: int, timeout: float = 20) -> list[Received]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"{len(self.received)} pushes received, expected {count}"
            time.sleep(0.05)
        return self.received


def start_push_service(tls: ssl.SSLContext | None = None) -> Iterator[PushService]:
    """Run a push service until the generator is closed (a fixture's body)."""
    service: PushService

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            status = service.statuses.pop(0) if service.statuses else 201
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    service = PushService(server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class BrowserKeys:
    """What a browser keeps for its subscription: the private key and the auth secret."""

    private: ec.EllipticCurvePrivateKey
    auth: bytes

    @classmethod
    def new(cls) -> BrowserKeys:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                             serialization.PublicFormat.UncompressedPoint))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()``."""
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        data: dict[str, Any] = json.loads(plain)
        return data


def vapid_token(authorization: str) -> tuple[dict[str, Any], str]:
    """The claims of a ``vapid t=...,k=...`` header, after checking its signature, and its public key ``k``."""
    assert Vapid.verify(authorization), "the VAPID signature does not verify"
    params = dict(part.split("=", 1) for part in authorization.split(" ", 1)[1].split(","))
    header, claims, _sig = params["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    return json.loads(unb64url(claims)), params["k"]


def vapid_pair() -> tuple[str, str]:
    """A new VAPID key pair (public, private), base64url, as ``manage.py vapid_keys`` prints them."""
    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)
