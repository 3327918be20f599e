"""The posterior over named styles (engine/bots/styles.py): it finds the rule styles after one deal, the first
deal's bids already move it, it reads the seat's view only, and the play-outs draw the styles from it."""

from __future__ import annotations

import random

import pytest

from engine import apply, new_match, player_view
from engine.bots import decide
from engine.bots.playout import GREEDY_BID, SplitMix64
from engine.bots.search import SearchBot
from engine.bots.styles import (
    CAUTIOUS,
    GREEDY,
    LENGTH,
    NAMED,
    PLAYOUT_NOISE,
    PRIOR,
    RANDOM,
    SEARCHES,
    H,
    draw_named_policy,
    mixed_styles,
    seat_posteriors,
    share,
)
from engine.match import MatchState
from tests.engine.positions import assert_blind, shuffled_twin


def _played(seats: list[str], seed: str, deals: int, tricks: int = 0) -> MatchState:
    state = new_match(seed)
    while len(state.completed) < deals or len(state.tricks) < tricks:
        seat = state.turn
        assert seat is not None
        state = apply(state, decide(seats[seat], player_view(state, seat), seed))
    return state


@pytest.mark.parametrize(
    "style,k", [("heuristic", H), ("spar-cautious", CAUTIOUS), ("spar-greedy", GREEDY), ("spar-length", LENGTH)]
)
def test_one_finished_deal_finds_a_rule_style(style: str, k: int) -> None:
    state = _played(["heuristic", style, style, style], f"named-{style}", 1)
    post = seat_posteriors(player_view(state, 0))
    assert set(post) == {1, 2, 3}
    for ps in post.values():
        assert ps[k] > 0.8, (style, [f"{NAMED[j]} {p:.2f}" for j, p in enumerate(ps)])


def test_searches_read_as_searches_after_two_deals() -> None:
    state = _played(["heuristic", "ismcts", "ismcts", "ismcts"], "named-ismcts", 2)
    post = seat_posteriors(player_view(state, 0))
    assert share(post, SEARCHES) > 0.6 and share(post, (H,)) < 0.05


def test_the_first_deals_bids_move_it_and_the_prior_stands_before_them() -> None:
    """Before any bid a seat is the prior; aggressive bids of the first deal move mass to ``spar-greedy``."""
    seats = ["heuristic", "spar-greedy", "spar-greedy", "spar-greedy"]
    state = new_match("named-bids")
    first = seat_posteriors(player_view(state, 0))
    for ps in first.values():
        assert ps == pytest.approx([p / sum(PRIOR) for p in PRIOR])
    while state.turn != 0:
        seat = state.turn
        assert seat is not None
        state = apply(state, decide(seats[seat], player_view(state, seat), "b"))
    post = seat_posteriors(player_view(state, 0))
    bid = [s for s in (1, 2, 3) if state.bids[s] is not None]
    assert bid
    assert sum(post[s][GREEDY] for s in bid) / len(bid) > PRIOR[GREEDY] / sum(PRIOR)
    assert any(post[s] != first[s] for s in bid)


def test_it_reads_the_view_only() -> None:
    """Hidden hands dealt anew behind the same view give the same posterior (mid-deal, after a finished deal)."""
    rng = random.Random(3)
    state = _played(["heuristic", "spar-length", "ismcts", "spar-random"], "named-blind", 1, tricks=4)
    for seat in range(4):
        view = player_view(state, seat)
        twin = player_view(shuffled_twin(state, seat, rng), seat)
        assert twin == view
        assert seat_posteriors(twin) == seat_posteriors(view)
        assert seat_posteriors(twin, sim_line=True) == seat_posteriors(view, sim_line=True)


def test_spar_sims_bid_by_the_line_reads_it_better_than_the_sure_tricks() -> None:
    """The line's stand-in is exact more often on ``spar-sim``'s bids, and after a deal of ``spar-sim`` seats it puts
    more mass on ``spar-sim`` than the sure tricks' stand-in (the first and the second cache kept apart)."""
    from engine.bots.league import simulated_bid
    from engine.bots.styles import SIM, predicted_bids

    hits = {False: 0, True: 0}
    for m in range(60):
        view = player_view(new_match(f"sim-line-{m}"), m % 4)
        bid = simulated_bid(view, random.Random(m))
        for line in hits:
            hits[line] += predicted_bids(view.hand, m % 4, (0, 0, 0, 0), 1, line)[SIM] == bid
    assert hits[True] > hits[False] + 5, hits
    state = _played(["heuristic", "spar-sim", "spar-sim", "spar-sim"], "named-sim-line", 1)
    view = player_view(state, 0)
    plain, line = seat_posteriors(view), seat_posteriors(view, sim_line=True)
    assert sum(ps[SIM] for ps in line.values()) > sum(ps[SIM] for ps in plain.values())
    assert seat_posteriors(view) == plain


def test_play_outs_draw_the_styles_from_the_posterior() -> None:
    one = [0.0] * len(NAMED)
    greedy, rand, heur = list(one), list(one), list(one)
    greedy[GREEDY] = rand[RANDOM] = heur[H] = 1.0
    post = {1: tuple(greedy), 2: tuple(rand), 3: tuple(heur)}
    bids, noise, _ = draw_named_policy([3, 4, 2, 5], post, SplitMix64(1))
    assert bids == [3, GREEDY_BID, 2, 5] and noise == [0.0, PLAYOUT_NOISE[GREEDY], 1.0, 0.0]
    half = [0.0] * len(NAMED)
    half[GREEDY] = half[H] = 0.5
    rng = SplitMix64(9)
    drawn = [draw_named_policy([3, 4, 2, 5], {1: tuple(half)}, rng)[0][1] for _ in range(400)]
    assert 150 < drawn.count(GREEDY_BID) < 250
    styles = mixed_styles(post)
    assert styles[3].heuristic > 0.9 and styles[2].heuristic < 0.4


def test_strong_with_the_named_styles_is_deterministic_legal_and_blind() -> None:
    bot = SearchBot(budget=60, bid_budget=60, mcmc_steps=40, models="bpn", search_bid_bonus=-0.2)
    state = _played(["spar-target", "heuristic", "spar-greedy", "heuristic"], "named-strong", 1)
    assert_blind(bot, state, 8, random.Random(2))
