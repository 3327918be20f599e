"""After a match: "My matches" kept current over ``/ws/me/``; the installable app. (The rematch and the end
screen's rating change: ``test_one_tap_rematch``.)"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from site_helpers import client_for, ws

pytestmark = pytest.mark.django_db(transaction=True)


async def test_my_matches_rows_arrive_on_the_user_socket(make_user: Any) -> None:
    amy = await database_sync_to_async(make_user)("amy3")
    tab = await ws("/ws/me/", amy)
    created = await database_sync_to_async(
        lambda: client_for(amy).post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json"))()
    view = created.json()
    rows = []
    while True:  # the start and the bots' moves, each as amy's row of My matches
        msg = await tab.receive_json_from(timeout=5)
        if msg.get("type") == "match":
            rows.append(msg["match"])
            if msg["match"]["seq"] == view["seq"]:
                break
    last = rows[-1]
    assert last["id"] == view["id"] and last["your_turn"] and last["you"] == 0
    listed = await database_sync_to_async(lambda: client_for(amy).get("/api/matches/").json())()
    assert listed[0] == last  # exactly a row of GET /api/matches/
    assert all("hand" not in row for row in rows)
    await tab.disconnect()


def test_the_installable_app_is_served(client: Any) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] and manifest.json()["icons"]
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw["Service-Worker-Allowed"] == "/" and "javascript" in sw["Content-Type"]
    assert client.get("/offline/").status_code == 200
