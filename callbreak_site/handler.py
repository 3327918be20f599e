"""Django's HTTP handler for the ASGI server, with each request's sync work on a pool of long-lived threads.

Django's own ``ASGIHandler`` runs the sync middleware and views of every request through ``sync_to_async`` in a
``ThreadSensitiveContext``: a new thread per request, and several hops between the event loop and that thread (the
``request_started`` signal, the view, ``response.close``). Under a crowd those hops queue behind every socket of
the process on the one loop, and each new thread also opens its database connection from cold. Here one hop does
the whole request (signals, middleware, view, ``close``) on one of ``WEB_REQUEST_THREADS`` threads that live as
long as the process, so a thread keeps its pooled connection's warm state and the loop only reads the body and
writes the answer.

A streaming answer (e.g. a long-lived NDJSON stream) is still sent from the loop, and a client's disconnect stops
it, as Django does.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


def request_threads() -> int:
    """Threads per web process: enough to keep the database pool busy, few enough not to thrash two cores."""
    return settings.WEB_REQUEST_THREADS


class PooledASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose sync request work runs in one hop on a fixed pool of threads."""

    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._threads = ThreadPoolExecutor(max_workers=request_threads(), thread_name_prefix="request")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        response = await loop.run_in_executor(self._threads, context.run, self._respond, scope, body_file)
        if not response.streaming:
            await self.send_response(response, send)
            return
        sending = asyncio.create_task(self.send_response(response, send))
        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait([sending, listening], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sending, listening):
                if not task.done():
                    task.cancel()
                # a disconnect (RequestAborted) or the cancelled one: nothing more to send
                with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                    await task
            await loop.run_in_executor(self._threads, context.run, self._close, response, body_file)

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """The request's whole sync part, on one pooled thread: signals, middleware, view and, unless it
        streams, ``close`` (which sends ``request_finished`` and so gives the thread's connection back)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response: HttpResponseBase
        if request is None:
            assert error_response is not None  # Django gives one or the other
            response = error_response
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            self._close(response, body_file)
        return response

    @staticmethod
    def _close(response: HttpResponseBase, body_file: Any) -> None:
        response.close()
        body_file.close()


def get_pooled_asgi_application() -> PooledASGIHandler:
    """What ``django.core.asgi.get_asgi_application`` does, with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledASGIHandler()
