"""Bounded input: request bodies, JSON and WebSocket frames.

- ``BodyLimit`` (ASGI, wraps the whole site in ``callbreak_site/asgi.py``) answers ``413`` to an HTTP request
  whose body is larger than ``settings.MAX_REQUEST_BYTES``: from its ``Content-Length``, or as soon as a
  streamed body passes the limit, before Django reads (and spools) it; the body is drained (read and dropped,
  up to ``settings.BODY_DRAIN_BYTES``) before the answer, so the client is not reset mid-send.
  ``BodyLimitMiddleware`` does the same inside Django (for the WSGI entry point and the test client).
- ``JSONParser`` (DRF's parser for the API) refuses malformed JSON and JSON nested deeper than
  ``settings.MAX_JSON_DEPTH`` with ``400 {"code": "bad_json"}``, never a ``RecursionError``.
- ``StrictBooleanField`` takes JSON booleans only (what the OpenAPI document says).
- ``decode_frame`` is the same for WebSocket frames (also at most ``settings.WS_MAX_FRAME_BYTES``); the
  consumers answer a bad frame with an error message and keep the socket open.
- ``ascii_int`` reads a number typed by a client: ASCII digits only (``"²".isdigit()`` is true and ``int("²")``
  fails; ``int("٣")`` is 3; ``int(" 3")``, ``int("3_0")`` pass).
- ``NulByteMiddleware`` answers ``400`` to a path, query or cookie with a NUL character, which PostgreSQL
  refuses in any text (a ``DataError``, so a 500, wherever it reached a query).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]

TOO_LARGE = "too_large"
BAD_JSON = "bad_json"


def max_request_bytes() -> int:
    return int(settings.MAX_REQUEST_BYTES)


def ascii_int(raw: object, max_digits: int = 18) -> int | None:
    """The number an ASCII decimal string of 1 to ``max_digits`` digits spells, else None (also for ``"²"``,
    ``"٣"``, ``" 3"``, ``"+3"``, ``"3_0"``, which ``str.isdigit`` or ``int`` take). 18 digits fit a bigint."""
    if not isinstance(raw, str) or not 0 < len(raw) <= max_digits or not (raw.isascii() and raw.isdigit()):
        return None
    return int(raw)


def too_large_body(limit: int) -> dict[str, Any]:
    return {"code": TOO_LARGE, "detail": f"The request body is larger than {limit} bytes.", "limit": limit}


# --- request bodies -------------------------------------------------------------------------------

class _TooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: ``413`` for an HTTP request body over ``limit`` bytes (default: the setting).

    The refused body is read and dropped first, up to ``drain`` bytes in all (default: the setting
    ``BODY_DRAIN_BYTES``): a client that sends its whole body before it reads the answer (httpx, most
    libraries) saw a connection reset, not the 413, when the server answered and closed while the body was
    still coming. Past ``drain`` the answer goes at once and the connection closes: a bound on the bytes
    read for nothing."""

    def __init__(self, app: ASGIApp, limit: int | None = None, drain: int | None = None) -> None:
        self.app = app
        self.limit = limit
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit if self.limit is not None else max_request_bytes()
        drain = self.drain if self.drain is not None else settings.BODY_DRAIN_BYTES
        length = _header(scope, b"content-length")
        if length is not None and ((size := ascii_int(length, 20)) is None or size > limit):
            complete = size is not None and size <= drain and await _drain(receive, 0, drain)
            await self._refuse(send, limit, keep_alive=complete)
            return
        received = 0
        finished = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, finished
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                finished = not message.get("more_body", False)
                if received > limit:
                    raise _TooLarge()
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except _TooLarge:
            if not started:
                complete = finished or await _drain(receive, received, drain)
                await self._refuse(send, limit, keep_alive=complete)

    @staticmethod
    async def _refuse(send: Send, limit: int, keep_alive: bool) -> None:
        body = json.dumps(too_large_body(limit)).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if not keep_alive:  # the rest of the body is still coming: this connection cannot carry another request
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _drain(receive: Receive, received: int, bound: int) -> bool:
    """Read and drop the rest of a request body while at most ``bound`` bytes have come in all; whether it
    all came (False past the bound or when the client went away)."""
    while received <= bound:
        message = await receive()
        if message["type"] != "http.request":
            return False
        received += len(message.get("body", b""))
        if not message.get("more_body", False):
            return received <= bound
    return False


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1").strip()
    return None


