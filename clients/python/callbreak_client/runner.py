"""The bot's loop: read events, answer each ``your_turn`` with the player's action, accept invitations, count
finished matches; reconnect after any drop, resuming after the last event id seen (nothing is missed: events are
stored by the site; a turn is also checked against the match's view, so an event seen twice acts once).

On the bot ladder (``ladder``) it also keeps one seek in the bots' quick-match pool: a new one when it starts and
once the match its seek led to is over, until ``matches`` are over; it looks at a waiting seek again at each
heart-beat (a seek refused at the bot's cap is asked again then).

In an arena (``arena``: its id) it joins once; the arena seats it whenever it is free, and it plays those matches as
any other, until the arena is finished (looked at each heart-beat) or ``matches`` are over."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx

from .players import Player, legal_or_substitute
from .site import EVENT_TYPES, Site, SiteError

log = logging.getLogger("callbreak_client")


class Runner:
    def __init__(self, site: Site, player: Player, *, matches: int = 0, accept: bool = True,
                 transport: str = "stream", ladder: bool = False, pace: str = "live",
                 arena: int | None = None) -> None:
        self.site = site
        self.player = player
        self.matches_wanted = matches
        self.accept = accept
        self.transport = transport
        self.last_id: int | None = None
        self.finished: set[int] = set()
        self.actions = 0
        self.reconnects = 0
        self.ladder = ladder
        self.pace = pace
        self.seek_id: int | None = None
        self.seeks = 0
        self.arena = arena
        self.arena_joined = False
        self.arena_over = False

    @property
    def done(self) -> bool:
        return self.arena_over or (bool(self.matches_wanted) and len(self.finished) >= self.matches_wanted)

    @property
    def polls(self) -> bool:
        """Whether quiet moments are used to look at the site (a seek, an arena)."""
        return self.ladder or self.arena is not None

    # --- answering --------------------------------------------------------------------------------------

    def play_turn(self, match_id: int) -> None:
        """Act while it is my turn in ``match_id`` (a stale event, or a turn already answered, does nothing)."""
        for _ in range(3):
            view = self.site.view(match_id)
            if not view["your_turn"] or view["status"] != "active":
                return
            action = legal_or_substitute(view, self._decide(view), self.player.name)
            try:
                self.site.act(match_id, view["seq"], action)
            except SiteError as err:
                if err.code == "stale_seq":
                    continue  # the match moved on (the autopilot, or a duplicate event): look again
                if err.status == 429:
                    time.sleep(float(err.body.get("retry_after", 1)))
                    continue
                log.error("action %s refused in match %s: %s", action, match_id, err)
                return
            self.actions += 1
            log.info("match %s seq %s: %s", match_id, view["seq"], json.dumps(action))
            return

    def _decide(self, view: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return self.player.decide(view)
        except Exception:  # a bot's bug: a legal action is substituted
            log.exception("%s failed in match %s", self.player.name, view.get("id"))
            return None

    # --- the ladder -------------------------------------------------------------------------------------

    def seek_if_idle(self) -> None:
        """On the ladder: seek in the bots' pool unless a seek of mine is waiting, or its match is still going."""
        if not self.ladder or self.done:
            return
        if self.seek_id is not None:
            seek = self.site.get_seek(self.seek_id)
            if seek["status"] == "waiting" or (seek["status"] == "matched" and seek["match_id"] not in self.finished):
                return
        try:
            seek = self.site.seek(self.pace)
        except SiteError as err:
            if err.code == "already_seeking":  # left waiting by an earlier run
                self.seek_id = int(err.body["id"])
            elif err.code == "too_many_matches" or err.status == 429:
                log.info("not seeking now (%s); asking again at the next heart-beat", err.code)
            else:
                raise
            return
        self.seek_id, self.seeks = int(seek["id"]), self.seeks + 1
        log.info("seeking a ladder match (seek %s: %s)", seek["id"], seek["status"])

    # --- an arena ---------------------------------------------------------------------------------------

    def arena_check(self) -> None:
        """In an arena: join it once (again after a pause), and stop once it is finished."""
        if self.arena is None or self.done:
            return
        if not self.arena_joined:
            try:
                data = self.site.join_arena(self.arena)
            except SiteError as err:
                if err.code in ("tournament_over", "withdrawn"):
                    log.info("arena %s: %s", self.arena, err.code)
                    self.arena_over = True
                    return
                if err.status == 429:
                    return
                raise
            self.arena_joined = True
            log.info("joined arena %s (%s, %s)", self.arena, data["name"], data["phase"])
            return
        data = self.site.arena(self.arena)
        me = data.get("me") or {}
        if data["phase"] == "finished":
            self.arena_over = True
            log.info("arena %s is finished: %s points in %s matches", self.arena, me.get("points_text"),
                     me.get("matches"))
        elif me.get("status") == "paused":
            self.arena_joined = False

    # --- events -----------------------------------------------------------------------------------------

    def handle(self, event: dict[str, Any]) -> None:
        """Answer one event; its id counts as seen only once answered, so an answer lost with the connection is
        asked for again after the reconnect (the stream resumes after the last id seen)."""
        kind = event.get("type")
        if kind in ("hello", "heartbeat"):
            if self.last_id is None:
                self.last_id = int(event.get("last_id", 0))
            self.seek_if_idle()
            self.arena_check()
        if kind == "your_turn":
            self.play_turn(int(event["match_id"]))
        elif kind == "invited" and self.accept:
            try:
                self.site.answer_invitation(int(event["table_id"]), True)
                log.info("accepted the invitation to table %s", event["table_id"])
            except SiteError as err:
                log.warning("could not accept table %s: %s", event["table_id"], err)
        elif kind == "match_over":
            self.finished.add(int(event["match_id"]))
            log.info("match %s is over (%d finished)", event["match_id"], len(self.finished))
            self.seek_if_idle()
            self.arena_check()
        if "id" in event and kind in EVENT_TYPES:
            self.last_id = max(self.last_id or 0, int(event["id"]))

    # --- the loop ---------------------------------------------------------------------------------------

    def run(self) -> int:
        delay = 0.5
        first = True
        while not self.done:
            try:
                for event in self._events(first):
                    first = False
                    self.handle(event)
                    delay = 0.5
                    if self.done:
                        break
            except SiteError as err:
                if err.status in (401, 403):
                    log.error("%s", err)
                    return 2
                log.warning("%s; reconnecting", err)
            # ValueError: a line cut short by the connection's end
            except (httpx.HTTPError, OSError, ConnectionError, TimeoutError, ValueError) as err:
                log.warning("connection lost (%s); reconnecting after event %s", type(err).__name__, self.last_id)
            except Exception as err:  # websockets' closures and the like
                if type(err).__module__.startswith("websockets"):
                    log.warning("socket closed (%s); reconnecting after event %s", err, self.last_id)
                else:
                    raise
            if self.done:
                break
            self.reconnects += 1
            time.sleep(delay)
            delay = min(delay * 2, 5.0)
        log.info("done: %d matches finished, %d actions, %d reconnects%s", len(self.finished), self.actions,
                 self.reconnects, f", {self.seeks} ladder seeks" if self.ladder else "")
        return 0

    def _events(self, first: bool) -> Iterator[dict[str, Any]]:
        if self.transport == "socket":
            yield from self._socket_events(first)
            return
        if not first:
            log.info("stream reconnecting after event %s", self.last_id)
        # the first time without ``since``: the site sends what still awaits an answer (turns, invitations)
        yield from self.site.stream(self.last_id)

    def _socket_events(self, first: bool) -> Iterator[dict[str, Any]]:
        """The account socket (``/ws/me/``); after each (re)connect, the events stored meanwhile are read first."""
        from websockets.sync.client import connect

        with connect(self.site.socket_url(), open_timeout=10, close_timeout=2) as sock:
            if not first:
                log.info("socket reconnected after event %s", self.last_id)
            newest, stored = self.site.stored_events(self.last_id)  # None at first: what awaits an answer
            self.last_id = max(self.last_id or 0, newest)
            self.seek_if_idle()
            self.arena_check()
            yield from stored
            while True:
                try:  # on the ladder or in an arena, a look after 15 quiet seconds stands in for the heart-beat
                    raw = sock.recv(timeout=15 if self.polls else 60 * 60)
                except TimeoutError:
                    if not self.polls:
                        raise
                    self.seek_if_idle()
                    self.arena_check()
                    if self.done:
                        return
                    continue
                message = json.loads(raw)
                if message.get("type") in EVENT_TYPES and int(message.get("id", 0)) > (self.last_id or 0):
                    yield message
