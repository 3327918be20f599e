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

def to_bhoos(card: str) -> str:
    """The site's ``AS``/``TS``/``9H`` as the contest wrote cards: the ace is ``1`` (``1S``), the rest alike."""
    return ("1" + card[1]) if card[0] == "A" else card


def from_bhoos(card: object) -> object:
    if isinstance(card, str) and len(card) == 2 and card[0] == "1":
        return "A" + card[1].upper()
    return card


def player_ids(view: dict[str, Any]) -> list[str]:
    """Stable ids for the four seats (``P0`` … ``P3``), in the site's seat order (the order of play)."""
    return [f"P{seat}" for seat in range(4)]


def bhoos_body(view: dict[str, Any]) -> dict[str, Any]:
    """The request a Bhoos 2022 bot reads, from my seat's view: ``playerId``, ``playerIds``, ``cards`` (my hand),
    ``context`` (``round``; per player ``bid``, ``won`` and ``totalPoints``); while playing also ``played`` (the
    trick so far) and ``history`` (this deal's finished tricks as ``[start, [cards], winner]``, seats as indices
    of ``playerIds``)."""
    ids = player_ids(view)
    players = {ids[s]: {"bid": view["bids"][s] or 0, "won": view["tricks_won"][s],
                        "totalPoints": view["totals"][s] / 10} for s in range(4)}
    body: dict[str, Any] = {
        "playerId": ids[view["seat"]],
        "playerIds": ids,
        "cards": [to_bhoos(c) for c in view["hand"]],
        "context": {"round": view["deal_number"], "players": players},
    }
    if view["phase"] == "playing":
        body["played"] = [to_bhoos(p["card"]) for p in view["trick"]["plays"]]
        body["history"] = [[t["leader"], [to_bhoos(p["card"]) for p in t["plays"]], t["winner"]]
                           for t in view["tricks"]]
    return body


class BhoosPlayer:
    """A bot server speaking the Bhoos 2022 protocol: ``POST /bid`` answers ``{"value": n}``, ``POST /play``
    answers ``{"value": "1S"}``. Errors and timeouts count as no answer (a legal one is substituted)."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url.rstrip("/")
        self.name = f"bhoos:{self.url}"
        self.http = httpx.Client(timeout=timeout)

    def decide(self, view: dict[str, Any]) -> dict[str, Any]:
        bidding = view["phase"] == "bidding"
        try:
            response = self.http.post(f"{self.url}/{'bid' if bidding else 'play'}", json=bhoos_body(view))
            response.raise_for_status()
            value = response.json().get("value")
        except (httpx.HTTPError, ValueError, AttributeError) as err:
            log.warning("no answer from %s in match %s: %s", self.name, view.get("id"), err)
            return {}
        # the bot's own answer rides along under "bhoos", so a refused one is logged as it was sent
        return {"bid": value, "bhoos": value} if bidding else {"card": from_bhoos(value), "bhoos": value}
