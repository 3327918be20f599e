"""Under ASGI a request goes to a thread once for the middleware chain and once for the view (and, as Django
does for every request, for the request signals, the views' ``process_view`` and closing the response).

Django runs a middleware that can be async in async mode when the handler inside it is async, and an async
``MiddlewareMixin`` hands each ``process_request``/``process_response`` to a thread and waits for the event
loop to take the result back. With the chain of this site that was about a dozen waits a request, each
behind every socket of the process; ``callbreak_site.middleware.OneThreadMiddleware`` keeps the chain sync.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.test import AsyncClient

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_request_goes_to_a_thread_for_the_chain_and_for_the_view(monkeypatch: Any) -> None:
    hops: list[str] = []
    original = SyncToAsync.__call__

    async def counted(self: SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    response = await AsyncClient().get("/")
    assert response.status_code == 200
    # request_started, the chain, process_view, the view, the response's close: 17 without the middleware
    assert len(hops) <= 5, hops
