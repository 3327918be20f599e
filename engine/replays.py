"""``callbreak-replay/1``: export a finished match, import one, and verify one from scratch.

The verifier trusts nothing in the document but the seed and the sequence of bids and cards: it
re-deals from the seed, replays every action through the rules, and compares each declared
fact (hands, leaders, winners, tricks won, scores, totals, winners) with what it computed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import card_str
from .deal import DEALS_PER_MATCH, first_dealer, seed_commitment
from .errors import EngineError, VerifyError
from .match import Action, Bid, MatchState, Play, new_match

FORMAT = "callbreak-replay/1"


def tenths_to_number(tenths: int) -> float:
    """Tenths as the JSON number with one decimal the format asks for (42 -> 4.2)."""
    return tenths / 10


def format_tenths(tenths: int) -> str:
    """Tenths as people read a score: ``42 -> "4.2"``, ``-40 -> "-4.0"``."""
    sign = "-" if tenths < 0 else ""
    return f"{sign}{abs(tenths) // 10}.{abs(tenths) % 10}"


def default_players() -> list[dict[str, Any]]:
    return [{"seat": s, "name": f"Seat {s}", "kind": "bot", "bot": None} for s in range(4)]


def export_replay(
    state: MatchState, players: Sequence[Mapping[str, Any]] | None = None, match_id: str = ""
) -> dict[str, Any]:
    """The replay document of a finished match."""
    if not state.is_finished:
        raise EngineError("the match is not finished: a replay exists only once all 5 deals are played",
                          "not_finished")
    seats = [dict(p) for p in (players if players is not None else default_players())]
    if len(seats) != 4:
        raise EngineError("a replay names exactly 4 players", "bad_players")
    for s, p in enumerate(seats):
        p["seat"] = s
    deals = []
    for d in state.completed:
        deals.append({
            "number": d.number,
            "dealer": d.dealer,
            "hands": [[card_str(c) for c in hand] for hand in d.dealt],
            "bids": [{"seat": s, "bid": b} for s, b in d.bid_order()],
            "tricks": [t.to_json() for t in d.tricks],
            "tricks_won": list(d.tricks_won),
            "scores": [tenths_to_number(x) for x in d.scores],
            "totals": [tenths_to_number(x) for x in d.totals],
        })
    return {
        "format": FORMAT,
        "match_id": str(match_id),
        "seed": state.seed,
        "seed_commitment": state.seed_commitment,
        "first_dealer": state.first_dealer,
        "players": seats,
        "deals": deals,
        "final_totals": [tenths_to_number(x) for x in state.totals_list],
        "winners": list(state.winners),
    }


@dataclass(frozen=True)
class ImportedReplay:
    match_id: str
    players: list[dict[str, Any]]
    state: MatchState

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.state.actions


def import_replay(doc: Mapping[str, Any]) -> ImportedReplay:
    """Check a replay completely and rebuild its final state."""
    state = verify_replay(doc)
    return ImportedReplay(str(doc.get("match_id", "")), [dict(p) for p in doc["players"]], state)


def _tenths(value: object, where: str) -> int:
    """A one-decimal JSON number as exact tenths, or a violation."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise VerifyError(f"{where}: {value!r} is not a number")
    t = round(value * 10)
    if abs(value * 10 - t) > 1e-6:
        raise VerifyError(f"{where}: {value!r} is not a multiple of 0.1")
    return int(t)


def _expect(actual: object, declared: object, where: str) -> None:
    if actual != declared:
        raise VerifyError(f"{where}: the replay says {declared!r}, the rules give {actual!r}")


