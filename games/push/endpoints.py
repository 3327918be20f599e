"""Where a push may go: a push endpoint is a URL the server will call, chosen by a browser (or anyone with an
account), so it must be https on port 443 and public addresses only, checked when subscribing and again when
sending.

A host name is resolved and every address it resolves to must be public (not private, loopback, link-local,
multicast, reserved, shared or unspecified); the sender then connects to the address checked here, so a DNS
answer that changes between the check and the connection (DNS rebinding) cannot lead it to a private one.
``PUSH_ALLOW_HTTP_HOSTS`` (``host[:port]``, comma-separated) names stand-in push services the operator trusts,
such as a test's local server: plain http, any port and any address are allowed for those.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from games.platform.errors import GameError

MAX_ENDPOINT_LENGTH = 1024
PORT = 443  # every push service listens on https' port; another port would make the worker a port scanner
# IPv6 ranges that carry an IPv4 address (RFC 6052, RFC 4380) and the 6to4 relays' anycast (RFC 3068, deprecated).
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
TEREDO = ipaddress.IPv6Network("2001::/32")
SIX_TO_FOUR_RELAYS = ipaddress.IPv4Network("192.88.99.0/24")


class EndpointRefused(GameError):
    """An endpoint the server will not call (400 ``bad_endpoint``)."""

    def __init__(self, detail: str) -> None:
        super().__init__("bad_endpoint", detail)


class EndpointUnreachable(Exception):
    """The host did not resolve now (a network fault: worth another try later)."""


@dataclass(frozen=True)
class Endpoint:
    url: str
    scheme: str
    host: str  # lower case, IPv6 without brackets
    port: int
    target: str  # path and query, as sent in the request line
    trusted: bool  # named in PUSH_ALLOW_HTTP_HOSTS

    @property
    def origin(self) -> str:
        """The VAPID ``aud``: scheme, host and the port when not the scheme's default."""
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}" if self.port == default else f"{self.scheme}://{host}:{self.port}"

    @property
    def host_header(self) -> str:
        return self.origin.split("://", 1)[1]


def trusted_hosts() -> set[str]:
    return {h.strip().lower() for h in settings.PUSH_ALLOW_HTTP_HOSTS.split(",") if h.strip()}


def parse(url: str) -> Endpoint:
    """The endpoint's parts, or ``EndpointRefused`` for a URL that is not an https push endpoint."""
    if not isinstance(url, str) or not url or len(url) > MAX_ENDPOINT_LENGTH:
        raise EndpointRefused(f"The endpoint must be a URL of at most {MAX_ENDPOINT_LENGTH} characters.")
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise EndpointRefused("The endpoint must not contain spaces or control characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise EndpointRefused("The endpoint is not a valid URL.") from None
    host = (parts.hostname or "").lower()
    if not host:
        raise EndpointRefused("The endpoint has no host.")
    if parts.username is not None or parts.password is not None:
        raise EndpointRefused("The endpoint must not carry a user name or password.")
    if parts.fragment:
        raise EndpointRefused("The endpoint must not have a fragment.")
    scheme = parts.scheme.lower()
    port = port if port is not None else (443 if scheme == "https" else 80)
    allowed = trusted_hosts()
    trusted = host in allowed or f"{host}:{port}" in allowed or f"[{host}]:{port}" in allowed
    if scheme != "https" and not (scheme == "http" and trusted):
        raise EndpointRefused("The endpoint must be an https URL.")
    if port != PORT and not trusted:
        raise EndpointRefused(f"The endpoint must be on port {PORT} (push services are), not {port}.")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Endpoint(url=url, scheme=scheme, host=host, port=port, target=target, trusted=trusted)


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return ip.is_global and not (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
                                 or ip.is_reserved or ip.is_unspecified)


def is_public(address: str) -> bool:
    """Whether ``address`` is on the public internet. An IPv6 address that carries an IPv4 one is judged by it:
    IPv4-mapped (``::ffff:a.b.c.d``) and NAT64 (``64:ff9b::a.b.c.d``, reached through a gateway to that IPv4
    address) by that address alone, 6to4 (``2002:AABB:CCDD::``, tunnelled to ``A.B.C.D``) by it too; Teredo
    (``2001::/32``, a client's tunnel, never a push service) is refused, as is the 6to4 relays' anycast
    ``192.88.99.0/24``."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        return _public(ip) and ip not in SIX_TO_FOUR_RELAYS
    if ip.ipv4_mapped is not None:
        return is_public(str(ip.ipv4_mapped))
    if ip in NAT64:
        return is_public(str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)))
    if ip in TEREDO:
        return False
    if ip.sixtofour is not None and not is_public(str(ip.sixtofour)):
        return False
    return _public(ip)


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to now (the system resolver; tests stand in for it)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as err:
        raise EndpointUnreachable(f"{host} does not resolve: {err}") from None
    seen: list[str] = []
    for info in infos:
        addr = str(info[4][0])
        if addr not in seen:
            seen.append(addr)
    if not seen:
        raise EndpointUnreachable(f"{host} resolves to no address")
    return seen


def checked_addresses(endpoint: Endpoint) -> list[str]:
    """The addresses to connect to for ``endpoint``: all public, else ``EndpointRefused`` (a trusted stand-in
    may be anywhere). ``EndpointUnreachable`` when the name does not resolve."""
    addresses = resolve(endpoint.host, endpoint.port)
    if not endpoint.trusted:
        refused = [a for a in addresses if not is_public(a)]
        if refused:
            raise EndpointRefused(
                f"The endpoint's host {endpoint.host} resolves to an address that is not public ({refused[0]}).")
    return addresses


def check_for_subscription(url: str) -> Endpoint:
    """A new subscription's endpoint: https, resolving now to public addresses only."""
    endpoint = parse(url)
    try:
        checked_addresses(endpoint)
    except EndpointUnreachable:
        raise EndpointRefused(f"The endpoint's host {endpoint.host} does not resolve.") from None
    return endpoint
