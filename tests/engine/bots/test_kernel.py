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
from engine.bots.playout import py_kl_card, py_play_out
from engine.bots.sampler import sample_worlds
from engine.rules import trick_winner_index
from tests.engine.kernel import KERNEL as _kernel
from tests.engine.kernel import needs_kernel

pytestmark = needs_kernel


def _positions(n: int) -> list[tuple[list[int], list[int], int, list[int], list[int], bool]]:
    """Sampled worlds part-way through real deals: (hands, pub, leader, trick, won, first)."""
    rng = random.Random(5)
    out = []
    for m in range(n):
        state = new_match(f"kernel-{m}")
        while state.phase == "bidding":
            state = apply(state, decide("heuristic", player_view(state, state.turn), m))
        for _ in range(rng.randrange(0, 48)):
            state = apply(state, decide("heuristic" if m % 2 else "random", player_view(state, state.turn), m))
        if state.deal_number != 1:
            continue
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
            h, p, t, w, lead, f = list(hands), list(pub), list(trick), list(won), leader, first
            seat = (lead + len(t)) & 3
            while t or h[seat]:
                c = py_kl_card(h, p, seat, lead, t, w, bids, f)
                assert _kernel.kl_card(h, p, seat, lead, t, w, bids, f) == c, (h, p, seat, lead, t, w, bids, f)
                steps += 1
                p[seat] &= ~forbidden_by_play(t, c, f)
                h[seat] ^= 1 << c
                t.append(c)
                if len(t) == 4:
                    lead = seat = (lead + trick_winner_index(t)) & 3
                    w[lead] += 1
                    t, f = [], False
                else:
                    seat = (seat + 1) & 3
            assert _kernel.play_out(hands, pub, leader, trick, won, bids, first) == w
            assert py_play_out(hands, pub, leader, trick, won, bids, first) == w
    assert steps > 20_000


def test_the_bots_use_the_kernel() -> None:
    assert playout.KERNEL and playout.play_out is _kernel.play_out and playout.kl_card is _kernel.kl_card


def test_bad_input_is_an_error_not_a_crash() -> None:
    assert _kernel is not None
    with pytest.raises(ValueError):
        _kernel.play_out([1, 2, 4], [0, 0, 0, 0], 0, [], [0] * 4, [1] * 4, True)
    with pytest.raises(ValueError):
        _kernel.kl_card([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, [], [0] * 4, [1] * 4, True)
    with pytest.raises(ValueError):
        _kernel.kl_card([1, 2, 4, 8], [0, 0, 0, 0], 0, 0, [60], [0] * 4, [1] * 4, False)