def verify_replay(doc: object) -> MatchState:
    """Verify a ``callbreak-replay/1`` document; return the final state, or raise :class:`VerifyError`."""
    if not isinstance(doc, Mapping):
        raise VerifyError("a replay is a JSON object")
    if doc.get("format") != FORMAT:
        raise VerifyError(f"format: expected {FORMAT!r}, got {doc.get('format')!r}")
    for key in ("match_id", "seed", "seed_commitment", "first_dealer", "players", "deals",
                "final_totals", "winners"):
        if key not in doc:
            raise VerifyError(f"missing key {key!r}")
    seed = doc["seed"]
    if not isinstance(seed, str) or not seed:
        raise VerifyError("seed: a non-empty string is required")
    _expect(seed_commitment(seed), doc["seed_commitment"], "seed_commitment (SHA-256 of the seed)")
    _expect(first_dealer(seed), doc["first_dealer"], "first_dealer")
    players = doc["players"]
    if not isinstance(players, list) or len(players) != 4:
        raise VerifyError("players: exactly 4 are required")
    for s, p in enumerate(players):
        if not isinstance(p, Mapping) or p.get("seat") != s:
            raise VerifyError(f"players[{s}]: seat {s} expected")
    deals = doc["deals"]
    if not isinstance(deals, list) or len(deals) != DEALS_PER_MATCH:
        raise VerifyError(f"deals: exactly {DEALS_PER_MATCH} are required")

    state = new_match(seed)
    for n, deal in enumerate(deals, start=1):
        where = f"deal {n}"
        if not isinstance(deal, Mapping):
            raise VerifyError(f"{where}: not an object")
        _expect(n, deal.get("number"), f"{where} number")
        _expect(state.dealer, deal.get("dealer"), f"{where} dealer")
        dealt = [[card_str(c) for c in h] for h in state.dealt]
        _expect(dealt, deal.get("hands"), f"{where} hands (seeded deal)")
        bids = deal.get("bids")
        if not isinstance(bids, list) or len(bids) != 4:
            raise VerifyError(f"{where}: exactly 4 bids are required")
        for i, b in enumerate(bids):
            _play(state, b, "bid", f"{where} bid {i + 1}")
        tricks = deal.get("tricks")
        if not isinstance(tricks, list) or len(tricks) != 13:
            raise VerifyError(f"{where}: exactly 13 tricks are required")
        for t, trick in enumerate(tricks, start=1):
            tw = f"{where} trick {t}"
            if not isinstance(trick, Mapping) or not isinstance(trick.get("plays"), list):
                raise VerifyError(f"{tw}: not a trick object with plays")
            _expect(state.trick_leader, trick.get("leader"), f"{tw} leader")
            if len(trick["plays"]) != 4:
                raise VerifyError(f"{tw}: exactly 4 plays are required")
            for i, p in enumerate(trick["plays"]):
                _play(state, p, "card", f"{tw} play {i + 1}")
            done = state.completed[-1].tricks[-1] if t == 13 else state.tricks[-1]
            _expect(done.winner, trick.get("winner"), f"{tw} winner")
        record = state.completed[-1]
        _expect(list(record.tricks_won), deal.get("tricks_won"), f"{where} tricks_won")
        for key, values in (("scores", record.scores), ("totals", record.totals)):
            declared = deal.get(key)
            if not isinstance(declared, list) or len(declared) != 4:
                raise VerifyError(f"{where} {key}: 4 numbers are required")
            _expect(list(values), [_tenths(x, f"{where} {key}") for x in declared], f"{where} {key}")
    final = doc["final_totals"]
    if not isinstance(final, list) or len(final) != 4:
        raise VerifyError("final_totals: 4 numbers are required")
    _expect(list(state.totals_list), [_tenths(x, "final_totals") for x in final], "final_totals")
    winners = doc["winners"]
    if not isinstance(winners, list) or not all(type(w) is int for w in winners):
        raise VerifyError("winners: a list of seat numbers is required")
    _expect(list(state.winners), sorted(winners), "winners")
    return state


def _play(state: MatchState, item: object, key: str, where: str) -> None:
    if not isinstance(item, Mapping) or key not in item or "seat" not in item:
        raise VerifyError(f"{where}: an object with 'seat' and '{key}' is required")
    try:
        action: Action = Bid(item["seat"], item[key]) if key == "bid" else Play(item["seat"], item[key])
        state._apply(action)
    except EngineError as err:
        what = f"seat {item.get('seat')!r} {key} {item.get(key)!r}"
        raise VerifyError(f"{where}: {what}: {err} [{err.code}]") from err
