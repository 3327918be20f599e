"""Who decides: a player takes the site's view of my seat (``GET /api/matches/{id}/``) and answers ``{"bid": n}``
or ``{"card": "QH"}``.

- ``EnginePlayer``: one of the site engine's bots (``heuristic``, ``strong``, ``normal`` ...), from the
  repository's ``engine`` package when it is installed beside this client (nothing is copied here).
- ``BhoosPlayer``: a bot server speaking the Bhoos 2022 Callbreak protocol (``POST /bid``, ``POST /play``).

Whatever a player answers, ``legal_or_substitute`` checks it against the view's ``legal`` list; an illegal or
missing answer is replaced by a legal one and logged, so a faulty bot never stalls the table.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

import httpx

log = logging.getLogger("callbreak_client")


class Player(Protocol):
    name: str

    def decide(self, view: dict[str, Any]) -> dict[str, Any]:
        """``{"bid": n}`` while bidding, ``{"card": "QH"}`` while playing."""


def fallback(view: dict[str, Any]) -> dict[str, Any]:
    """A legal action: the lowest legal bid, or the first legal card (the view lists them in display order)."""
    legal = view["legal"]
    if view["phase"] == "bidding":
        return {"bid": min(legal)}
    return {"card": legal[-1]}


def legal_or_substitute(view: dict[str, Any], action: dict[str, Any] | None, who: str) -> dict[str, Any]:
    legal = view["legal"]
    key = "bid" if view["phase"] == "bidding" else "card"
    value = (action or {}).get(key)
    if isinstance(value, str):
        value = value.strip().upper()
    if value in legal and not isinstance(value, bool):
        return {key: value}
    substitute = fallback(view)
    log.warning("illegal answer from %s in match %s at seq %s: %r (legal: %s); playing %r instead", who,
                view.get("id"), view.get("seq"), action, legal, substitute[key])
    return substitute


# --- the engine's bots ------------------------------------------------------------------------------------

class EnginePlayer:
    """One of the engine's bots, deciding from the view the site sent (rebuilt as the engine's ``PlayerView``)."""

    def __init__(self, level: str, seed: str = "client") -> None:
        try:
            import engine.bots  # noqa: F401 - the repository's engine, installed beside this client
        except ImportError as err:
            raise SystemExit("--bot needs the site's `engine` package importable (install the repository beside "
                             "this client, or run from its virtualenv); --bhoos needs nothing more.") from err
        from engine.bots import BOT_NAMES

        if level not in BOT_NAMES:
            raise SystemExit(f"unknown bot {level!r}; choose one of: {', '.join(BOT_NAMES)}")
        self.name = level
        self.seed = seed

    def decide(self, view: dict[str, Any]) -> dict[str, Any]:
        import engine.bots

        action = engine.bots.decide(self.name, view_from_json(view), f"{self.seed}:{view['id']}")
        data = action.to_json()
        data.pop("seat", None)
        return data


def view_from_json(v: dict[str, Any]) -> Any:
    """The engine's ``PlayerView`` of the site's view JSON (what a bot reads; finished deals carry their totals
    only, as the site sends no more of them)."""
    from engine.cards import cards_to_mask, parse_card
    from engine.match import DealRecord, Phase, Trick
    from engine.views import PlayerView

    def trick(t: dict[str, Any]) -> Trick:
        return Trick(t["leader"], tuple(parse_card(p["card"]) for p in t["plays"]), t["winner"])

    phase = Phase(v["phase"])
    bidding, playing = phase == Phase.BIDDING, phase == Phase.PLAYING
    return PlayerView(
        seat=v["seat"], version=v["version"], phase=phase, deal_number=v["deal_number"], dealer=v["dealer"],
        turn=v["turn"], hand=cards_to_mask(v["hand"]), hand_counts=tuple(v["hand_counts"]), bids=tuple(v["bids"]),
        tricks_won=tuple(v["tricks_won"]), trick_leader=v["trick"]["leader"] if v["trick"]["leader"] is not None
        else 0, trick=tuple(parse_card(p["card"]) for p in v["trick"]["plays"]),
        tricks=tuple(trick(t) for t in v["tricks"]),
        last_trick=trick(v["last_trick"]) if v.get("last_trick") else None,
        deals=tuple(DealRecord(d["number"], d["dealer"], (), tuple(d["bids"]), (), tuple(d["tricks_won"]),
                               tuple(d["scores"]), tuple(d["totals"])) for d in v["deals"]),
        totals=tuple(v["totals"]), winners=tuple(v["winners"]), seed_commitment=v["seed_commitment"],
        seed=v.get("seed"), legal_bids=tuple(v["legal"]) if bidding else (),
        legal_cards=cards_to_mask(v["legal"]) if playing else 0,
        locked={parse_card(card): reason for card, reason in v.get("locked", {}).items()},
    )


# --- the Bhoos 2022 protocol --------------------------------------------------------------------------------
# Checked against Bhoos's own 2022 starter code (github Bhoos/callbreak-tournament-starter-code:
# python_docker/src/app.py, python_docker/src/card.py, node_docker/src/index.js, parsers/stateToApiParser.js):
# ``GET /hi`` answers ``{"value": "hello"}`` (the contest polled it until the bot was ready); ``POST /bid`` gets
# ``playerId``, ``playerIds``, ``cards``, ``context`` and answers ``{"value": <int>}``; ``POST /play`` gets the same
# plus ``timeBudget`` (ms), ``played`` and ``history`` and answers ``{"value": "<card>"}``. Cards are rank then
# suit, ranks ``2``-``9``, ``T``, ``J``, ``Q``, ``K`` and ``1`` for the ace, suits ``S H C D``.

RANKS = "23456789TJQK1"
SUITS = "SHCD"


def to_bhoos(card: str) -> str:
    """The site's ``AS``/``TS``/``9H`` as the contest wrote cards: the ace is ``1`` (``1S``), the rest alike."""
    return ("1" + card[1]) if card[0] == "A" else card


