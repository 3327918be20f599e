"""A match against three bots with no server: what the installed app runs in a Web Worker under Pyodide.

The same rules, deals and bots as the server, so the replay it exports is one the server's verifier
accepts (``verify_replay``): the seed is drawn by the page, its commitment shown from the start and the
seed only once the match is over, exactly as the site does. The views it answers have the site's shape
(``games.matches.presenters.match_view``: the engine's player view plus ``seq``, ``status``, ``seats``...),
so the table's modules draw them unchanged.

The worker speaks JSON strings through :func:`handle`, one match at a time::

    >>> answer = json.loads(handle(json.dumps({"op": "start", "seed": "solo-doc", "level": "easy"})))
    >>> answer["match"]["seq"] == len(answer["actions"]), answer["match"]["your_turn"]
    (True, True)
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from . import bots
from .deal import check_seed
from .errors import EngineError
from .match import Action, MatchState, action_from_json, new_match
from .replays import export_replay
from .views import player_view

#: The levels offered offline: each decides a card well within the worker's budget (docs/performance.md).
OFFLINE_LEVELS: tuple[str, ...] = ("easy", "normal")
DEFAULT_NAMES: tuple[str, ...] = ("Bot Ganesh", "Bot Lakshmi", "Bot Hari", "Bot Sita")
SAVE_FORMAT = "callbreak-solo/1"


class SoloMatch:
    """The human at ``seat`` against three bots of ``level``; the log alone is the match (see :meth:`save`)."""

    def __init__(self, seed: str, *, level: str = "normal", bot_seed: str = "", seat: int = 0, name: str = "You",
                 match_id: str = "", bot_names: Sequence[str] = DEFAULT_NAMES,
                 actions: Sequence[Mapping[str, Any]] = ()) -> None:
        if level not in OFFLINE_LEVELS:
            raise EngineError(f"offline bots are {', '.join(OFFLINE_LEVELS)}, not {level!r}", "unknown_bot")
        if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
            raise EngineError(f"a seat is 0..3, not {seat!r}", "bad_seat")
        self.seed = check_seed(seed)
        self.level = level
        self.bot_seed = bot_seed or seed  # the bots' randomness; it decides nothing the verifier checks
        self.seat = seat
        self.name = str(name)[:40] or "You"
        self.match_id = str(match_id)
        self.bot_names = [str(n) for n in bot_names] or list(DEFAULT_NAMES)
        self.state: MatchState = new_match(seed)
        self.bot_ms: list[float] = []  # each bot decision of the last act/play_bots, in ms (docs/performance.md)
        for action in actions:
            self.state._apply(action_from_json(action))

    # --- playing ----------------------------------------------------------------------------------
    def act(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The human's ``{"seq", "bid"|"card"}``, then the bots up to the human's next turn: one message as the
        match socket sends it (``since``, ``actions``, ``match``). A stale seq or an illegal move changes nothing."""
        seq = payload.get("seq")
        if seq != self.state.version:
            raise EngineError(f"The match is at seq {self.state.version}, not {seq}.", "stale_seq")
        fields = {k: payload[k] for k in ("bid", "card") if k in payload}
        since = self.state.version
        moved = self.state.copy()  # an illegal move leaves the match as it was
        moved._apply(action_from_json({"seat": self.seat, **fields}))
        self.state = moved
        self._bots()
        return self.message(since)

    def play_bots(self) -> dict[str, Any]:
        """The bots' moves due now (a match whose first bid is a bot's), as one message."""
        since = self.state.version
        self._bots()
        return self.message(since)

    def _bots(self) -> None:
        self.bot_ms = []
        while not self.state.is_finished and self.state.turn != self.seat:
            started = time.perf_counter()
            action = self.decide()
            self.bot_ms.append(round((time.perf_counter() - started) * 1000, 3))
            self.state._apply(action)

    def decide(self) -> Action:
        """The bot to move decides from its own seat's view, seeded as on the server (seed, seq, seat)."""
        turn = self.state.turn
        assert turn is not None
        return bots.decide(self.level, player_view(self.state, turn), self.bot_seed)

    # --- what is shown ----------------------------------------------------------------------------
    def players(self) -> list[dict[str, Any]]:
        names = iter(self.bot_names * 4)
        return [
            {"seat": s, "name": self.name, "kind": "human", "bot": None} if s == self.seat
            else {"seat": s, "name": next(names), "kind": "bot", "bot": self.level}
            for s in range(4)
        ]

    def view(self) -> dict[str, Any]:
        """The human seat's player view with the site's fields, as ``match_view`` builds it."""
        state = self.state
        data: dict[str, Any] = player_view(state, self.seat).to_json()
        data.update({
            "id": self.match_id,
            "seq": state.version,
            "status": "finished" if state.is_finished else "active",
            "your_turn": state.turn == self.seat,
            "seats": [{**p, "autopilot": False, "bot_account": False, "bank_seconds": 0, "you": p["seat"] == self.seat}
                      for p in self.players()],
            "created_at": None,
            "finished_at": None,
            "move_seconds": None,
            "deadline": None,
            "seconds_left": None,
            "rated": False,
            "table_id": None,
            "rematch_table_id": None,
            "rating": None,
            "offline": True,
        })
        return data

    def message(self, since: int) -> dict[str, Any]:
        return {"type": "match", "since": since, "actions": [a.to_json() for a in self.state.actions[since:]],
                "match": self.view(), "bot_ms": self.bot_ms}

    def export(self) -> dict[str, Any]:
        """The ``callbreak-replay/1`` document of the finished match (what is uploaded)."""
        return export_replay(self.state, self.players(), self.match_id)

    def save(self) -> dict[str, Any]:
        """Everything needed to resume: the seed, the settings and the log (kept in IndexedDB)."""
        return {"format": SAVE_FORMAT, "seed": self.seed, "level": self.level, "bot_seed": self.bot_seed,
                "seat": self.seat, "name": self.name, "match_id": self.match_id, "bot_names": self.bot_names,
                "actions": [a.to_json() for a in self.state.actions]}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> SoloMatch:
        if data.get("format") != SAVE_FORMAT:
            raise EngineError(f"a saved match is {SAVE_FORMAT!r}", "bad_save")
        return cls(data["seed"], level=data.get("level", "normal"), bot_seed=data.get("bot_seed", ""),
                   seat=data.get("seat", 0), name=data.get("name", "You"), match_id=data.get("match_id", ""),
                   bot_names=data.get("bot_names", DEFAULT_NAMES), actions=data.get("actions", ()))


