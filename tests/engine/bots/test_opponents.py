"""Opponent models: the style fit on synthetic records and real matches, the greedy policy, the styled belief
and mixed play-outs the same in C and Python, and the search bot with models blind to hidden hands."""

from __future__ import annotations

import random

import pytest

import engine.bots.search as search
from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.inference import knowledge
from engine.bots.opponents import Observations, fit_style, fit_styles, lround, style_rows
from engine.bots.playout import GREEDY_BID, knowledge_limited_card, play_out, py_play_out_mixed
from engine.bots.posterior import SeatModel, py_refine, refine
from engine.bots.sampler import sample_worlds
from engine.bots.search import SearchBot
from engine.cards import mask_cards
from engine.match import MatchState
from engine.rules import legal_mask
from tests.engine.kernel import KERNEL, needs_kernel
from tests.engine.positions import assert_blind


def test_the_fit_finds_the_policy_of_a_synthetic_record() -> None:
    """40 non-forced plays of 3 legal cards: all the heuristic's (and not the greedy's), all the greedy's, none."""
    heur = fit_style(Observations([(3, True, False)] * 40, [0, 0, 0, 0]))
    greedy = fit_style(Observations([(3, False, True)] * 40, [1, 1, 2, 1]))
    other = fit_style(Observations([(3, False, False)] * 40, [3, -1, 2, 0]))
    assert heur.heuristic > 0.9 and heur.greedy < 0.05
    assert greedy.greedy > 0.75 and greedy.heuristic < 0.2
    assert 1 - other.heuristic - other.greedy > 0.75
    assert heur.shift == 0 and heur.bid_miss < 0.15           # bids the heuristic's: its bid read sharply
    assert lround(greedy.shift) == 1 and greedy.bid_miss < 0.5  # one more than the heuristic, mostly
    assert other.bid_miss == 1.0                               # bids unlike any rule: not read as a policy
    # where both policies play the same card the plays say nothing about which: the shares stay near the prior
    both = fit_style(Observations([(3, True, True)] * 40, []))
    prior = fit_style(Observations([], []))
    assert abs(both.greedy - prior.greedy) < 0.1 and prior.heuristic > 0.9


def _played(seats: list[str], seed: str, deals: int) -> MatchState:
    state = new_match(seed)
    while len(state.completed) < deals:
        seat = state.turn
        assert seat is not None
        state = apply(state, decide(seats[seat], player_view(state, seat), seed))
    return state


def test_the_fit_tells_heuristic_players_from_random_ones() -> None:
    state = _played(["heuristic", "random", "heuristic", "random"], "fit-real", 2)
    view = player_view(state, 0)
    styles = fit_styles(view)
    assert set(styles) == {1, 2, 3}
    assert styles[2].heuristic > 0.9 and styles[2].bid_miss < 0.15
    for s in (1, 3):
        assert 1 - styles[s].heuristic - styles[s].greedy > 0.3 and styles[s].heuristic < 0.8
    assert len(style_rows(view, styles)) == 4


def test_the_greedy_bid_makes_a_seat_want_every_trick() -> None:
    """knowledge_limited_card with GREEDY_BID plays as a seat one trick short of its bid, at every position."""
    state = _played(["heuristic"] * 4, "greedy", 1)
    compared = 0
    for deal in state.completed:
        hands = [sum(1 << c for c in deal.dealt[s]) for s in range(4)]
        pub = [(1 << 52) - 1] * 4
        won = [0, 0, 0, 0]
        for i, t in enumerate(deal.tricks):
            trick: list[int] = []
            for seat, c in t.plays():
                greedy = list(deal.bids)
                greedy[seat] = GREEDY_BID
                short = list(deal.bids)
                short[seat] = won[seat] + 1
                assert knowledge_limited_card(hands, pub, seat, t.leader, trick, won, greedy, i == 0) == \
                    knowledge_limited_card(hands, pub, seat, t.leader, trick, won, short, i == 0)
                compared += legal_mask(hands[seat], trick, i == 0).bit_count() > 1
                hands[seat] &= ~(1 << c)
                trick.append(c)
            won[t.winner] += 1
    assert compared >= 20


