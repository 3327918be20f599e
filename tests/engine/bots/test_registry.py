"""The registry and ``decide``: names and levels, decisions from the view only, bot matches that verify."""

from __future__ import annotations

import random

from engine import apply, export_replay, new_match, player_view, verify_replay
from engine.bots import AUTOPILOT_LEVEL, BOT_NAMES, DEFAULT_BOT, LEVELS, PLAYER_FACING_LEVELS, decide, get_bot
from engine.match import MatchState
from tests.engine.positions import shuffled_twin, walk


def play_match(seed: str, seats: list[str]) -> MatchState:
    state = new_match(seed)
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        state = apply(state, decide(seats[seat], player_view(state, seat), seed))
    return state


def test_registry_contract() -> None:
    for name in ("random", "heuristic", "strong", "strong-v1", "strong-v2", "strong-v3", "ismcts"):
        assert name in BOT_NAMES
    assert DEFAULT_BOT == "normal"
    assert LEVELS["normal"] == "heuristic" and LEVELS["hard"] == "strong"
    assert type(get_bot("hard")).__name__ == "SearchBot" and type(get_bot("strong-v1")).__name__ == "StrongBot"
    # strong reads the other seats by the named styles' posterior, strong-v3 (the hard level until 2026-12-04) by
    # their fitted styles; strong-v2 (the hard level until 2026-12-03) does not read them
    assert get_bot("hard").models == "bpn" and get_bot("strong-v3").models == "bp"
    assert get_bot("strong-v2").models == ""
    # at a table read as searches strong's bid counts one trick fewer in a share of its deals
    assert get_bot("hard").search_bid_bonus < 0.0 and get_bot("strong-v3").search_bid_bonus == 0.0
    # and in the fifth deal plays for places as well as the win; strong-v2 for the win alone
    assert get_bot("hard").rank == 100.0 and get_bot("strong-v2").rank == 0.0
    # and its bid drops the trick bonus at a table fitted as foreign; strong-v2 keeps it everywhere
    assert get_bot("hard").foreign_bid_bonus == 0.0 and get_bot("strong-v2").foreign_bid_bonus is None
    assert type(get_bot("ismcts")).__name__ == "IsmctsBot"
    assert get_bot("easy").name != "heuristic"
    # the site's level policy: every player-facing level and the autopilot's is a level of the registry
    assert set(PLAYER_FACING_LEVELS) <= set(LEVELS) and DEFAULT_BOT in PLAYER_FACING_LEVELS
    assert AUTOPILOT_LEVEL in LEVELS and AUTOPILOT_LEVEL == "normal"



def test_decision_depends_on_the_view_only() -> None:
    rng = random.Random(3)
    checked = 0
    for state, seat, view in walk("view-only", lambda view: decide("heuristic", view, "x")):
        if state.phase == "playing" and len(state.tricks) in (2, 6, 9) or state.phase == "bidding":
            twin = shuffled_twin(state, seat, rng)
            assert twin.hands != state.hands or state.phase == "playing" and len(state.tricks) > 9
            twin_view = player_view(twin, seat)
            assert twin_view == view
            for name in ("strong", "strong-v1", "heuristic", "easy", "ismcts"):
                assert decide(name, view, "s1") == decide(name, twin_view, "s1")
            checked += 1
    assert checked >= 8


def test_bot_replays_verify() -> None:
    state = play_match("verify-bots", ["strong", "heuristic", "easy", "random"])
    verify_replay(export_replay(state))
