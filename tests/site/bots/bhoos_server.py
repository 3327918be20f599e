"""A small bot server speaking the Bhoos 2022 Callbreak protocol, for the tests: ``POST /bid`` and ``POST /play``
answer random legal values (legality by the engine's rules, from the request alone: my cards, the trick so far,
whether a trick of this deal was finished); ``illegal`` answers that many plays with a card not in the hand."""

from __future__ import annotations

import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from engine.rules import legal_plays


def _site(card: str) -> str:
    return "A" + card[1] if card[0] == "1" else card


def _bhoos(card: str) -> str:
    return "1" + card[1] if card[0] == "A" else card


class BhoosServer:
    def __init__(self, illegal: int = 0, seed: int = 7) -> None:
        self.illegal = illegal
        self.rng = random.Random(seed)
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.errors: list[str] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                try:
                    value = owner.answer(self.path, body)
                except Exception as err:  # the test reads these
                    owner.errors.append(repr(err))
                    self.send_response(500)
                    self.end_headers()
                    return
                data = json.dumps({"value": value}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def answer(self, path: str, body: dict[str, Any]) -> Any:
        with self.lock:
            self.requests.append((path, body))
            assert body["playerId"] in body["playerIds"] and len(body["playerIds"]) == 4
            assert len(body["cards"]) == len(set(body["cards"]))
            assert set(body["context"]["players"]) == set(body["playerIds"])
            if path == "/bid":
                assert len(body["cards"]) == 13
                return self.rng.randint(1, 8)
            assert path == "/play", path
            for start, cards, winner in body["history"]:
                assert 0 <= start < 4 and 0 <= winner < 4 and len(cards) == 4
            hand = [_site(c) for c in body["cards"]]
            legal = legal_plays(hand, [_site(c) for c in body["played"]], not body["history"])
            if self.illegal > 0:
                self.illegal -= 1
                return "1X"  # no such card
            return _bhoos(self.rng.choice(legal))

    def close(self) -> None:
        self.httpd.shutdown()