# --- the worker's one entry point ------------------------------------------------------------------------
_current: SoloMatch | None = None


def handle(request: str) -> str:
    """One JSON request of the worker, one JSON answer: ``start``, ``resume``, ``act``, ``view``, ``save``,
    ``export``. Every answer to a change carries ``save`` (what the page keeps) next to the message; a refusal
    is ``{"error": {"code", "detail"}}`` and changes nothing."""
    global _current
    try:
        req = json.loads(request)
        op = req.get("op")
        if op == "start":
            _current = SoloMatch(req["seed"], level=req.get("level", "normal"), bot_seed=req.get("bot_seed", ""),
                                 seat=req.get("seat", 0), name=req.get("name", "You"),
                                 match_id=req.get("match_id", ""), bot_names=req.get("bot_names", DEFAULT_NAMES))
            answer = _current.play_bots()
        elif op == "resume":
            _current = SoloMatch.load(req["save"])
            answer = _current.play_bots()
        elif _current is None:
            raise EngineError("no match is open: start or resume one", "no_match")
        elif op == "act":
            answer = _current.act(req)
        elif op == "view":
            _current.bot_ms = []
            answer = _current.message(_current.state.version)
        elif op == "export":
            return json.dumps({"replay": _current.export()})
        else:
            raise EngineError(f"unknown request {op!r}", "bad_request")
        answer["save"] = _current.save()
        if _current.state.is_finished:
            answer["replay"] = _current.export()
        return json.dumps(answer)
    except EngineError as err:
        return json.dumps({"error": {"code": err.code, "detail": str(err)}})
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        return json.dumps({"error": {"code": "bad_request", "detail": str(err)}})


__all__ = ["DEFAULT_NAMES", "OFFLINE_LEVELS", "SAVE_FORMAT", "SoloMatch", "handle"]