class BodyLimitMiddleware:
    """Django middleware: ``413`` JSON when ``Content-Length`` is over the limit, before anything reads the body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = max_request_bytes()
        size = ascii_int(str(request.META.get("CONTENT_LENGTH") or "0").strip(), 20)
        if size is None or size > limit:
            return JsonResponse(too_large_body(limit), status=413)
        return self.get_response(request)


# --- NUL characters -------------------------------------------------------------------------------

NUL = "\x00"


def has_nul(request: HttpRequest) -> bool:
    """Whether the path, a query parameter or a cookie holds a NUL character (as ``%00``)."""
    if NUL in request.path_info or NUL in request.path:
        return True
    if NUL in request.META.get("QUERY_STRING", "") or "%00" in request.META.get("QUERY_STRING", ""):
        return True
    return any(NUL in value for value in request.COOKIES.values())


class NulByteMiddleware:
    """Django middleware: ``400`` (JSON ``{code: "bad_request"}`` under /api/) for a request whose path, query
    or cookies hold a NUL character: PostgreSQL takes none in text, so ``/players/%00/`` or ``/api/tables/invite/
    %00/`` reached a query and failed with a 500. Refused here once rather than in every view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_nul(request):
            detail = "The path, the query or a cookie holds a NUL character."
            if request.path.startswith("/api/"):
                return JsonResponse({"code": "bad_request", "detail": detail}, status=400)
            return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


# --- JSON -----------------------------------------------------------------------------------------

def too_deep(value: Any, limit: int) -> bool:
    """Whether a parsed JSON value nests arrays and objects deeper than ``limit``: level by level, no
    recursion, so any depth costs no stack."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        inner: list[Any] = []
        for item in level:
            inner.extend(item.values() if isinstance(item, dict) else item)
        level = [child for child in inner if isinstance(child, dict | list)]
    return False


def loads(text: str, max_depth: int | None = None) -> Any:
    """``json.loads`` that raises ``ValueError`` (never ``RecursionError``) for JSON that is malformed, nested
    deeper than ``max_depth`` (default: the setting), or uses NaN/Infinity."""
    limit = int(settings.MAX_JSON_DEPTH) if max_depth is None else max_depth
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # the parser's own guard, thousands of levels down
        raise ValueError(f"JSON nested deeper than {limit} levels.") from None
    # a text with no more brackets than the limit cannot nest deeper: most bodies need no walk
    if text.count("[") + text.count("{") > limit and too_deep(value, limit):
        raise ValueError(f"JSON nested deeper than {limit} levels.")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON.")


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded: malformed, non-UTF-8 or too deeply nested JSON is ``400 bad_json``."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
              ) -> Any:
        try:
            raw = stream.read() if stream is not None else b""
            text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
        except UnicodeDecodeError:
            raise ParseError("The body is not UTF-8 text.", code=BAD_JSON) from None
        if not text.strip():
            raise ParseError("The body is empty; send a JSON object.", code=BAD_JSON)
        try:
            return loads(text)
        except ValueError as err:
            raise ParseError(f"Malformed JSON: {err}", code=BAD_JSON) from None


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false`` and nothing else (DRF's own also takes 0, 1, "yes", "off"…): the API
    takes what its document says."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)
        raise AssertionError("unreachable")


# --- WebSocket frames -----------------------------------------------------------------------------

def decode_frame(text_data: str | None, bytes_data: bytes | None) -> Any:
    """The JSON value of a WebSocket frame; ``ValueError`` (with a message for the client) when the frame is
    too large, not UTF-8, malformed or too deeply nested."""
    limit = int(settings.WS_MAX_FRAME_BYTES)
    if text_data is not None:
        if len(text_data) > limit or len(text_data.encode("utf-8", "surrogatepass")) > limit:
            raise ValueError(f"Frames are at most {limit} bytes.")
        text = text_data
    else:
        raw = bytes_data or b""
        if len(raw) > limit:
            raise ValueError(f"Frames are at most {limit} bytes.")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("Send JSON text frames.") from None
    return loads(text)
