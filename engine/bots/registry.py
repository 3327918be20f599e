"""The bot registry: the ``Bot`` protocol, bots by name and by level, and ``decide``.

Each bot module registers its kinds here when imported; :mod:`engine.bots` imports them all, so
``import engine.bots`` is enough to find every built-in bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..errors import EngineError
from ..match import Action
from ..views import PlayerView


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The bot's bid or card for ``view`` (whose seat is to move)."""
        ...


_FACTORIES: dict[str, Callable[[], Bot]] = {}
#: Levels offered to people, mapped to bot kinds.
LEVELS: dict[str, str] = {"easy": "heuristic-noisy", "normal": "heuristic", "hard": "strong"}
DEFAULT_BOT = "normal"
#: The levels a person picks from by name, in the order a picker lists them (the other names, ``random``,
#: ``strong-v1``..., serve tests, benchmarks and unrated tables).  The site reads the policy from here only.
PLAYER_FACING_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: The level that plays an expired turn, a resigned seat and a seat handed over to a bot.
AUTOPILOT_LEVEL = "normal"


def register(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    return sorted(_FACTORIES) + sorted(LEVELS)


def resolve(name: str) -> str:
    """The bot kind behind a name or a level."""
    kind = LEVELS.get(name, name)
    if kind not in _FACTORIES:
        raise EngineError(f"unknown bot {name!r}: choose one of {', '.join(bot_names())}", "unknown_bot")
    return kind


def get_bot(name: str) -> Bot:
    return _FACTORIES[resolve(name)]()


def decide(name: str, view: PlayerView, seed: str | int = 0) -> Action:
    """Bot ``name``'s action for ``view``; the same (view, seed) always gives the same action."""
    if not view.my_turn:
        raise EngineError(f"it is not seat {view.seat}'s turn", "not_your_turn")
    rng = random.Random(f"{seed}:{view.version}:{view.seat}")
    return get_bot(name).choose(view, rng)
