"""The C kernel deals the sampler's worlds and plays a review's play-outs exactly as the Python functions do.

``sample_worlds`` and ``bid_worlds`` run Python's own Mersenne Twister from a ``random.Random``'s state: the
same worlds, the same weights (to the last bit) and the same state after, so a bot or a review gives the
same decisions with or without the kernel.  Compared here on views from every deal and many moments of real
matches (voids shown, spades refused, bids made and still to come), from states with and without a cached
Gaussian, and on whole reviews.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine import apply, new_match, player_view
from engine.analysis import review
from engine.analysis.evaluate import UNKNOWN, bid_deals, evaluate, py_bid_deals
from engine.bots import decide, native
from engine.bots.inference import BID_SIGMA, knowledge
from engine.bots.playout import play_out, play_out_after
from engine.bots.sampler import Infeasible, py_sample_worlds, sample_worlds
from engine.replays import export_replay
from engine.views import PlayerView
from tests.engine.kernel import KERNEL as _kernel
from tests.engine.kernel import needs_kernel

pytestmark = needs_kernel


def _views(n: int) -> list[PlayerView]:
    """Views of the seat to move at random moments of real matches, bids and cards, every deal."""
    rng = random.Random(11)
    out = []
    for m in range(n):
        state = new_match(f"kernel-sampler-{m}")
        for _ in range(rng.randrange(0, 5 * 57)):
            if state.is_finished:
                break
            state = apply(state, decide("heuristic" if m % 3 else "random", player_view(state, state.turn), m))
        if not state.is_finished:
            out.append(player_view(state, state.turn))
    return out


def _bid_views(n: int) -> list[PlayerView]:
    """Views of a seat to bid, in every deal, after none to three bids."""
    rng = random.Random(13)
    out = []
    for m in range(n):
        state = new_match(f"kernel-bids-{m}")
        deal, bids = rng.randrange(1, 6), rng.randrange(0, 4)
        while state.deal_number < deal or state.phase != "bidding":
            state = apply(state, decide("heuristic", player_view(state, state.turn), m))
        for _ in range(bids):
            state = apply(state, decide("heuristic", player_view(state, state.turn), m))
        out.append(player_view(state, state.turn))
    return out


def _rng(i: int) -> random.Random:
    """A Random part-way through its stream, every other one holding a cached Gaussian."""
    rng = random.Random(f"state-{i}")
    for _ in range(i % 700):
        rng.random()
    if i % 2:
        rng.gauss(0.0, 1.0)
    return rng


def test_sample_worlds_deals_the_python_worlds_and_leaves_the_same_state() -> None:
    constrained = 0
    for i, view in enumerate(_views(120)):
        if view.legal_bids:
            continue
        kn = knowledge(view)
        constrained += any(kn.allowed[s] != kn.unseen for s in range(4) if s != kn.me)
        a, b = _rng(i), _rng(i)
        sigma = BID_SIGMA if i % 3 else 1.7
        assert sample_worlds(kn, view.bids, 25, a, sigma) == py_sample_worlds(kn, view.bids, 25, b, sigma)
        assert a.getstate() == b.getstate()
        assert a.random() == b.random()
    assert constrained > 20  # Hall's checks and the weighted placements were taken, not only the free deal


def test_bid_worlds_deal_the_python_deals_bids_and_gaussians() -> None:
    for i, view in enumerate(_bid_views(40)):
        assert view.legal_bids
        a, b = _rng(i), _rng(i)
        assert bid_deals(view, 40, a) == py_bid_deals(view, 40, b)
        assert a.getstate() == b.getstate()


def test_the_review_play_outs_are_play_out_after_and_play_out() -> None:
    assert _kernel is not None
    checked = 0
    for i, view in enumerate(_views(40) + _bid_views(10)):
        kn = knowledge(view)
        me = kn.me
        if view.legal_bids:
            deals = py_bid_deals(view, 6, _rng(i))
            flat = _kernel.bid_play_outs(deals, me, [1, 4, 9], (view.dealer + 1) % 4)
            want: list[int] = []
            for hands, bids, _ in deals:
                for b in (1, 4, 9):
                    bids[me] = b
                    want += play_out(hands, UNKNOWN, (view.dealer + 1) % 4, [], [0, 0, 0, 0], bids, True)
        else:
            worlds = py_sample_worlds(kn, view.bids, 6, _rng(i))
            cards = [c for c in range(52) if view.legal_cards >> c & 1]
            bids = [b or 0 for b in view.bids]
            flat = _kernel.card_play_outs(worlds, me, cards, kn.public, view.trick_leader, view.trick,
                                          view.tricks_won, bids, view.first_trick)
            want = []
            for hands, _ in worlds:
                for c in cards:
                    want += play_out_after(me, c, hands, kn.public, view.trick, view.tricks_won, view.trick_leader,
                                           bids, view.first_trick)
        assert flat == want
        checked += len(want)
    assert checked > 2000


def test_the_review_tallies_are_the_python_sums_to_the_last_bit(monkeypatch: Any) -> None:
    """``card_values``/``bid_values`` sum the play-outs in C as ``_Tally.add`` does: the deal's score in deals 1
    to 4, the share of the match win (ties shared) in the fifth; compared as exact floats, fifth deals included."""
    views = _views(40) + _bid_views(10)
    fifth = [v for v in views if v.deal_number == 5]
    assert len(fifth) >= 5 and any(v.legal_bids for v in fifth) and any(not v.legal_bids for v in fifth)
    fast = [evaluate(view, 24, _rng(i)) for i, view in enumerate(views)]
    monkeypatch.setattr(native, "KERNEL", None)
    slow = [evaluate(view, 24, _rng(i)) for i, view in enumerate(views)]
    assert [(v.values, v.win) for v in fast] == [(v.values, v.win) for v in slow]
    assert sum(len(v.values) for v in fast) > 150


def test_a_review_is_the_same_with_and_without_the_kernel(monkeypatch: Any) -> None:
    state = new_match("kernel-review")
    while not state.is_finished:
        state = apply(state, decide("heuristic", player_view(state, state.turn), 1))
    doc = export_replay(state, match_id="kernel-review")
    fast = review.analyze_deal(doc, 2, 3, budget=30, seed="k").to_json()
    monkeypatch.setattr(native, "KERNEL", None)
    assert review.analyze_deal(doc, 2, 3, budget=30, seed="k").to_json() == fast


def test_infeasible_and_bad_input_are_errors_with_the_state_untouched() -> None:
    assert _kernel is not None
    view = next(v for v in _views(10) if not v.legal_bids)
    kn = knowledge(view)
    rng = _rng(3)
    before = rng.getstate()
    wrong = tuple(c + 1 if s != kn.me else c for s, c in enumerate(kn.counts))
    with pytest.raises(Infeasible, match="unseen cards for"):
        sample_worlds(replace(kn, counts=wrong), view.bids, 5, rng)
    assert rng.getstate() == before
    with pytest.raises(ValueError):
        _kernel.sample_worlds((3, (0,) * 10, None), kn.me, kn.hand, kn.unseen, kn.allowed, kn.counts, kn.played_by,
                              [-1] * 4, 5, 1.0)
    with pytest.raises(ValueError):
        _kernel.card_play_outs([([0, 0, 0, 0], 1.0)], 5, [0], kn.public, 0, [], [0] * 4, [1] * 4, True)

