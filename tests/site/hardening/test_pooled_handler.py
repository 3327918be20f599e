"""The site's ASGI handler (``callbreak_site.handler``) does a request's sync part in one hop, on a pool of
long-lived threads: no ``sync_to_async`` per request, no new thread per request."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.core.signals import request_finished, request_started

from callbreak_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def _get(path: str) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    received = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        return received.pop(0) if received else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 5000), "server": ("localhost", 80),
             "scheme": "http", "http_version": "1.1", "asgi": {"version": "3.0"}, "root_path": ""}
    await application(scope, receive, send)
    return sent


async def test_each_request_runs_on_a_pooled_thread_in_one_hop(monkeypatch: Any) -> None:
    hops: list[str] = []
    original = SyncToAsync.__call__

    async def counted(self: SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    seen: list[tuple[str, str]] = []

    def started(**_: Any) -> None:
        seen.append(("started", threading.current_thread().name))

    def finished(**_: Any) -> None:
        seen.append(("finished", threading.current_thread().name))

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        answers = [await _get("/rules/") for _ in range(12)]
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert all(sent[0]["status"] == 200 for sent in answers)
    assert hops == []  # no sync_to_async anywhere in a request
    assert len(seen) == 24
    threads = {name for _, name in seen}
    assert all(name.startswith("request") for name in threads), threads
    # the same few threads serve one request after another (Django's own handler made a thread per request)
    assert len(threads) <= 8
    # a request's signals run on the thread that ran it, so its database connection goes back to the pool there
    for i in range(0, 24, 2):
        assert seen[i][0] == "started" and seen[i + 1] == ("finished", seen[i][1])


async def test_a_page_that_fails_answers_its_error_page_and_the_next_request_is_served() -> None:
    missing = await _get("/no-such-page/")
    assert missing[0]["status"] == 404
    assert (await _get("/rules/"))[0]["status"] == 200
