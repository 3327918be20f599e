"""The site's API as a bot uses it: the view of a match, an action, an invitation's answer, a seek in the bots'
quick-match pool (the bot ladder), and the events (NDJSON stream, resumed by id; or the account socket ``/ws/me/``
with the stored events read after each reconnect)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx

log = logging.getLogger("callbreak_client")

EVENT_TYPES = ("your_turn", "invited", "match_over")


class SiteError(Exception):
    """A 4xx answer: ``code`` and ``detail`` as the site sent them."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.status = status
        self.code = str(body.get("code", ""))
        self.body = body


class Site:
    def __init__(self, url: str, token: str, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.url, timeout=timeout,
                                 headers={"Authorization": f"Token {token}", "User-Agent": "callbreak-client/0.1"})

    def _json(self, response: httpx.Response) -> Any:
        if response.status_code >= 400:
            try:
                body = response.json()
            except ValueError:
                body = {"code": "http_error", "detail": response.text[:200]}
            raise SiteError(response.status_code, body)
        return response.json()

    def get(self, path: str) -> Any:
        return self._json(self.http.get(path))

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._json(self.http.post(path, json=body or {}))

    def me(self) -> dict[str, Any]:
        return dict(self.get("/api/me/"))

    def view(self, match_id: int) -> dict[str, Any]:
        return dict(self.get(f"/api/matches/{match_id}/"))

    def act(self, match_id: int, seq: int, action: dict[str, Any]) -> dict[str, Any]:
        return dict(self.post(f"/api/matches/{match_id}/actions/", {"seq": seq, **action}))

    def answer_invitation(self, table_id: int, accept: bool) -> dict[str, Any]:
        return dict(self.post(f"/api/tables/{table_id}/invitation/", {"accept": accept}))

    def seek(self, pace: str = "live") -> dict[str, Any]:
        """A seek in the bots' pool (the bot ladder): ``{"id", "status", "match_id", ...}``; 409 ``already_seeking``
        (with the waiting one's ``id``) or ``too_many_matches`` (at the bot's cap) as a ``SiteError``."""
        return dict(self.post("/api/quick-match/", {"pool": "bots", "pace": pace}))

    def arenas(self) -> list[dict[str, Any]]:
        """The arenas: running and upcoming first (``{"id", "pool", "phase", ...}``)."""
        return list(self.get("/api/tournaments/"))

    def arena(self, arena_id: int) -> dict[str, Any]:
        return dict(self.get(f"/api/tournaments/{arena_id}/"))

    def join_arena(self, arena_id: int) -> dict[str, Any]:
        """Join an arena of bot accounts (seated whenever free until it ends); 409 ``tournament_over``."""
        return dict(self.post(f"/api/tournaments/{arena_id}/join/", {}))

    def get_seek(self, seek_id: int) -> dict[str, Any]:
        return dict(self.get(f"/api/quick-match/{seek_id}/"))

    def stored_events(self, since: int | None) -> tuple[int, list[dict[str, Any]]]:
        """The newest event id and the events recorded after ``since`` (None: those still awaiting an answer);
        ``follow=0``: the stream sends them and ends."""
        params: dict[str, Any] = {"follow": 0} if since is None else {"since": since, "follow": 0}
        with self.http.stream("GET", "/api/bot/events/", params=params) as response:
            if response.status_code >= 400:
                response.read()
                self._json(response)
            lines = list(_lines(response))
        hello = lines[0] if lines and lines[0].get("type") == "hello" else {}
        return int(hello.get("last_id", 0)), [e for e in lines if e.get("type") in EVENT_TYPES]

    def stream(self, since: int | None, read_timeout: float = 60.0) -> Iterator[dict[str, Any]]:
        """The NDJSON event stream from after ``since`` (None: the events still awaiting an answer, then new
        ones): hello, events and heart-beats, until the connection ends (the caller reconnects with the last id it
        saw)."""
        params: dict[str, Any] = {} if since is None else {"since": since}
        timeout = httpx.Timeout(10.0, read=read_timeout)
        with self.http.stream("GET", "/api/bot/events/", params=params, timeout=timeout) as response:
            if response.status_code >= 400:
                response.read()
                self._json(response)
            yield from _lines(response)

    def socket_url(self) -> str:
        base = "ws" + self.url[len("http"):] if self.url.startswith("http") else self.url
        return f"{base}/ws/me/?token={self.token}"


def _lines(response: httpx.Response) -> Iterator[dict[str, Any]]:
    for line in response.iter_lines():
        if line.strip():
            yield json.loads(line)
