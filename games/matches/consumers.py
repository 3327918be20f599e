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

Emotes: a seat sends ``{"type": "emote", "emote": "wow"}`` (one of ``commands.EMOTES``, rate limited); every
socket on the match gets ``{"type": "emote", "seat": n, "emote": "wow"}`` unless its person muted the sender.
``{"type": "mute", "seat": n, "muted": true}`` mutes (or unmutes) the person at seat n, at every table; the
socket answers, and says on connect, ``{"type": "mutes", "seats": [...]}`` (the seats muted here).

Chat, at a match whose chat is open to this seat's person (``reads.chat_people``: a private table's match, its
people, not bot accounts): on connect and on every resync the socket sends ``{"type": "chat_history",
"messages": [...]}`` (the newest ``reads.CHAT_HISTORY``, oldest first, each ``{"id", "seat", "name", "text",
"at"}``, muted people's left out); a seat sends ``{"type": "chat", "text": "..."}`` (``commands.clean_chat_text``;
rate limited by the ``chat`` scopes) and every reader's socket gets ``{"type": "chat", "message": {...}}`` once
it is stored, unless its person muted the author (the same mute as emotes); ``{"type": "report", "message": id,
"reason": "..."}`` reports another person's message for staff, answered ``{"type": "reported", "message": id}``.
Refusals are ``{"type": "error", "about": "chat" | "report", "code", "detail"}``.

The socket follows the account (``games.accounts.sockets``): it closes (code 4401) when its token is revoked,
its session logs out or the account is deactivated, and sends nothing after that.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError

import engine
from games import metrics, outbox, throttles
from games.accounts.sockets import FollowsAccount
from games.errors import GameError, MatchNotFound
from games.groups import match_group

from . import commands, presenters, reads, store
from .commands import presence_join, presence_leave, presence_renew
from .models import Match

log = logging.getLogger(__name__)

# The rate limits of a bid or card, the same as the REST action's (its route's scopes and ``api``).
ACTION_SCOPES = [*settings.RATE_LIMIT_ROUTES["api-match-actions"]["POST"], "api"]
CHAT_SCOPES = ["chat", "chat_sustained"]
REPORT_SCOPES = ["chat_report"]

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
PRESENCE_RENEW_SECONDS = 120.0
# Resyncs one socket may ask for within RESYNC_WINDOW seconds (each builds a view); more get an error.
RESYNC_LIMIT, RESYNC_WINDOW = 10, 10.0


