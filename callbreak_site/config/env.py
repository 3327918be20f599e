"""The one place the environment is read: typed helpers for the settings' modules.

A variable that is unset, or set to the empty string, gives the default for numbers and booleans; strings keep
an empty value (``CACHE_URL=`` turns the shared cache off even with ``REDIS_URL`` set). A number that does not
parse stops the process at start, naming nothing but Python's error.
"""

from __future__ import annotations

import os

TRUE = frozenset({"1", "true", "yes", "on"})


def env_str(name: str, default: str = "") -> str:
    """The variable as it is set (an empty value stays empty), else ``default``."""
    return os.environ.get(name, default)


def _raw(name: str) -> str | None:
    raw = os.environ.get(name)
    return None if raw is None or raw.strip() == "" else raw


def env_int(name: str, default: int) -> int:
    raw = _raw(name)
    return default if raw is None else int(raw)


def env_float(name: str, default: float) -> float:
    raw = _raw(name)
    return float(default if raw is None else raw)


def env_bool(name: str, default: bool) -> bool:
    """``1``, ``true``, ``yes``, ``on`` (any case) are true, any other value false; unset or empty: ``default``."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in TRUE


def env_list(name: str, default: str, *, strip: bool = False) -> list[str]:
    """The comma-separated items of the variable (or of ``default``), empty ones left out; ``strip``: each item
    without its surrounding blanks (and one of blanks only left out)."""
    items = env_str(name, default).split(",")
    if strip:
        items = [item.strip() for item in items]
    return [item for item in items if item]


def env_rate(scope: str, default: str) -> str:
    """A rate limit's rate (``RATE_LIMIT_<SCOPE>``, e.g. ``RATE_LIMIT_SIGNUP=1000/hour``), else ``default``."""
    return env_str(f"RATE_LIMIT_{scope.upper()}", default)
