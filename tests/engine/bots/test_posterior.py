"""The belief's Markov chain (engine/bots/posterior.py): correct, the same in C and Python, and useful."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from engine.bots import decide
from engine.bots.evaluation import estimate_tricks
from engine.bots.heuristic import bid_for
from engine.bots.inference import knowledge
from engine.bots.playout import SplitMix64
from engine.bots.posterior import PlayEvidence, SeatModel, py_refine, refine
from engine.bots.sampler import sample_worlds
from engine.match import Action
from engine.views import PlayerView
from tests.engine.kernel import KERNEL as _kernel
from tests.engine.kernel import needs_kernel
from tests.engine.positions import walk


def heuristic(view: PlayerView) -> Action:
    return decide("heuristic", view, "x")


def _positions(seed: str, tricks: tuple[int, ...]) -> list[tuple[PlayerView, list[int]]]:
    """Views of real heuristic deals at the start of some tricks, with the real hands."""
    return [(view, list(state.hands)) for state, _, view in walk(seed, heuristic, deals=5)
            if view.legal_cards and len(state.tricks) in tricks and not view.trick]


def test_splitmix64_is_the_published_generator() -> None:
    """The reference outputs of SplitMix64 from seed 0 (the C kernel computes the same numbers)."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64(1)
    assert all(0 <= rng.below(7) < 7 for _ in range(1000))
    assert all(0.0 <= rng.uniform() < 1.0 for _ in range(1000))


@needs_kernel
def test_the_kernel_counts_tricks_and_bids_as_python() -> None:
    assert _kernel is not None
    rng = random.Random(3)
    for _ in range(5000):
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        est = estimate_tricks(hand)
        assert _kernel.estimate_tricks(hand) == est
        totals = [rng.randrange(-150, 400) for _ in range(4)]
        for deal in (1, 5):
            me = rng.randrange(4)
            assert _kernel.bid_for(est, me, totals, deal) == bid_for(est, me, totals, deal)


@needs_kernel
def test_the_kernel_runs_the_python_chain_step_for_step() -> None:
    """Same worlds in, same seed: the same worlds out, at every stage of real deals (all five deals)."""
    rng = random.Random(4)
    compared = 0
    for view, _ in _positions("posterior-same", (1, 4, 8, 11)):
        kn = knowledge(view)
        model = SeatModel(view, kn.played_by, kn.allowed, bid_miss=0.3, play_miss=0.1)
        worlds = [hands for hands, _ in sample_worlds(kn, view.bids, 6, rng)]
        assert refine(worlds, model, 80, 99) == py_refine(worlds, model, 80, 99)
        compared += 1
    assert compared >= 15


def test_the_chain_keeps_every_hard_reading_and_hand_size() -> None:
    rng = random.Random(5)
    for view, _ in _positions("posterior-hard", (2, 6, 10)):
        kn = knowledge(view)
        model = SeatModel(view, kn.played_by, kn.allowed, bid_miss=0.3, play_miss=0.1)
        for hands in refine([h for h, _ in sample_worlds(kn, view.bids, 8, rng)], model, 200, 7):
            assert hands[kn.me] == kn.hand
            for s in range(4):
                if s != kn.me:
                    assert hands[s] & ~kn.allowed[s] == 0
                    assert hands[s].bit_count() == kn.counts[s]
            assert hands[0] | hands[1] | hands[2] | hands[3] == kn.unseen | kn.hand


def test_the_chain_finds_worlds_that_explain_the_plays() -> None:
    """A few tricks in, few drawn worlds explain every card the others played; after the chain most do
    (with a miss costing a world × 0.01; at × 0.1 the model itself leaves about half the weight on worlds
    that miss one card, there being so many more of them)."""
    rng = random.Random(6)
    before = after = total = 0
    for view, real in _positions("posterior-explain", (4, 6)):
        kn = knowledge(view)
        evidence = PlayEvidence(view, 0.1)
        assert evidence.weight(real) == 1.0
        model = SeatModel(view, kn.played_by, kn.allowed, bid_miss=0.3, play_miss=0.01)
        drawn = [h for h, _ in sample_worlds(kn, view.bids, 40, rng)]
        before += sum(evidence.weight(h) == 1.0 for h in drawn)
        after += sum(evidence.weight(h) == 1.0 for h in refine(drawn, model, 1000, 11))
        total += len(drawn)
    assert total >= 400
    assert before < 0.25 * total and after > 0.6 * total, (before, after, total)


def test_the_chain_samples_the_model_weights() -> None:
    """Late in a deal the worlds can be listed: many chains' end points follow the model's weights as closely
    as independent draws from those weights do, and a chain stopped after two steps does not."""
    view = next(v for v, _ in _positions("posterior-exact", (10,)))
    kn = knowledge(view)
    model = SeatModel(view, kn.played_by, kn.allowed, bid_miss=0.3, play_miss=0.3)
    others = [s for s in range(4) if s != kn.me]
    cards = [c for c in range(52) if kn.unseen >> c & 1]
    exact: dict[tuple[int, ...], float] = {}
    for perm in set(itertools.permutations([s for s in others for _ in range(kn.counts[s])])):
        hands = [0, 0, 0, 0]
        for c, s in zip(cards, perm, strict=True):
            hands[s] |= 1 << c
        if all(hands[s] & ~kn.allowed[s] == 0 for s in others):
            hands[kn.me] = kn.hand
            w = 1.0
            for s in others:
                w *= model.factor(s, hands[s])
            exact[tuple(hands)] = w
    assert 50 <= len(exact) <= 1000
    total = sum(exact.values())
    n = 20_000
    start = [list(min(exact))] * n

    def distance(seen: Counter[tuple[int, ...]]) -> float:
        """Total variation distance from the exact weights."""
        assert set(seen) <= set(exact)
        return 0.5 * sum(abs(seen[w] / n - exact[w] / total) for w in exact)

    independent = distance(Counter(random.Random(1).choices(list(exact), list(exact.values()), k=n)))
    assert distance(Counter(tuple(h) for h in refine(start, model, 60, 13))) < 1.5 * independent
    assert distance(Counter(tuple(h) for h in refine(start, model, 2, 13))) > 0.5
