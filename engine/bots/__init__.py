"""Bots by name.  A bot sees only a :class:`~engine.views.PlayerView` of its own seat.

``decide(name, view, seed)`` is the one entry point the site and the CLI use: it seeds the bot's
random source from ``(seed, view.version, view.seat)`` so a decision is reproducible.

The registry lives in :mod:`.registry`; importing the bot modules here registers the built-in
bots, so every name is known once ``engine.bots`` is imported.
"""

from __future__ import annotations

from . import basic, heuristic, ismcts, league, search, strong
from .registry import (
    AUTOPILOT_LEVEL,
    DEFAULT_BOT,
    LEVELS,
    PLAYER_FACING_LEVELS,
    Bot,
    bot_names,
    decide,
    get_bot,
    register,
    resolve,
)

BOT_NAMES: list[str] = bot_names()

__all__ = ["AUTOPILOT_LEVEL", "BOT_NAMES", "DEFAULT_BOT", "LEVELS", "PLAYER_FACING_LEVELS", "Bot", "basic",
           "bot_names", "decide", "get_bot", "heuristic", "ismcts", "league", "register", "resolve", "search", "strong"]
