"""The innermost middleware: it keeps Django's middleware chain in one thread under ASGI."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class OneThreadMiddleware:
    """Sync only, and last in ``MIDDLEWARE``, so every middleware outside it runs in sync mode.

    Under ASGI Django runs a middleware that can be async in async mode when the handler inside it is
    async, and an async ``MiddlewareMixin`` hands each of its ``process_request``/``process_response``
    calls to a thread and waits for the event loop to take the result back: about a dozen such hops
    a request with this chain, each waiting for its turn on a loop that also serves every socket of
    the process. Under the crowd benchmark (10 matches, think time 0) a person's action took 235 ms
    at the median, most of it in those waits. With this middleware the chain runs in one thread; the
    view is one hop away from it.
    """

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)
