"""The search bot: ``strong``, the ``hard`` level (the first strong bot is ``strong-v1``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.bots.search as search
import engine.bots.strong as strong
from engine import player_view
from engine.bots import decide
from engine.bots.inference import knowledge
from engine.bots.sampler import Infeasible, sample_worlds
from engine.bots.search import PlayEvidence, SearchBot, bid_policy_weights, search_values
from engine.bots.strong import evaluate_cards, resample
from engine.cards import mask_cards
from engine.match import Action
from engine.views import PlayerView
from tests.engine.positions import shuffled_twin, walk


def heuristic(view: PlayerView) -> Action:
    return decide("heuristic", view, "x")


def test_deterministic_and_legal_with_a_small_budget() -> None:
    bot = SearchBot(budget=60, bid_budget=60, expand_after=2, oversample=2, bid_oversample=2)
    for _, _, view in walk("search-small", lambda view: bot.choose(view, random.Random(5))):
        assert bot.choose(view, random.Random(5)) == bot.choose(view, random.Random(5))


def test_without_a_tree_it_values_cards_exactly_as_the_strong_bot() -> None:
    """Depth 0 is the strong bot's evaluation (same worlds, same play-outs): the tree is the only change."""
    compared = 0
    for _, _, view in walk("search-depth0", heuristic):
        if view.legal_cards and len(mask_cards(view.legal_cards)) >= 3:
            assert search_values(view, random.Random(9), budget=80, depth=0, oversample=1, play_miss=1.0,
                                 bid_miss=1.0, mcmc_steps=0) == \
                evaluate_cards(view, random.Random(9), budget=80)
            compared += 1
    assert compared >= 10


def test_the_tree_changes_what_some_cards_are_worth() -> None:
    """With the tree its own later cards are chosen by the search, so some values differ from depth 0's."""
    differ = 0
    for _, _, view in walk("search-tree", heuristic, tricks=6):
        if view.legal_cards and len(mask_cards(view.legal_cards)) >= 2:
            flat = search_values(view, random.Random(4), budget=400, depth=0, oversample=1)
            deep = search_values(view, random.Random(4), budget=400, depth=3, expand_after=2, oversample=1)
            assert flat.keys() == deep.keys()
            differ += flat != deep
    assert differ >= 3


def test_resampling_keeps_n_in_proportion_to_the_weights() -> None:
    drawn = [("a", 1.0), ("b", 0.0), ("c", 3.0)]
    kept = resample(drawn, 8, random.Random(1))
    assert len(kept) == 8 and all(w == 1.0 for _, w in kept)
    assert [x for x, _ in kept].count("a") == 2 and [x for x, _ in kept].count("c") == 6


def test_play_evidence_never_faults_the_real_hands_of_heuristic_players() -> None:
    """The heuristic's policy rebuilt from the public history plays every card heuristic seats really played,
    so the real hands keep the full weight, while sampled worlds that contradict the plays lose weight."""
    checked = faulted = 0
    for state, _, view in walk("search-evidence", heuristic, deals=2):
        if view.legal_cards and view.tricks:
            evidence = PlayEvidence(view, 0.1)
            assert evidence.weight(state.hands) == 1.0
            worlds = sample_worlds(knowledge(view), view.bids, 20, random.Random(2))
            faulted += any(evidence.weight(hands) < 1.0 for hands, _ in worlds)
            checked += 1
    assert checked >= 60 and faulted >= checked // 2


def test_bid_policy_never_faults_the_real_hands_of_heuristic_bidders() -> None:
    """Heuristic players bid by :func:`.heuristic.bid_for`: their real dealt hands always explain their bids
    (the fifth deal's standings included), while many sampled hands do not."""
    checked = faulted = 0
    for state, _, view in walk("search-bid-policy", heuristic, deals=5):
        if view.legal_cards and len(state.tricks) in (1, 6, 11) and not view.trick:
            kn = knowledge(view)
            real = [(list(state.hands), 1.0)]
            assert bid_policy_weights(view, kn.played_by, real, 0.1)[0][1] == 1.0
            worlds = sample_worlds(kn, view.bids, 20, random.Random(3))
            faulted += any(w < 1.0 for _, w in bid_policy_weights(view, kn.played_by, worlds, 0.1))
            checked += 1
    assert checked >= 15 and faulted >= checked // 2


@pytest.mark.parametrize(("evidence", "seed"), [
    ({"play_miss": 0.2, "mcmc_steps": 0, "oversample": 2}, "search-evidence-view"),
    ({"play_miss": 1.0, "bid_miss": 0.1, "mcmc_steps": 0, "oversample": 2}, "search-bid-policy-view"),
    ({"mcmc_steps": 60}, "search-chain-view"),
])
def test_with_evidence_deterministic_legal_and_from_the_view_only(evidence: dict[str, Any], seed: str) -> None:
    bot = SearchBot(budget=60, bid_budget=60, expand_after=2, **evidence)
    rng = random.Random(8)
    checked = 0
    for state, seat, view in walk(seed, lambda view: bot.choose(view, random.Random(5))):
        a = bot.choose(view, random.Random(5))
        assert a == bot.choose(view, random.Random(5))
        if view.legal_cards and len(state.tricks) in (3, 7, 10):
            twin = shuffled_twin(state, seat, rng)
            twin_view = player_view(twin, seat)
            assert twin_view == view
            assert bot.choose(twin_view, random.Random(5)) == a
            checked += 1
    assert checked >= 8


def test_it_falls_back_on_the_heuristic_if_sampling_fails(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The hard level must always answer: if no world could be drawn, it plays the heuristic's move."""
    def fail(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise Infeasible("test")

    monkeypatch.setattr(search, "sample_worlds", fail)
    monkeypatch.setattr(strong, "sample_hands", fail)
    for _, _, view in walk("search-fallback", heuristic, tricks=2):
        assert decide("strong", view, 1) == decide("heuristic", view, 1)


def test_the_drawn_policy_plays_random_cards_at_the_uniform_share_times_the_scale() -> None:
    """A seat fitted as 50% heuristic, 10% greedy and 40% uniform plays random cards at 0.4 in the play-outs, at
    0.2 with ``noise_scale`` 0.5 and never at 0; a seat under the threshold (5% uniform) never; the bids are kept
    unless the seat is drawn as the greedy trick-taker (``GREEDY_BID``)."""
    from engine.bots.opponents import Style
    from engine.bots.playout import GREEDY_BID, SplitMix64

    styles = {1: Style(0.5, 0.1, 0.0, 1.0), 2: Style(0.9, 0.05, 0.0, 1.0)}
    for scale, expected in ((1.0, 0.4), (0.5, 0.2), (0.0, 0.0)):
        sm = SplitMix64(7)
        greedy = 0
        for _ in range(600):
            pbids, noise, _ = search.draw_policy([3, 4, 2, 5], styles, sm, scale)
            assert noise[0] == noise[3] == 0.0 and noise[2] == 0.0
            assert noise[1] == pytest.approx(expected)
            assert pbids[0] == 3 and pbids[3] == 5 and pbids[1] in (4, GREEDY_BID)
            greedy += pbids[1] == GREEDY_BID
        assert 0.10 < greedy / 600 < 0.24  # greedy at 0.1 / (0.5 + 0.1) of the non-uniform part
