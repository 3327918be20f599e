"""``bench/league.py`` with experimental variants of ``strong`` registered first, for short A/B runs.

The variants exist in this process and its forked workers only (never a bot of the site); the table is
``bench/league.py``'s.  Name them in ``--bots`` beside registered bots:

    PYTHONPATH=. nice -n 19 .venv/bin/python bench/league_ab.py --bots x-noise0,strong-v3 \
        --styles spar-sim,spar-target,ismcts --seeds 5 --seed ab-1 --jobs 2 --out /tmp/ab-1.jsonl
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import league  # noqa: E402  (bench/league.py, beside this file)

from engine.bots.registry import Bot, register  # noqa: E402
from engine.bots.search import (  # noqa: E402
    STRONG_FOREIGN_BONUS,
    STRONG_MODELS,
    STRONG_NAMED_MODELS,
    STRONG_RANK,
    STRONG_SEARCH_BONUS,
    SearchBot,
)
from engine.bots.styles import CAUTIOUS, GREEDY, ISMCTS, LENGTH, PLAYOUT_NOISE, SEARCHES, SIM  # noqa: E402


def _v3(**kw: object) -> Callable[[], Bot]:
    """``strong-v3`` with some of its settings changed."""
    base: dict[str, object] = {"models": STRONG_MODELS, "rank": STRONG_RANK, "foreign_bid_bonus": STRONG_FOREIGN_BONUS}
    base.update(kw)
    return lambda: SearchBot(**base)  # type: ignore[arg-type]


def _named(**kw: object) -> Callable[[], Bot]:
    """``strong`` (models ``bpn``) with some of its settings changed."""
    base: dict[str, object] = {"models": STRONG_NAMED_MODELS, "rank": STRONG_RANK,
                               "foreign_bid_bonus": STRONG_FOREIGN_BONUS, "search_bid_bonus": STRONG_SEARCH_BONUS}
    base.update(kw)
    return lambda: SearchBot(**base)  # type: ignore[arg-type]


def _search_noise(share: float) -> tuple[float, ...]:
    """:data:`PLAYOUT_NOISE` with the three searches' share of random cards in the play-outs set to ``share``."""
    return tuple(share if k in SEARCHES else n for k, n in enumerate(PLAYOUT_NOISE))


VARIANTS: dict[str, Callable[[], Bot]] = {
    # the play-outs play every other seat as the heuristic or the greedy trick-taker, never a random card
    "x-noise0": _v3(noise_scale=0.0),
    # at a foreign table the bid's simulation takes a trick off the bidder in 20% of its deals
    "x-malus": _v3(foreign_bid_bonus=-0.2),
    # the named styles' posterior (engine/bots/styles.py) in the belief, the play-outs and the bid's bonus
    "x-named": _v3(models="bpn"),
    # the same, the bid's simulation taking a trick off the bidder in 20% of its deals at a table of searches
    "x-named-m": _v3(models="bpn", search_bid_bonus=-0.2),
    # strong (x-named-m) whose play-outs play a seat drawn as spar-cautious or spar-length by that style's own card
    # rule (the kernel's rule_card), without random cards; -n: with 0.1 random cards; -g: spar-greedy too
    "x-rules": _named(own_rules=(CAUTIOUS, LENGTH)),
    "x-rules-n": _named(own_rules=(CAUTIOUS, LENGTH), rule_noise=0.1),
    "x-rules-g": _named(own_rules=(CAUTIOUS, LENGTH, GREEDY)),
    # strong whose posterior reads spar-sim's bids by the line of bench/sim_bid_fit.py (styles.sim_line_bid); -r:
    # and x-rules' play-outs
    "x-sim": _named(sim_line=True),
    "x-sim-r": _named(sim_line=True, own_rules=(CAUTIOUS, LENGTH)),
    # strong whose play-outs play a seat read as a search with 0.2 random cards (0.54-0.56 fitted); -g: spar-sim and
    # ismcts, which search for their own tricks, as the greedy trick-taker with them
    "x-n20": _named(noise_of=_search_noise(0.2)),
    "x-g20": _named(noise_of=_search_noise(0.2), greedy=(GREEDY, SIM, ISMCTS)),
}

if __name__ == "__main__":
    for name, factory in VARIANTS.items():
        register(name, factory)
    league.main()