class MatchConsumer(FollowsAccount, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    socket_kind = "match"
    match_id: int
    seat: int
    last_seq: int = -1
    resyncs: deque[float]
    # the match row and seats as last read, and the newest state this socket knows (its views' source)
    match: Match | None = None
    state: engine.MatchState | None = None
    present: bool = False
    presence_renewal: asyncio.Task[None] | None = None
    muted: frozenset[int] = frozenset()  # the people whose emotes this socket's person does not see
    people: dict[int, int]  # seat -> user id of the people at the match
    chat: bool = False  # this seat's person reads the match's chat

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
        await self.accept()
        # presence: while this page is open the person gets no email about this match (renewed while it is)
        await database_sync_to_async(presence_join)(user.pk, self.match_id, self.channel_name)
        self.present = True
        self.presence_renewal = asyncio.create_task(self._renew_presence())
        await self.send_view()
        self.people = await database_sync_to_async(_people_at)(self.match_id)
        self.muted = frozenset(await database_sync_to_async(reads.muted_by)(user.pk))
        if self.muted & set(self.people.values()):
            await self._send_mutes()
        await self._send_chat_history()

    async def _renew_presence(self) -> None:
        """Renew this socket's presence now and then, so beat's sweep forgets the presence of a socket whose
        process died without closing it (``PRESENCE_MAX_AGE``) and emails resume."""
        while True:
            await asyncio.sleep(PRESENCE_RENEW_SECONDS)
            try:
                await database_sync_to_async(presence_renew)(self.channel_name)
            except Exception:  # a database blip: the next renewal catches up
                log.warning("could not renew the presence of %s", self.channel_name, exc_info=True)

    async def disconnect(self, code: int) -> None:
        """Out of every group and no longer present, whatever fails on the way (a Redis that is away must
        not leave a presence row behind to silence the person's emails)."""
        renewal, self.presence_renewal = self.presence_renewal, None
        if renewal is not None:
            renewal.cancel()
        try:
            await self.leave_account()
        finally:
            if self.present:
                self.present = False
                await database_sync_to_async(presence_leave)(self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.shut:
            return
        kind = content.get("type", "action" if "seq" in content else None) if isinstance(content, dict) else None
        if kind == "resync":
            if not self._resync_allowed():
                await self.send_json({"type": "error", "code": "throttled",
                                      "detail": f"At most {RESYNC_LIMIT} resyncs per {RESYNC_WINDOW:g} seconds."})
                return
            await self.send_view(force=True)
            await self._send_chat_history()
        elif kind == "action":
            await self.act(content)
        elif kind == "emote":
            await self.emote(content.get("emote"))
        elif kind == "mute":
            await self.mute(content.get("seat"), content.get("muted", True))
        elif kind == "chat":
            await self.say(content.get("text"))
        elif kind == "report":
            await self.report(content.get("message"), content.get("reason", ""))
        else:
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
        messages = await database_sync_to_async(self._act, thread_sensitive=False)(content)
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
        user = self.scope["user"]
        refusal = throttles.check(_Caller(user, self.scope), ACTION_SCOPES)
        if refusal is not None:
            return [{"type": "error", "code": "throttled", "detail": f"Too many requests ({refusal.scope}).",
                     "retry_after": refusal.wait, "scope": refusal.scope}]
        payload = {key: content[key] for key in ("seq", "bid", "card") if key in content}
        try:
            match, state = commands.submit_action(user=user, match_id=self.match_id, payload=payload)
        except GameError as err:
            return [{"type": "error", "code": err.code, "detail": err.detail, **err.extra}]
        except (OperationalError, InterfaceError):
            log.warning("database unavailable for an action on match %s", self.match_id, exc_info=True)
            return [{"type": "error", "code": "unavailable", "detail": "The service is briefly unavailable; "
                                                                      "try again.", "retry_after": 1}]
        since = state.version - 1
        newest = store.newest(match)
        if newest is not None and newest.version > state.version:  # the bots answered in this process already
            match.refresh_from_db(fields=store.ROW_FIELDS)
            state = store.state_of(match)
        self.match, self.state = match, state
        view = presenters.match_view(match, self.seat, state)
        actions = [action.to_json() for action in state.actions[since:]]
        return [{"type": "accepted", "seq": since + 1},
                {"type": "match", "match": view, "since": since, "actions": actions}]

    async def emote(self, emote: object) -> None:
        """Show an emote beside my seat on every socket of the match (checked and counted first)."""
        user = self.scope["user"]
        try:
            checked = await database_sync_to_async(commands.check_emote)(user.pk, self.match_id, emote)
        except GameError as err:
            await self.send_json({"type": "error", "about": "emote", "code": err.code, "detail": err.detail,
                                  **err.extra})
            return
        await outbox.group_send_async(self.channel_layer, match_group(self.match_id), {
            "type": "match.emote", "seat": self.seat, "emote": checked, "user_id": user.pk})

    async def mute(self, seat: object, muted: object) -> None:
        user = self.scope["user"]
        try:
            other = await database_sync_to_async(commands.set_mute)(user.pk, self.match_id, seat, muted is not False)
        except GameError as err:
            await self.send_json({"type": "error", "about": "mute", "code": err.code, "detail": err.detail,
                                  **err.extra})
            return
        self.muted = self.muted - {other} if muted is False else self.muted | {other}
        await self._send_mutes()

    async def _send_mutes(self) -> None:
        seats = sorted(seat for seat, user_id in getattr(self, "people", {}).items() if user_id in self.muted)
        await self.send_json({"type": "mutes", "seats": seats})

    async def match_emote(self, event: dict[str, Any]) -> None:
        """Another seat's (or my own) emote: shown unless its person is muted here."""
        if self.shut or event.get("user_id") in self.muted:
            return
        await self.send_json({"type": "emote", "seat": event.get("seat"), "emote": event.get("emote")})

    async def _send_chat_history(self) -> None:
        """The chat's newest messages, when this person reads the match's chat (a reload shows them again)."""
        history = await database_sync_to_async(self._chat_history)()
        if history is not None and not self.shut:
            await self.send_json({"type": "chat_history", "messages": history})

    def _chat_history(self) -> list[dict[str, Any]] | None:
        match = self.match or store.load(self.match_id)  # the row the view was just built from, with its seats
        if match is None or not match.chat:
            return None
        seat = store.seats_of(match)[self.seat]
        self.chat = seat.user_id == self.scope["user"].pk and reads.chat_open_to(match, seat)
        return reads.recent_chat(match, self.scope["user"].pk) if self.chat else None

    async def say(self, text: object) -> None:
        """A chat message from this seat: counted against the ``chat`` limits, checked and stored; it reaches
        the readers' sockets once committed (``match_chat``)."""
        await self._social("chat", CHAT_SCOPES, commands.send_chat, text)

    async def report(self, message_id: object, reason: object) -> None:
        """Report another person's chat message for staff; answered ``{"type": "reported", "message": id}``."""
        report = await self._social("report", REPORT_SCOPES, commands.report_chat, message_id, reason)
        if report is not None:
            await self.send_json({"type": "reported", "message": message_id})

    async def _social(self, about: str, scopes: list[str], command: Any, *args: Any) -> Any:
        """Run a chat command for this socket's person after the rate limits; a refusal goes back as an error
        ``about`` it, and None is returned (nothing at all once the account's credential no longer holds)."""
        if not await self.credential_still_valid():
            await self.shut_down()
            return None
        user = self.scope["user"]

        def run() -> Any:
            refusal = throttles.check(_Caller(user, self.scope), scopes)
            if refusal is not None:
                what = "chat messages" if about == "chat" else "reports"
                raise GameError("throttled", f"Too many {what}: wait {refusal.wait} s.",
                                retry_after=refusal.wait, scope=refusal.scope)
            return command(user.pk, self.match_id, *args)

        try:
            return await database_sync_to_async(run)()
        except GameError as err:
            await self.send_json({"type": "error", "about": about, "code": err.code, "detail": err.detail,
                                  **err.extra})
            return None

    async def match_chat(self, event: dict[str, Any]) -> None:
        """A committed chat message: passed on when this person reads the chat and has not muted its author."""
        if self.shut or not self.chat or event.get("user_id") in self.muted:
            return
        await self.send_json({"type": "chat", "message": event.get("message")})

    def _resync_allowed(self) -> bool:
        now = time.monotonic()
        if not hasattr(self, "resyncs"):
            self.resyncs = deque()
        while self.resyncs and self.resyncs[0] <= now - RESYNC_WINDOW:
            self.resyncs.popleft()
        if len(self.resyncs) >= RESYNC_LIMIT:
            return False
        self.resyncs.append(now)
        return True

    async def match_updated(self, event: dict[str, Any]) -> None:
        """New actions. A socket that holds the state they follow applies them (the bids and cards played,
        public to every seat) and sends its seat's view without reading the database; one that does not
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
        view = self._view_from_event(event)
        if view is None:
            await self.send_view(event=event)
        elif view["seq"] > self.last_seq:
            self.last_seq = view["seq"]
            await self.send_json({"type": "match", "match": view, **_carried(event, view["seq"])})

    def _view_from_event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The view after the event's actions, from this socket's state; None when a read is needed."""
        match, state = self.match, self.state
        since, actions, seq = event.get("since"), event.get("actions"), event["seq"]
        if (match is None or state is None or not isinstance(since, int) or not isinstance(actions, list)
                or not since <= state.version < seq or since + len(actions) != seq):
            return None
        try:
            for data in actions[state.version - since:]:
                state = engine.apply(state, engine.action_from_json(data))
            deadline = event.get("deadline")
            match.deadline = datetime.fromisoformat(deadline) if isinstance(deadline, str) else None
        except (engine.EngineError, TypeError, ValueError, KeyError):
            return None
        if state.is_finished:  # the end screen reads the row (finished_at, the rating): read it all
            return None
        match.seq, match.turn = state.version, state.turn
        self.state = state
        store.remember(match.pk, match.bot_seed, state)  # committed actions: other sockets of this process start here
        return presenters.match_view(match, self.seat, state)

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_view(force=True)

    async def send_view(self, force: bool = False, event: dict[str, Any] | None = None) -> None:
        """Send the seat's newest view, read from the database, if it is newer than the last one sent (or
        ``force``), with ``event``'s actions if they lead to it; nothing once the socket is shut or its
        credential no longer holds (re-checked now and then)."""
        if self.shut:
            return
        if not await self.credential_still_valid():
            await self.shut_down()
            return
        view = await database_sync_to_async(self._view, thread_sensitive=False)()
        if self.shut:  # closed while the view was being built
            return
        if view is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if force or view["seq"] > self.last_seq:
            self.last_seq = view["seq"]
            await self.send_json({"type": "match", "match": view, **(_carried(event, view["seq"]) if event else {})})

    def _view(self) -> dict[str, Any] | None:
        """None when the match is gone or the seat is no longer the user's: close then (a deactivated
        account closes the socket through ``FollowsAccount``). Keeps the match and its state, from which
        the next actions' views are built."""
        match = store.load(self.match_id)
        if match is None or store.seats_of(match)[self.seat].user_id != self.scope["user"].pk:
            return None
        state = store.state_of(match)
        self.match, self.state = match, state
        return presenters.match_view(match, self.seat, state)


def _people_at(match_id: int) -> dict[int, int]:
    match = store.load(match_id)
    if match is None:
        return {}
    return {s.index: s.user_id for s in store.seats_of(match) if s.user_id is not None}


def _carried(event: dict[str, Any], seq: int) -> dict[str, Any]:
    """``since`` and ``actions`` of a group event when they lead to ``seq`` (the view sent), else nothing."""
    since, actions = event.get("since"), event.get("actions")
    if isinstance(since, int) and isinstance(actions, list) and since + len(actions) == seq:
        return {"since": since, "actions": actions}
    return {}


class _Caller:
    """What the rate limits read of a request (``throttles.check``), for a socket's person."""

    def __init__(self, user: Any, scope: dict[str, Any]) -> None:
        self.user = user
        client = scope.get("client") or ("", 0)
        self.META = {"REMOTE_ADDR": client[0]}