@needs_kernel
def test_styled_belief_and_mixed_play_outs_are_the_same_in_c_and_python() -> None:
    assert KERNEL is not None
    state = _played(["ismcts", "heuristic", "random", "heuristic"], "styled", 1)
    compared = 0
    while len(state.tricks) < 9:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        if state.phase == "playing" and len(state.tricks) in (2, 5, 8):
            kn = knowledge(view)
            rows = style_rows(view, fit_styles(view))
            model = SeatModel(view, kn.played_by, kn.allowed, 1.0, 0.1, 0.03, 39, rows)
            worlds = [h for h, _ in sample_worlds(kn, view.bids, 5, random.Random(compared))]
            assert py_refine(worlds, model, 80, 5 + compared) == refine(worlds, model, 80, 5 + compared)
            bids = [b or 0 for b in view.bids]
            for h in worlds:
                args = (h, kn.public, view.trick_leader, list(view.trick), list(view.tricks_won), bids,
                        view.first_trick)
                assert py_play_out_mixed(*args, [0.3, 0.0, 0.6, 0.2], 17) == \
                    KERNEL.play_out_mixed(*args, [0.3, 0.0, 0.6, 0.2], 17)
                assert py_play_out_mixed(*args, [0.0] * 4, 17) == play_out(*args)  # no noise: the plain play-out
            compared += 1
        state = apply(state, decide("heuristic", view, "x"))
    assert compared >= 8


def test_the_search_with_models_is_deterministic_legal_and_blind_to_hidden_hands() -> None:
    bot = SearchBot(budget=60, bid_budget=60, mcmc_steps=40, models="bpd")
    state = _played(["ismcts", "heuristic", "ismcts", "heuristic"], "models-blind", 1)
    assert_blind(bot, state, 10, random.Random(2))


def test_before_a_deal_is_finished_strong_v3_decides_as_strong_v2() -> None:
    """The fitted models read finished deals only: in a first deal ``strong-v3`` is ``strong-v2`` decision for
    decision (``strong``'s named styles read the first deal's bids: tests/engine/bots/test_styles.py)."""
    checked = 0
    state = new_match("first-deal-alike")
    while len(state.tricks) < 4:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        if state.phase == "bidding" or len(mask_cards(view.legal_cards)) > 1:
            assert decide("strong-v3", view, "a") == decide("strong-v2", view, "a")
            checked += 1
        state = apply(state, decide("heuristic", view, "x"))
    assert checked >= 8


def test_the_bids_trick_bonus_follows_the_table(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Full at a table of heuristics and before any deal is finished, the foreign bonus at a table of random
    players: the simulations play the others as heuristics, and only a heuristic table bears that out."""
    seen: list[float] = []

    def spy(view, rng, budget, playout=None, oversample=1, bonus=0.0, standings=False, rank=0.0):  # type: ignore[no-untyped-def]
        seen.append(bonus)
        return max(view.legal_bids)

    monkeypatch.setattr(search, "strong_bid", spy)
    bot = SearchBot(models="bp", bid_bonus=0.35, foreign_bid_bonus=0.05)
    views = {}
    for others, deals, want in (("heuristic", 1, 0.35), ("random", 1, 0.05), ("random", 0, 0.35)):
        seats = ["heuristic", others, others, others]
        state = _played(seats, f"bonus-{others}", deals)
        while state.turn != 0:
            seat = state.turn
            assert seat is not None
            state = apply(state, decide(seats[seat], player_view(state, seat), "b"))
        views[others, deals] = view = player_view(state, 0)
        assert view.legal_bids
        bot.choose(view, random.Random(1))
        assert seen[-1] == pytest.approx(want), (others, deals)
    # without a foreign bonus, the same bonus at every table (as strong-v2 bids)
    SearchBot(models="bp", bid_bonus=0.35).choose(views["random", 1], random.Random(1))
    assert seen[-1] == 0.35
