"""A small bot server speaking the Bhoos 2022 Callbreak protocol, for the tests: ``GET /hi`` answers
``{"value": "hello"}``, ``POST /bid`` and ``POST /play`` answer ``{"value": ...}`` with random legal values
(legality by the engine's rules, from the request alone: my cards, the trick so far, whether a trick of this deal
was finished); ``illegal`` answers that many plays with a card not in the hand.

Every request is held to the shapes of Bhoos's 2022 starter code (Bhoos/callbreak-tournament-starter-code,
python_docker/src/app.py and card.py, parsers/stateToApiParser.js) by ``check_request``: the fields and their
types, cards as the starter's ``Card`` parser reads them; a mismatch is a 500 and lands in ``errors``."""

from __future__ import annotations

import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from engine.rules import legal_plays

RANKS = "23456789TJQK1"  # the starter's card.py: ten "T", ace "1"
SUITS = "HCDS"
BID_FIELDS = {"playerId", "playerIds", "cards", "context"}
PLAY_FIELDS = BID_FIELDS | {"timeBudget", "played", "history"}


def _site(card: str) -> str:
    return "A" + card[1] if card[0] == "1" else card


def _bhoos(card: str) -> str:
    return "1" + card[1] if card[0] == "A" else card


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _card(card: Any) -> str:
    assert isinstance(card, str) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS, card
    return card


def check_request(path: str, body: Any) -> None:
    """The request as the 2022 starter code reads it (raises ``AssertionError`` otherwise)."""
    assert isinstance(body, dict)
    assert set(body) == (BID_FIELDS if path == "/bid" else PLAY_FIELDS), sorted(body)
    ids = body["playerIds"]
    assert isinstance(ids, list) and len(ids) == 4 and len(set(ids)) == 4 and all(isinstance(i, str) for i in ids)
    assert body["playerId"] in ids
    cards = [_card(c) for c in body["cards"]]
    assert len(cards) == len(set(cards)) and 1 <= len(cards) <= 13
    context = body["context"]
    assert set(context) == {"round", "players"} and _is_int(context["round"]) and 1 <= context["round"] <= 5
    assert set(context["players"]) == set(ids)
    for player in context["players"].values():
        assert set(player) == {"totalPoints", "bid", "won"}, player
        assert isinstance(player["totalPoints"], (int, float)) and not isinstance(player["totalPoints"], bool)
        assert _is_int(player["bid"]) and 0 <= player["bid"] <= 13
        assert _is_int(player["won"]) and 0 <= player["won"] <= 13
    if path == "/bid":
        assert len(cards) == 13 and all(p["won"] == 0 for p in context["players"].values())
        return
    assert _is_int(body["timeBudget"]) and body["timeBudget"] >= 0
    played = [_card(c) for c in body["played"]]
    assert len(played) <= 3
    seen = set(cards) | set(played)
    for trick in body["history"]:
        assert isinstance(trick, list) and len(trick) == 3
        start, trick_cards, winner = trick
        assert _is_int(start) and 0 <= start < 4 and _is_int(winner) and 0 <= winner < 4
        assert len(trick_cards) == 4
        seen |= {_card(c) for c in trick_cards}
    # 13 tricks of 4 cards: my hand, the trick in play and the finished ones never repeat a card
    assert len(seen) == len(cards) + len(played) + 4 * len(body["history"])
    assert len(cards) + len(body["history"]) == 13
    won = sum(p["won"] for p in context["players"].values())
    assert won == len(body["history"])


class BhoosServer:
    def __init__(self, illegal: int = 0, seed: int = 7) -> None:
        self.illegal = illegal
        self.rng = random.Random(seed)
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.errors: list[str] = []
        self.greeted = 0
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _send(self, status: int, payload: dict[str, Any] | None) -> None:
                data = json.dumps(payload).encode() if payload is not None else b""
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path != "/hi":
                    self._send(404, {"error": "Unknown request"})
                    return
                with owner.lock:
                    owner.greeted += 1
                self._send(200, {"value": "hello"})

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                try:
                    value = owner.answer(self.path, body)
                except Exception as err:  # the test reads these
                    owner.errors.append(repr(err))
                    self._send(500, None)
                    return
                self._send(200, {"value": value})

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def answer(self, path: str, body: dict[str, Any]) -> Any:
        with self.lock:
            self.requests.append((path, body))
            assert path in ("/bid", "/play"), path
            check_request(path, body)
            if path == "/bid":
                return self.rng.randint(1, 8)  # the starter's bot bids 1..8
            hand = [_site(c) for c in body["cards"]]
            legal = legal_plays(hand, [_site(c) for c in body["played"]], not body["history"])
            if self.illegal > 0:
                self.illegal -= 1
                return "1X"  # no such card
            return _bhoos(self.rng.choice(legal))

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
