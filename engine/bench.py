"""The core's benchmark behind ``python -m engine bench``: a fast random-playout kernel and the figures.

:func:`random_playout` plays the rest of a deal uniformly at random over the legal cards.  Its loop
inlines the rules of :mod:`engine.rules` (``tests/engine/test_bench.py`` checks every card it plays
against :func:`engine.rules.legal_mask`) because a function call per card would halve the speed.  A
uniform pick from a one-suit set is a lookup in ``SUIT_BITS``; only leads and free discards walk the
suits.  :func:`measure` times it with the legal-move function, the seeded deal and a whole replay.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

from .bots import decide
from .deal import deal_masks
from .match import apply, new_match, replay
from .rules import deal_score, legal_mask, trick_winner_index
from .views import player_view

#: ``ABOVE_RANK[r]``: the ranks above rank ``r`` as a 13-bit pattern.
ABOVE_RANK: tuple[int, ...] = tuple(8191 & ~((1 << (r + 1)) - 1) for r in range(13))
#: ``POP13[m]``: the number of cards in the 13-bit suit pattern ``m``.
POP13: tuple[int, ...] = tuple(m.bit_count() for m in range(1 << 13))
#: The three seats that play after ``s`` in a trick.
_NEXT3: tuple[tuple[int, ...], ...] = tuple(tuple((s + i) % 4 for i in (1, 2, 3)) for s in range(4))

#: ``SUIT_BITS[m]``: the ranks (0..12) present in the 13-bit suit pattern ``m``.
SUIT_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)


def random_playout(
    hands: Sequence[int],
    leader: int,
    rng: random.Random,
    trick: Sequence[int] = (),
    won: Sequence[int] = (0, 0, 0, 0),
    first_trick: bool = True,
) -> list[int]:
    """Play the rest of a deal uniformly at random over legal cards; return tricks won per seat.

    ``hands`` are the unplayed cards of each seat (masks), ``trick`` the cards already in the
    current trick led by ``leader``.  Picks are ``getrandbits(32) % n``: twice as fast as scaling a
    float, and the bias (n / 2**32, under 10**-8) is far below anything a bot or a test could see.

    Inside, each hand is four 13-bit suit patterns: small ints are single-digit for CPython, so
    their arithmetic is faster than on 52-bit masks.  Legality also decides the winner: a card
    forced to beat the table, or a spade forced onto an untrumped trick, always takes the lead;
    a free discard never does, so no comparison is needed once a card is picked.
    """
    hs = [[m & 8191, (m >> 13) & 8191, (m >> 26) & 8191, (m >> 39) & 8191] for m in hands]
    won = list(won)
    bits32 = rng.getrandbits
    above = ABOVE_RANK
    suit_bits = SUIT_BITS
    pop = POP13
    nexts = _NEXT3
    first = first_trick
    seat = leader
    followers: tuple[int, ...] = ()
    if trick:
        # Resume a trick in progress: its leading card, whether it is trumped, who is still to play.
        led = trick[0] // 13
        bi = trick_winner_index(trick)
        win = trick[bi]
        winner = (leader + bi) & 3
        wr = win % 13
        trumped = led != 0 and win < 13
        followers = nexts[leader][len(trick) - 1:]
        first = False  # the first lead is already made
    left = -1
    while True:
        if not followers:
            hand = hs[seat]
            if left < 0:
                left = pop[hand[0]] + pop[hand[1]] + pop[hand[2]] + pop[hand[3]]
            if not left:
                return won
            if first:
                first = False
                n = left - pop[hand[0]]
                if n:
                    k = bits32(32) % n
                    led = 1
                else:
                    k = bits32(32) % left
                    led = 0
            else:
                k = bits32(32) % left
                led = 0
            while True:
                bits = suit_bits[hand[led]]
                if k < len(bits):
                    wr = bits[k]
                    break
                k -= len(bits)
                led += 1
            hand[led] ^= 1 << wr
            winner = seat
            trumped = False
            followers = nexts[seat]
        for p in followers:
            hand = hs[p]
            same = hand[led]
            if same:
                if not trumped:
                    beat = same & above[wr]
                    if beat:
                        bits = suit_bits[beat]
                        wr = bits[bits32(32) % len(bits)] if len(bits) > 1 else bits[0]
                        hand[led] = same ^ (1 << wr)
                        winner = p
                        continue
                bits = suit_bits[same]
                hand[led] = same ^ (1 << (bits[bits32(32) % len(bits)] if len(bits) > 1 else bits[0]))
                continue
            sp = hand[0]
            if sp and trumped:
                sp &= above[wr]
            if sp:
                bits = suit_bits[sp]
                wr = bits[bits32(32) % len(bits)] if len(bits) > 1 else bits[0]
                hand[0] ^= 1 << wr
                winner = p
                trumped = True
                continue
            k = bits32(32) % (pop[hand[0]] + pop[hand[1]] + pop[hand[2]] + pop[hand[3]])
            s = 0
            while True:
                bits = suit_bits[hand[s]]
                if k < len(bits):
                    hand[s] ^= 1 << bits[k]
                    break
                k -= len(bits)
                s += 1
        won[winner] += 1
        seat = winner
        followers = ()
        if left > 0:
            left -= 1
        else:
            left = -1  # after a resumed trick: count the next leader's cards afresh


def random_deal_scores(hands: Sequence[int], dealer: int, rng: random.Random) -> list[int]:
    """A whole random deal from dealt hands: uniform bids 1..13, random play, scores in tenths."""
    bids = [rng.randint(1, 13) for _ in range(4)]
    won = random_playout(hands, (dealer + 1) % 4, rng)
    return [deal_score(b, w) for b, w in zip(bids, won, strict=True)]


# --- The figures of ``python -m engine bench`` ------------------------------------------------------

def _rate(fn: Callable[[], int], seconds: float) -> float:
    """Operations per CPU second of ``fn`` (which returns how many it did), over about ``seconds``.

    CPU time of this process, not wall time: on a shared machine other processes' load would
    otherwise be counted against the engine.
    """
    done = 0
    start = time.process_time()
    while True:
        done += fn()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def measure(runs: int, seconds: float) -> tuple[dict[str, float], int]:
    """The core's figures, each the median of ``runs`` runs of about ``seconds``; and the replayed log's length.

    Random full-deal playouts from dealt hands per second, legal-move calls per second on positions
    from real random play, microseconds per seeded deal, milliseconds per replay of a whole match,
    and the memory held by a finished match state.
    """
    rng = random.Random(2026)
    deals = [(deal_masks(f"bench-{i}", 1, i % 4), i % 4) for i in range(200)]

    def playouts() -> int:
        for hands, dealer in deals:
            random_playout(hands, (dealer + 1) % 4, rng)
        return len(deals)

    # Legal-move positions taken from real random play: (hand, trick so far, first trick).
    positions: list[tuple[int, list[int], bool]] = []
    state = new_match("bench-positions")
    while state.turn is not None and len(positions) < 2000:
        view = player_view(state, state.turn)
        if not view.legal_bids:
            positions.append((view.hand, list(view.trick), view.first_trick))
        state = apply(state, decide("random", view, "bench"))
        if state.turn is None:
            state = new_match(f"bench-positions-{len(positions)}")

    def legal_calls() -> int:
        for hand, trick, first in positions:
            legal_mask(hand, trick, first)
        return len(positions)

    seeds = [f"deal-{i}" for i in range(200)]

    def dealing() -> int:
        for s in seeds:
            deal_masks(s, 1, 0)
        return len(seeds)

    game = new_match("bench-replay")
    while game.turn is not None:
        game = apply(game, decide("random", player_view(game, game.turn), "bench"))
    log = game.actions

    def replays() -> int:
        replay("bench-replay", log)
        return 1

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = replay("bench-replay", log)
    state_kib = (tracemalloc.get_traced_memory()[0] - before) / 1024
    tracemalloc.stop()
    del kept

    figures = {
        "random_playouts_per_s": statistics.median(_rate(playouts, seconds) for _ in range(runs)),
        "legal_move_calls_per_s": statistics.median(_rate(legal_calls, seconds) for _ in range(runs)),
        "seeded_deal_us": 1e6 / statistics.median(_rate(dealing, seconds) for _ in range(runs)),
        "match_replay_ms": 1e3 / statistics.median(_rate(replays, seconds) for _ in range(runs)),
        "finished_match_state_kib": state_kib,
    }
    return figures, len(log)
