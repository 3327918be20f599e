"""The league's sparring styles: registered (not levels), legal, a function of ``(view, seed)``, blind to hidden
hands, and each bidding and playing as its rule says."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import apply, export_replay, new_match, player_view, verify_replay
from engine.bots import BOT_NAMES, LEVELS, decide, get_bot
from engine.bots.evaluation import careful_bid, estimate_tricks
from engine.bots.heuristic import takes_trick
from engine.bots.inference import knowledge
from engine.bots.ismcts import py_ismcts, sure_tricks_bid
from engine.bots.league import STYLES, greedy_card, simulated_bid
from engine.bots.sampler import sample_hands
from engine.bots.spar_rules import aggressive_bid, capped_bid, length_bid
from engine.cards import mask_cards
from engine.match import Action
from engine.views import PlayerView
from tests.engine.kernel import KERNEL as KERNEL_MODULE
from tests.engine.kernel import needs_kernel
from tests.engine.positions import shuffled_twin, walk


def test_six_styles_registered_and_none_a_level() -> None:
    assert len(STYLES) >= 6 and len(set(STYLES)) == len(STYLES)
    for name in STYLES:
        assert name in BOT_NAMES and get_bot(name).name == name
        assert name not in LEVELS.values()


@pytest.mark.parametrize("style", STYLES)
def test_a_match_of_each_style_is_legal_and_verifies(style: str) -> None:
    """``apply`` refuses an illegal action, so a finished match is every bid and card legal."""
    seats = [style, "heuristic", style, style]
    state = new_match(f"league-legal-{style}")
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        state = apply(state, decide(seats[seat], player_view(state, seat), "s"))
    verify_replay(export_replay(state))


def _heuristic(view: PlayerView) -> Action:
    return decide("heuristic", view, "w")


@pytest.mark.parametrize("style", STYLES)
def test_deterministic_for_a_view_and_seed_and_blind_to_hidden_hands(style: str) -> None:
    """The same view (the other hands dealt anew behind it) and seed give the same action, in bidding and play."""
    rng = random.Random(11)
    checked = 0
    for state, seat, view in walk(f"league-blind-{style}", _heuristic):
        if state.phase == "bidding" or len(state.tricks) % 4 == 1 and len(mask_cards(view.legal_cards)) >= 2:
            twin = shuffled_twin(state, seat, rng)
            assert twin.hands != state.hands or len(state.tricks) > 9
            twin_view = player_view(twin, seat)
            assert twin_view == view
            a = decide(style, view, "seed-a")
            assert a == decide(style, view, "seed-a") == decide(style, twin_view, "seed-a")
            checked += 1
    assert checked >= 8


def test_the_random_style_uses_its_seed_and_the_searches_too() -> None:
    for style in ("spar-random", "spar-sim", "spar-target"):
        differ = 0
        for state, _, view in walk(f"league-seed-{style}", _heuristic, tricks=4):
            if state.phase == "playing" and len(mask_cards(view.legal_cards)) >= 3:
                a = decide(style, view, "a")
                differ += any(a != decide(style, view, s) for s in ("b", "c", "d", "e"))
        assert differ >= 1, style


def test_the_bids_differ_as_the_styles_say() -> None:
    rng = random.Random(5)
    hands = [sum(1 << c for c in rng.sample(range(52), 13)) for _ in range(300)]
    for hand in hands:
        est = estimate_tricks(hand)
        assert 1 <= capped_bid(hand) <= 3 and capped_bid(hand) <= max(1, careful_bid(est))
        assert aggressive_bid(hand) >= sure_tricks_bid(hand) >= careful_bid(est)
        assert 1 <= length_bid(hand) <= 13
    assert sum(aggressive_bid(h) > sure_tricks_bid(h) for h in hands) >= 250
    assert sum(length_bid(h) != careful_bid(estimate_tricks(h)) for h in hands) >= 60


def test_the_simulated_bid_is_a_score_optimum_of_its_samples() -> None:
    state = new_match("league-sim-bid")
    view = player_view(state, state.turn)
    bid = simulated_bid(view, random.Random(1))
    assert bid == simulated_bid(view, random.Random(1)) and 1 <= bid <= 13
    # a hand of all thirteen spades is thirteen sure tricks in every sample
    spades = (1 << 13) - 1
    assert simulated_bid(replace(view, hand=spades, hand_counts=view.hand_counts), random.Random(2)) == 13


def test_the_greedy_style_overtakes() -> None:
    for state, _, view in walk("league-greedy", _heuristic, tricks=13):
        if state.phase == "playing" and view.trick and len(mask_cards(view.legal_cards)) >= 2:
            card = greedy_card(view)
            if any(takes_trick(list(view.trick), c) for c in mask_cards(view.legal_cards)):
                assert takes_trick(list(view.trick), card)


@needs_kernel
def test_the_kernel_plays_for_the_bids_exactly_as_python() -> None:
    compared = 0
    for state, seat, view in walk("league-kernel", _heuristic, tricks=12):
        if state.phase != "playing" or len(mask_cards(view.legal_cards)) < 2:
            continue
        kn = knowledge(view)
        rng = random.Random(view.version)
        seats = [s for s in range(4) if s != seat]
        worlds = []
        for _ in range(29):
            hands = sample_hands(kn.unseen, kn.allowed, kn.counts, seats, rng)
            hands[seat] = view.hand
            worlds.append(hands)
        bids = [b or 0 for b in view.bids]
        args = (worlds, view.trick_leader, list(view.trick), list(view.tricks_won), view.first_trick)
        py = py_ismcts(*args, 120, 0.7, 7 + view.version, bids)
        assert KERNEL_MODULE.ismcts(*args, 120, 0.7, 7 + view.version, bids) == py
        compared += 1
    assert compared >= 20
