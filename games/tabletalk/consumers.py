"""Table talk's part of the match socket (``/ws/matches/{id}/``), built on the match's part
(``games.matches.consumers``) and composed with it in ``games.routing``.

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
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games.matches import reads as match_reads
from games.matches.consumers import MatchConsumer
from games.platform import outbox, ratelimit
from games.platform.errors import GameError
from games.platform.groups import match_group

from . import commands, reads

CHAT_SCOPES = ["chat", "chat_sustained"]
REPORT_SCOPES = ["chat_report"]


class TableTalkSocket(MatchConsumer):
    """Emotes, mutes and chat on the match socket: the mutes and the chat's history once the first view is sent
    (the history again on every resync), the person's emotes, mutes, messages and reports, and the others'
    emotes and messages unless muted."""

    muted: frozenset[int] = frozenset()  # the people whose emotes and messages this socket's person does not see
    people: dict[int, int]  # seat -> user id of the people at the match
    chat: bool = False  # this seat's person reads the match's chat

    async def opened(self) -> None:
        await super().opened()
        self.people = await database_sync_to_async(reads.people_at)(self.match_id)
        self.muted = frozenset(await database_sync_to_async(reads.muted_by)(self.scope["user"].pk))
        if self.muted & set(self.people.values()):
            await self._send_mutes()
        await self._send_chat_history()

    async def resent(self) -> None:
        await super().resent()
        await self._send_chat_history()

    async def received(self, kind: str | None, content: Any) -> bool:
        if kind == "emote":
            await self.emote(content.get("emote"))
        elif kind == "mute":
            await self.mute(content.get("seat"), content.get("muted", True))
        elif kind == "chat":
            await self.say(content.get("text"))
        elif kind == "report":
            await self.report(content.get("message"), content.get("reason", ""))
        else:
            return await super().received(kind, content)
        return True

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
        # the row the view was just built from, with its seats
        match = self.seat_view.match or match_reads.match_with_seats(self.match_id)
        if match is None or not match.chat:
            return None
        user_id = self.scope["user"].pk
        self.chat = reads.reads_chat(match, self.seat, user_id)
        return reads.recent_chat(match, user_id) if self.chat else None

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
        user_id = self.scope["user"].pk

        def run() -> Any:
            refusal = ratelimit.check(self.limited_as, scopes)
            if refusal is not None:
                what = "chat messages" if about == "chat" else "reports"
                raise GameError("throttled", f"Too many {what}: wait {refusal.wait} s.",
                                retry_after=refusal.wait, scope=refusal.scope)
            return command(user_id, self.match_id, *args)

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
