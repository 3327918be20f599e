"""The C kernel (engine/bots/_kernel.c) plays exactly the cards of the pure-Python play-outs.

Both are compared at every position of play-outs from many sampled worlds, with bids spread so that
every branch of the policy is taken (seats that need tricks, seats whose bid is made, seats to stop).
Under ``CI=true`` the kernel must be built: a machine with a compiler that silently falls back on
Python would lose the bots' speed without a failing test.
"""

from __future__ import annotations

import random

import pytest

from engine import apply, new_match, player_view
from engine.bots import decide, playout
from engine.bots.inference import forbidden_by_play, knowledge
from engine.bots.playout import py_knowledge_limited_card, py_play_out
from engine.bots.sampler import sample_worlds
from engine.rules import DealInPlay
from tests.engine.kernel import KERNEL as _kernel
from tests.engine.kernel import needs_kernel
from tests.engine.positions import into_first_deal

pytestmark = needs_kernel


def _positions(n: int) -> list[tuple[list[int], list[int], int, list[int], list[int], bool]]:
    """Sampled worlds part-way through real deals: (hands, pub, leader, trick, won, first)."""
    rng = random.Random(5)
    out = []
    for state in into_first_deal("kernel", n, rng):
        view = player_view(state, state.turn)
        kn = knowledge(view)
        for hands, _ in sample_worlds(kn, view.bids, 3, rng):
            out.append((hands, list(kn.public), view.trick_leader, list(view.trick), list(view.tricks_won),
                        view.first_trick))
    return out


def _bids(rng: random.Random, won: list[int]) -> list[int]:
    """Bids around the tricks already won, so some seats need tricks, some are made, some are set."""
    return [max(1, min(13, w + rng.randrange(-1, 5))) for w in won]


def test_the_kernel_plays_the_python_cards_at_every_step() -> None:
    assert _kernel is not None
    rng = random.Random(7)
    steps = 0
    for hands, pub, leader, trick, won, first in _positions(80):
        for _ in range(3):
            bids = _bids(rng, won)
            deal = DealInPlay(hands, leader, trick, won, first)
            public = list(pub)
            while not deal.over:
                args = (deal.hands, public, deal.to_play, deal.leader, deal.trick, deal.won, bids, deal.first)
                card = py_knowledge_limited_card(*args)
                assert _kernel.knowledge_limited_card(*args) == card, args
                steps += 1
                public[deal.to_play] &= ~forbidden_by_play(deal.trick, card, deal.first)
                deal.play(card)
            assert _kernel.play_out(hands, pub, leader, trick, won, bids, first) == deal.won
            assert py_play_out(hands, pub, leader, trick, won, bids, first) == deal.won
    assert steps > 20_000


def test_the_bots_use_the_kernel() -> None:
    assert playout.KERNEL and playout.play_out is _kernel.play_out
    assert playout.knowledge_limited_card is _kernel.knowledge_limited_card


def test_bad_input_is_an_error_not_a_crash() -> None:
    assert _kernel is not None
    with pytest.raises(ValueError):
        _kernel.play_out([1, 2, 4], [0, 0, 0, 0], 0, [], [0] * 4, [1] * 4, True)
    with pytest.raises(ValueError):
        _kernel.knowledge_limited_card([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, [], [0] * 4, [1] * 4, True)
    with pytest.raises(ValueError):
        _kernel.knowledge_limited_card([1, 2, 4, 8], [0, 0, 0, 0], 0, 0, [60], [0] * 4, [1] * 4, False)


def test_the_kernel_search_values_cards_exactly_as_the_python_search() -> None:
    """``search_values`` with the tree in C gives the very floats of the Python tree: every deal (the fifth's
    match-win utility too), with and without the fitted styles' policies, weighted and refined worlds."""
    from engine.bots.opponents import fit_styles
    from engine.bots.search import search_values

    rng = random.Random(11)
    state = new_match("kernel-search")
    compared = set()
    ranked = set()
    step = 0
    while not state.is_finished:
        seat = state.turn
        assert seat is not None
        view = player_view(state, seat)
        step += 1
        if view.legal_cards.bit_count() >= 2 and step % 5 == 0:
            styles = fit_styles(view) if view.deals else None
            kwargs = {"budget": rng.choice([40, 90]), "depth": rng.choice([1, 3, 5]),
                      "expand_after": rng.choice([1, 6]), "exploration": rng.choice([0.3, 0.6])}
            if step % 2:
                kwargs.update(mcmc_steps=0, oversample=1)  # weighted worlds, not refined ones
            if step % 3 == 0:
                kwargs["rank"] = 100.0  # the fifth deal's places behind the winner (no effect before it)
            seed = rng.getrandbits(32)
            values = search_values(view, random.Random(seed), styles=styles, **kwargs)
            assert values == search_values(view, random.Random(seed), styles=styles, pure=True, **kwargs)
            compared.add((state.deal_number, styles is not None, step % 2))
            ranked.add((state.deal_number, "rank" in kwargs))
        mover = "heuristic" if (seat + state.deal_number) % 3 else "random"
        state = apply(state, decide(mover, view, step))
    assert {d for d, _, _ in compared} == {1, 2, 3, 4, 5}
    assert (5, True, 0) in compared and (5, True, 1) in compared and (1, False, 0) in compared
    assert (5, True) in ranked and (5, False) in ranked


def test_the_kernel_search_refuses_bad_input() -> None:
    assert _kernel is not None
    hands = [1 << 0 | 1 << 1, 1 << 2 | 1 << 3, 1 << 4 | 1 << 5, 1 << 6 | 1 << 7]
    full = [(1 << 52) - 1] * 4
    ok = (hands,), (1.0,), full, 0, [], [0, 0, 0, 0], False, [0, 1], 0, [1, 1, 1, 1], [0, 0, 0, 0], 1, 3, 1, 60.0, None
    assert len(_kernel.search(*ok)) == 2
    with pytest.raises(ValueError):
        _kernel.search(*ok[:7], [9], *ok[8:])  # a legal card not in the hand
    with pytest.raises(ValueError):
        _kernel.search(*ok[:7], [60], *ok[8:])  # not a card
    with pytest.raises(ValueError):
        _kernel.search(ok[0], (1.0, 2.0), *ok[2:])  # one weight per world
    with pytest.raises(ValueError):
        _kernel.search(*ok[:15], [([1, 1, 1, 1], [0.0] * 4)])  # a policy is (bids, noise, seed)
