"""The user socket /ws/me/: lobby updates reach the people who may see the table; anonymous is refused."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from site_helpers import ORIGIN, client_for, ws

from callbreak_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def test_lobby_updates_over_the_user_socket(make_user: Any) -> None:
    host = await database_sync_to_async(make_user)("host")
    watcher = await database_sync_to_async(make_user)("watcher")
    tab = await ws("/ws/me/", watcher)
    def create() -> Any:
        return client_for(host).post("/api/tables/", {"visibility": "public", "move_seconds": 60}, format="json")

    r = await database_sync_to_async(create)()
    assert r.status_code == 201
    assert await tab.receive_json_from(timeout=3) == {"type": "lobby", "table_id": r.json()["id"]}
    # a private table is told to its members only
    host_tab = await ws("/ws/me/", host)

    def create_private() -> Any:
        return client_for(host).post("/api/tables/", {"visibility": "private"}, format="json")

    private = await database_sync_to_async(create_private)()
    assert await host_tab.receive_json_from(timeout=3) == {"type": "lobby", "table_id": private.json()["id"]}
    assert await tab.receive_nothing(timeout=0.5)
    await host_tab.disconnect()
    await tab.disconnect()
    anon = WebsocketCommunicator(application, "/ws/me/", headers=[ORIGIN])
    connected, code = await anon.connect()
    assert not connected and code == 4401
