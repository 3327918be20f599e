"""Positions of a match for tests that walk one: each seat's view in turn, and twins of a position with
the same public history and other hidden hands (a decision made from a view must not change when the
cards it cannot see are dealt anew)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.cards import mask_cards
from engine.match import Action, MatchState
from engine.views import PlayerView


def walk(seed: str, move: Callable[[PlayerView], Action], deals: int = 1,
         tricks: int = 13) -> Iterator[tuple[MatchState, int, PlayerView]]:
    """The state, the seat to act and its view at each position of a new match's first ``deals`` deals,
    up to ``tricks`` tricks into a deal; the match goes on by ``move`` (``apply`` raises if it is illegal)."""
    state = new_match(seed)
    while not state.is_finished and state.deal_number <= deals and len(state.tricks) < tricks:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        yield state, seat, view
        state = apply(state, move(view))


def into_first_deal(prefix: str, n: int, rng: random.Random) -> Iterator[MatchState]:
    """Matches ``prefix-0``.. ``prefix-(n-1)``: bid by the heuristic, then a random number of cards into the first
    deal (the heuristic's in odd matches, random ones in even), the ones still in it; ``rng`` draws how far."""
    for m in range(n):
        state = new_match(f"{prefix}-{m}")
        while state.phase == "bidding":
            state = apply(state, decide("heuristic", player_view(state, state.turn), m))
        for _ in range(rng.randrange(0, 48)):
            state = apply(state, decide("heuristic" if m % 2 else "random", player_view(state, state.turn), m))
        if state.deal_number == 1:
            yield state


def shuffled_twin(state: MatchState, seat: int, rng: random.Random) -> MatchState:
    """The same public history, the other seats' unplayed cards dealt anew (same counts)."""
    twin = state.copy()
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in mask_cards(state.hands[s])]
    rng.shuffle(pool)
    for s in others:
        n = state.hands[s].bit_count()
        twin.hands[s] = sum(1 << c for c in pool[:n])
        pool = pool[n:]
    return twin


def assert_blind(bot: Any, state: MatchState, tricks: int, rng: random.Random) -> None:
    """Play ``bot`` at every seat of ``state`` up to two deals or ``tricks`` tricks: its decisions are legal (the
    engine applies them), the same for the same seed, and the same in a twin whose hidden hands were dealt anew
    (at every bid and every third trick's choices); at least eight such checks."""
    checked = 0
    while len(state.completed) < 2 and len(state.tricks) < tricks:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        action = bot.choose(view, random.Random(5))
        if state.phase == "bidding" or len(state.tricks) % 3 == 0 and len(mask_cards(view.legal_cards)) > 1:
            twin_view = player_view(shuffled_twin(state, seat, rng), seat)
            assert twin_view == view
            assert bot.choose(twin_view, random.Random(5)) == action == bot.choose(view, random.Random(5))
            checked += 1
        state = apply(state, action)
    assert checked >= 8
