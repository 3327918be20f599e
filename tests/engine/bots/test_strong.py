"""The strong bot: deterministic and legal, equivalent cards once, fifth-deal bids, a fallback."""

from __future__ import annotations

import random
from dataclasses import replace

import engine.bots.strong as strong
from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.sampler import Infeasible
from engine.bots.strong import StrongBot, distinct_cards, strong_bid
from engine.cards import FULL_DECK, card_str, cards_to_mask, parse_card
from engine.views import PlayerView
from tests.engine.positions import walk


def test_strong_is_deterministic_and_legal_with_a_small_budget() -> None:
    bot = StrongBot(play_budget=40, bid_budget=60)
    for _, _, view in walk("strong-small", lambda view: bot.choose(view, random.Random(5))):  # legal moves
        assert bot.choose(view, random.Random(5)) == bot.choose(view, random.Random(5))


def test_equivalent_cards_are_evaluated_once() -> None:
    hand = cards_to_mask("7H 8H TH 2S 3S 5S KD".split())
    unseen = FULL_DECK & ~hand & ~cards_to_mask(["9H", "4S"])
    legal = [parse_card(c) for c in "7H 8H TH 2S 3S 5S KD".split()]
    assert [card_str(c) for c in distinct_cards(legal, unseen)] == ["2S", "7H", "KD"]


def test_strong_last_deal_bids_follow_the_standings() -> None:
    """Fifth deal: a clear leader bids safe; far behind, a hand that can still win bids higher."""
    ahead_total = level_total = 0
    gambles = 0
    for k in range(8):
        state = new_match(f"behind{k}")
        while state.deal_number < 5:
            state = apply(state, decide("heuristic", player_view(state, state.turn), "b"))
        view = player_view(state, state.turn)
        me = view.seat

        def bid(delta: int, view: PlayerView = view, me: int | None = me) -> int:
            v = replace(view, totals=tuple(100 + delta if s == me else 100 for s in range(4)))
            return strong_bid(v, random.Random(1), 300)

        ahead, level, behind = bid(40), bid(0), bid(-60)
        assert ahead <= level
        ahead_total += ahead
        level_total += level
        gambles += behind > level
    assert ahead_total < level_total
    assert gambles >= 1  # behind with a hand that can still catch up, it bids higher


def test_strong_falls_back_on_the_heuristic_if_sampling_fails(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def fail(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise Infeasible("test")

    monkeypatch.setattr(strong, "sample_worlds", fail)
    monkeypatch.setattr(strong, "sample_hands", fail)
    state = new_match("fallback")
    for _ in range(8):
        view = player_view(state, state.turn)
        assert decide("strong-v1", view, 1) == decide("heuristic", view, 1)
        state = apply(state, decide("strong-v1", view, 1))
