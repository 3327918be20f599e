"""The engine's imports: the standard library only, no function-level imports, and no cycles.

``engine.bots`` is layered (a module imports only modules of lower layers, modules of one layer
not each other): the layering the import-linter contracts state, checked here from the source.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import engine

ROOT = Path(engine.__file__).parent

#: engine.bots, highest layer first; modules in one tuple are independent of each other.
BOT_LAYERS: list[tuple[str, ...]] = [
    ("league",),
    ("search", "ismcts"),
    ("styles",),
    ("strong", "posterior", "opponents"),
    ("basic", "playout", "spar_rules"),
    ("heuristic", "sampler"),
    ("inference",),
    ("evaluation",),
    ("registry", "native"),
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[str, ast.stmt]]:
    """Every ``engine...`` or standard-library module ``path`` imports, as absolute names."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, ast.stmt]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.extend((a.name, node) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if node.module is None or node.level and not node.module:
                # ``from . import x``: each name may be a submodule.
                out.extend((f"{module}.{a.name}", node) for a in node.names)
            else:
                out.append((module, node))
    return out


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for imported, _ in _imports(path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                deps.add(imported)
        graph[name] = deps
    return graph


def test_engine_imports_nothing_but_the_standard_library() -> None:
    for path in ROOT.rglob("*.py"):
        for name, _ in _imports(path):
            top = name.split(".")[0]
            assert top == "engine" or top in sys.stdlib_module_names, f"{path}: imports {name}"


def test_engine_imports_at_module_level_only() -> None:
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text())
        top_level = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert id(node) in top_level, f"{path}:{node.lineno}: an import inside a function or block"


def test_no_import_cycles_between_engine_modules() -> None:
    """Packages included: ``engine.bots`` imports its bot modules, so none of them may import it back."""
    graph = _graph()
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        assert m not in path, "import cycle: " + " -> ".join([*path[path.index(m):], m])
        if m in done:
            return
        for d in graph[m]:
            visit(d, [*path, m])
        done.add(m)

    for m in graph:
        visit(m, [])


def test_bots_are_layered() -> None:
    graph = _graph()
    layer_of = {f"engine.bots.{m}": i for i, layer in enumerate(BOT_LAYERS) for m in layer}
    assert set(layer_of) == {m for m in graph if m.startswith("engine.bots.")}, "a bot module not in BOT_LAYERS"
    for m, i in layer_of.items():
        for d in graph[m]:
            if d in layer_of:
                assert layer_of[d] > i, f"{m} (layer {i}) imports {d} (layer {layer_of[d]})"
