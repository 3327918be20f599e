"""The import-linter contracts of games (pyproject.toml) cover every module of games: each lies inside a layer
that a layers contract names, a concept, a wing (``games.platform``, ``games.web``) or a module at the root, so a
module added loose at the root of games, or in a concept package no contract names, fails here by name instead of
slipping out of every rule. And every concept's ``commands`` and ``reads`` are among those that send no task."""

from __future__ import annotations

import pkgutil
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import games

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
SEND_NO_TASK = "games: commands and reads send no task"


def contracts() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    return found


def games_layers() -> list[dict[str, Any]]:
    """The layers contracts that name modules of games."""
    return [c for c in contracts() if any(m == "games" or m.startswith("games.") for m in _named(c))]


def _named(contract: dict[str, Any]) -> list[str]:
    """The modules a layers contract names: each layer's siblings (``a | b``, ``a : b``), under each container."""
    if contract["type"] != "layers":
        return []
    names = []
    for container in contract.get("containers", [""]):
        for layer in contract["layers"]:
            for sibling in re.split(r"[|:]", layer):
                name = sibling.strip().strip("()").strip()
                names.append(f"{container}.{name}" if container else name)
    return names


def layer_names(contracts: Iterable[dict[str, Any]]) -> set[str]:
    return {name for contract in contracts for name in _named(contract)}


def modules_of_games() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(games.__path__, "games."))


def uncovered(modules: Iterable[str], names: set[str]) -> list[str]:
    """The modules in no named layer: neither one of them nor inside one (the root package ``games`` aside)."""
    return [m for m in modules if m != "games" and not any(m == n or m.startswith(n + ".") for n in names)]


def test_the_walk_finds_the_rooms() -> None:
    modules = modules_of_games()
    assert {"games.apps", "games.platform.outbox", "games.web.api_errors", "games.matches.commands",
            "games.matches.botturns.tasks", "games.migrations"} <= set(modules)


def test_every_module_of_games_is_in_a_layer() -> None:
    loose = uncovered(modules_of_games(), layer_names(games_layers()))
    assert not loose, (f"in no layer of pyproject.toml's games contracts: {', '.join(loose)}; put each in a "
                       "concept or a wing (games.platform, games.web), or name it there")


def test_a_loose_module_is_caught() -> None:
    names = layer_names(games_layers())
    added = ["games.loose", "games.platform.clock", "games.web.cookies", "games.newconcept.commands",
             "games.matches.newpart", "games.urlsextra"]
    assert uncovered(added, names) == ["games.loose", "games.newconcept.commands", "games.urlsextra"]


def test_every_concepts_commands_and_reads_send_no_task() -> None:
    (contract,) = [c for c in contracts() if c["name"] == SEND_NO_TASK]
    named = [m for m in modules_of_games() if re.fullmatch(r"games\.[a-z_]+\.(commands|reads)", m)
             and not m.startswith("games.management.")]
    assert named
    missing = sorted(set(named) - set(contract["source_modules"]))
    assert not missing, f"not among the sources of {SEND_NO_TASK!r}: {', '.join(missing)}"

