"""``/ws/matches/{id}/``: on connect, the seat's view; after actions, the seat's newest view; and my bids
and cards, sent on it.

Group messages carry ``match_id``, ``seq`` and what every seat sees (the actions just made); each consumer
builds its own seat's view, so a hand never travels through the channel layer. Messages to the client:
``{"type": "match", "match": <view>}``, after actions ``{"type": "match", "match": <view>, "since": n,
"actions": [...]}`` (the bids and cards played from ``seq`` n to the view's; none when the view was read
for another reason), so the page animates them. A client may send ``{"type": "resync"}`` to get the view
again, and act with ``{"seq": n, "bid": b}`` / ``{"seq": n, "card": "QH"}`` (``"ref"`` optional): the same
command, checks, error codes and rate limits as ``POST /api/matches/{id}/actions/``, answered with
``{"type": "accepted", "seq": n}`` and the view, or ``{"type": "error", "code", "detail"}``.

Presence (``games.presence.consumers``) and table talk (emotes, mutes, chat: ``games.tabletalk.consumers``)
are parts of the same socket, built on this one through its hooks and composed with it in ``games.routing``;
this module knows neither.

The socket follows the account (``games.accounts.sockets``): it closes (code 4401) when its token is revoked,
its session logs out or the account is deactivated, and sends nothing after that.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError

from games.accounts.sockets import FollowsAccount
from games.platform import metrics, ratelimit
from games.platform.errors import GameError, MatchNotFound
from games.platform.groups import match_group

from . import commands, reads
from .seatview import READ_BESIDE, SeatView

log = logging.getLogger(__name__)

# The rate limits of a bid or card, the same as the REST action's (its route's scopes and ``api``).
ACTION_SCOPES = [*settings.RATE_LIMIT_ROUTES["api-match-actions"]["POST"], "api"]

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


class MatchConsumer(FollowsAccount, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """The match's part of the match socket: the seat's views (``SeatView``), the person's bids and cards,
    resyncs. The parts above matches extend it through its hooks, each calling ``super()``: ``admitted`` (accepted,
    before the first view), ``opened`` (after it), ``resent`` (the view sent again: a resync, groups restored) and
    ``received`` (a message of another kind)."""

    socket_kind = "match"
    match_id: int
    seat: int
    seat_view: SeatView  # set once admitted
    last_seq: int = -1

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        try:
            match, seat = await database_sync_to_async(reads.get_match_for_user)(
                user, self.scope["url_route"]["kwargs"]["match_id"]
            )
        except MatchNotFound:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        refused = await self.join_account(match_group(match.pk))
        if refused is not None:
            await self.refuse(refused)
            return
        self.match_id, self.seat = match.pk, seat.index
        self.seat_view = SeatView(match.pk, seat.index, user.pk)
        await self.accept()
        await self.admitted()
        await self.send_view()
        await self.opened()

    async def admitted(self) -> None:
        """Accepted; the first view comes next."""

    async def opened(self) -> None:
        """The first view was sent."""

    async def resent(self) -> None:
        """The view was sent again for a page that may have missed messages: send what else it needs again."""

    async def received(self, kind: str | None, content: Any) -> bool:
        """A message of a ``kind`` this part does not handle: True when a part above handled it."""
        return False

    async def disconnect(self, code: int) -> None:
        await self.leave_account()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.shut:
            return
        kind = content.get("type", "action" if "seq" in content else None) if isinstance(content, dict) else None
        if kind == "resync":
            if ratelimit.check(self.limited_as, [ratelimit.RESYNC]) is not None:
                await self.send_json({"type": "error", "code": "throttled",
                                      "detail": f"At most {ratelimit.RESYNC_LIMIT} resyncs per "
                                                f"{ratelimit.RESYNC_WINDOW:g} seconds."})
                return
            await self.send_view(force=True)
            await self.resent()
        elif kind == "action":
            await self.act(content)
        elif not await self.received(kind, content):
            await self.send_json({"type": "error", "code": "bad_message",
                                  "detail": 'Send {"seq": n, "bid": b} or {"seq": n, "card": "QH"} to act, '
                                            '{"type": "resync"} to get the view again.'})

    async def act(self, content: dict[str, Any]) -> None:
        """A bid or card sent on the socket: the same command, checks, rate limits and error codes as
        ``POST /api/matches/{id}/actions/``, with no HTTP request around it. The answer is
        ``{"type": "accepted", "seq": n}`` and the view after it (with the action, so the page animates it),
        or ``{"type": "error", "code", "detail", ...}``; ``ref``, if sent, comes back in either."""
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        started = time.perf_counter()
        messages = await database_sync_to_async(self._act, thread_sensitive=not READ_BESIDE)(content)
        ref = content.get("ref")
        if isinstance(ref, str | int) and not isinstance(ref, bool) and len(str(ref)) <= 64:
            messages[0]["ref"] = ref
        for message in messages:
            if message["type"] == "match":
                if message["match"]["seq"] <= self.last_seq:
                    continue
                self.last_seq = message["match"]["seq"]
            await self.send_json(message)
        metrics.SOCKET_ACTION_SECONDS.labels(messages[0].get("code", "accepted")).observe(
            time.perf_counter() - started)

    def _act(self, content: dict[str, Any]) -> list[dict[str, Any]]:
        refusal = ratelimit.check(self.limited_as, ACTION_SCOPES)
        if refusal is not None:
            return [{"type": "error", "code": "throttled", "detail": f"Too many requests ({refusal.scope}).",
                     "retry_after": refusal.wait, "scope": refusal.scope}]
        payload = {key: content[key] for key in ("seq", "bid", "card") if key in content}
        try:
            match, state = commands.submit_action(user=self.scope["user"], match_id=self.match_id, payload=payload)
        except GameError as err:
            return [{"type": "error", "code": err.code, "detail": err.detail, **err.extra}]
        except (OperationalError, InterfaceError):
            log.warning("database unavailable for an action on match %s", self.match_id, exc_info=True)
            return [{"type": "error", "code": "unavailable", "detail": "The service is briefly unavailable; "
                                                                      "try again.", "retry_after": 1}]
        view, since, actions = self.seat_view.after_action(match, state)
        return [{"type": "accepted", "seq": since + 1},
                {"type": "match", "match": view, "since": since, "actions": actions}]

    async def match_updated(self, event: dict[str, Any]) -> None:
        """New actions. A socket whose seat view holds the state they follow applies them (the bids and cards
        played, public to every seat) and sends its seat's view without reading the database; one that does not
        (it missed a message, the match ended) reads the match. Views are never built for a ``seq``
        already covered: after a burst, the first message sent the newest view."""
        seq = event.get("seq")
        if not isinstance(seq, int) or seq <= self.last_seq:
            return
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        view = self.seat_view.follow(event)
        if view is None:
            await self.send_view(event=event)
        elif view["seq"] > self.last_seq:
            self.last_seq = view["seq"]
            await self.send_json({"type": "match", "match": view, **_carried(event, view["seq"])})

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_view(force=True)

    async def layer_rejoined(self, event: dict[str, Any]) -> None:
        """Redis lost this socket's groups (restarted empty, flushed, or away for a while) and the channel layer
        has put it back in them (``callbreak_site.channel_layer``): what the match sent meanwhile never came, so
        send the seat's view (and what the parts above send again), as a client's resync does."""
        if self.shut or not hasattr(self, "match_id"):  # not admitted: it is closing
            return
        await self.send_view(force=True)
        await self.resent()

    async def send_view(self, force: bool = False, event: dict[str, Any] | None = None) -> None:
        """Send the seat's newest view, read from the database, if it is newer than the last one sent (or
        ``force``), with ``event``'s actions if they lead to it; nothing once the socket is shut or its
        credential no longer holds (re-checked now and then). A match gone or a seat no longer the user's
        closes the socket (a deactivated account closes it through ``FollowsAccount``)."""
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        view = await database_sync_to_async(self.seat_view.read, thread_sensitive=not READ_BESIDE)()
        if self.shut:  # closed while the view was being built
            return
        if view is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if force or view["seq"] > self.last_seq:
            self.last_seq = view["seq"]
            await self.send_json({"type": "match", "match": view, **(_carried(event, view["seq"]) if event else {})})


def _carried(event: dict[str, Any], seq: int) -> dict[str, Any]:
    """``since`` and ``actions`` of a group event when they lead to ``seq`` (the view sent), else nothing."""
    since, actions = event.get("since"), event.get("actions")
    if isinstance(since, int) and isinstance(actions, list) and since + len(actions) == seq:
        return {"since": since, "actions": actions}
    return {}