def from_bhoos(card: object) -> object:
    """A bot's card back in the site's notation: ``1S`` -> ``AS``. A later contest's ``1S/0`` (a deck index
    after the slash) is read as ``1S``; anything else is left as sent, for the legality check to refuse."""
    if not isinstance(card, str):
        return card
    text = card.strip().upper().split("/", 1)[0]
    if len(text) == 2 and text[0] in RANKS and text[1] in SUITS:
        return ("A" + text[1]) if text[0] == "1" else text
    return card


def player_ids(view: dict[str, Any]) -> list[str]:
    """Stable ids for the four seats (``P0`` … ``P3``), in the site's seat order (the order of play, which the
    contest calls clockwise: ``history``'s start and winner are indices into this list)."""
    return [f"P{seat}" for seat in range(4)]


def points(tenths: int) -> int | float:
    """A total in tenths as the contest wrote ``totalPoints``: ``41`` -> ``4.1``, ``0`` -> ``0``."""
    return tenths // 10 if tenths % 10 == 0 else round(tenths / 10, 1)


def time_budget(view: dict[str, Any], timeout: float) -> int:
    """``timeBudget``: the milliseconds the bot may think, the bridge's own timeout or less when the site's turn
    ends sooner (``seconds_left``, clock and bank), keeping a second for the way back."""
    budget = int(timeout * 1000)
    left = view.get("seconds_left")
    if isinstance(left, int) and not isinstance(left, bool):
        budget = min(budget, max(0, (left - 1) * 1000))
    return budget


def bhoos_body(view: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
    """The request a Bhoos 2022 bot reads, from my seat's view: ``playerId``, ``playerIds``, ``cards`` (my hand),
    ``context`` (``round``; per player id ``totalPoints`` before this deal, ``bid`` (0 before it is made) and
    ``won``); for ``/play`` also ``timeBudget``, ``played`` (the trick so far, in order) and ``history`` (this
    deal's finished tricks as ``[start, [cards in play order from start], winner]``)."""
    ids = player_ids(view)
    players = {ids[s]: {"totalPoints": points(view["totals"][s]), "bid": view["bids"][s] or 0,
                        "won": view["tricks_won"][s]} for s in range(4)}
    body: dict[str, Any] = {}
    if view["phase"] == "playing":
        body["timeBudget"] = time_budget(view, timeout)
    body.update({
        "playerId": ids[view["seat"]],
        "playerIds": ids,
        "cards": [to_bhoos(c) for c in view["hand"]],
    })
    if view["phase"] == "playing":
        body["played"] = [to_bhoos(p["card"]) for p in view["trick"]["plays"]]
        body["history"] = [[t["leader"], [to_bhoos(p["card"]) for p in t["plays"]], t["winner"]]
                           for t in view["tricks"]]
    body["context"] = {"round": view["deal_number"], "players": players}
    return body


class BhoosPlayer:
    """A bot server speaking the Bhoos 2022 protocol: ``POST /bid`` answers ``{"value": 3}``, ``POST /play``
    answers ``{"value": "1S"}``. Errors and timeouts count as no answer (a legal one is substituted)."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url.rstrip("/")
        self.name = f"bhoos:{self.url}"
        self.timeout = timeout
        self.http = httpx.Client(timeout=timeout)

    def hello(self, wait: float = 30.0) -> bool:
        """``GET /hi`` until the bot answers, as the contest's sandbox did before a match (a bot may load a model
        first); ``False`` (and a warning) when it never answered ``{"value": ...}``: its turns then fall to the
        substitute until it does answer."""
        deadline = time.monotonic() + wait
        while True:
            try:
                response = self.http.get(f"{self.url}/hi")
                if response.status_code == 200 and "value" in response.json():
                    log.info("%s is ready: %s", self.name, response.json()["value"])
                    return True
                log.warning("%s answered /hi with %s; playing on", self.name, response.status_code)
                return False
            except (httpx.HTTPError, ValueError, TypeError) as err:
                if time.monotonic() >= deadline:
                    log.warning("%s did not answer /hi in %ss (%s); playing on", self.name, wait, err)
                    return False
            time.sleep(0.5)

    def decide(self, view: dict[str, Any]) -> dict[str, Any]:
        bidding = view["phase"] == "bidding"
        try:
            response = self.http.post(f"{self.url}/{'bid' if bidding else 'play'}",
                                      json=bhoos_body(view, self.timeout))
            response.raise_for_status()
            value = response.json().get("value")
        except (httpx.HTTPError, ValueError, AttributeError) as err:
            log.warning("no answer from %s in match %s: %s", self.name, view.get("id"), err)
            return {}
        # the bot's own answer rides along under "bhoos", so a refused one is logged as it was sent
        return {"bid": value, "bhoos": value} if bidding else {"card": from_bhoos(value), "bhoos": value}
