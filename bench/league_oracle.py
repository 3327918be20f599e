"""``bench/league.py`` with ``oracle``: ``strong`` whose card search is handed the real hidden hands.

``oracle-bids`` is handed them in its bid's simulation too.

The ceiling of any belief: ``oracle`` is ``strong`` (the same bid, the same tree, the same play-outs of the others
by their posterior styles) except that every world of its card search is the true deal, read from the match's
state.  It cheats, so it exists only in this process and its forked workers (never a bot of the site).  What it
gains over ``strong`` against a style is the most that a better reading of the hidden cards could add there.

    PYTHONPATH=. nice -n 19 .venv/bin/python bench/league_oracle.py --bots oracle,strong \
        --styles spar-sim --seeds 25 --seed oracle-1 --jobs 2 --out /tmp/oracle-1.jsonl
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import league  # noqa: E402  (bench/league.py, beside this file)

import engine.tournament as tournament  # noqa: E402
from engine.bots import search, strong  # noqa: E402
from engine.bots.posterior import refine as _real_refine  # noqa: E402
from engine.bots.registry import register  # noqa: E402
from engine.bots.sampler import sample_hands as _real_sample_hands  # noqa: E402
from engine.bots.search import (  # noqa: E402
    STRONG_FOREIGN_BONUS,
    STRONG_NAMED_MODELS,
    STRONG_RANK,
    STRONG_SEARCH_BONUS,
    SearchBot,
)
from engine.match import MatchState  # noqa: E402
from engine.views import PlayerView  # noqa: E402
from engine.views import player_view as _real_view  # noqa: E402

_current: list[MatchState] = []  # the state whose view is being decided (one match at a time per process)


def _spy_view(state: MatchState, seat: int | None) -> PlayerView:
    _current[:] = [state]
    return _real_view(state, seat)


def _true_worlds(worlds: Sequence[Sequence[int]], model: Any, steps: int, seed: int) -> list[list[int]]:
    """Every world the true deal: the hands as they are now (the sampled worlds hold the same counts)."""
    hands = list(_current[0].hands)
    counts = [bin(h).count("1") for h in hands]
    assert counts == [bin(h).count("1") for h in worlds[0]], (counts, worlds[0])
    return [list(hands) for _ in worlds]


def _true_hands(unseen: int, allowed: Any, counts: Any, seats: Any, rng: Any) -> list[int]:
    """The bid's deals: every one the true deal."""
    return list(_current[0].hands)


class OracleBot(SearchBot):
    """``strong`` whose card search reads the real hands (with ``bids``, its bid's simulation too)."""

    def __init__(self, bids: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.oracle_bids = bids

    def choose(self, view: PlayerView, rng: Any) -> Any:
        setattr(search, "refine", _true_worlds)  # noqa: B010  (search.py's own name for it)
        if self.oracle_bids:
            setattr(strong, "sample_hands", _true_hands)  # noqa: B010  (strong.py's bid simulation)
        try:
            return super().choose(view, rng)
        finally:
            setattr(search, "refine", _real_refine)  # noqa: B010
            setattr(strong, "sample_hands", _real_sample_hands)  # noqa: B010


if __name__ == "__main__":
    setattr(tournament, "player_view", _spy_view)  # noqa: B010  (play_match's own name for it)
    settings: dict[str, Any] = {"models": STRONG_NAMED_MODELS, "rank": STRONG_RANK,
                                "foreign_bid_bonus": STRONG_FOREIGN_BONUS, "search_bid_bonus": STRONG_SEARCH_BONUS}
    register("oracle", lambda: OracleBot(**settings))
    register("oracle-bids", lambda: OracleBot(bids=True, **settings))
    league.main()
