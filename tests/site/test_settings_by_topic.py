"""Settings by topic (callbreak_site/config/, issue 40): the split kept every setting's name, default and
environment variable (a snapshot taken from the one-file settings before it, settings_snapshot.json); the
environment is read in config/env.py only; app code reads settings, never ``getattr(settings, X, default)``."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from settings_snapshot import CASES, ROOT, SNAPSHOT, settings_under

# Meant changes since the snapshot, each with its reason.
CHANGED = {
    # /metrics reports the push queue's depth too (issue 40, item 10).
    "CELERY_QUEUES_WATCHED": ["celery", "analysis", "push"],
}
# Keys added since the snapshot to settings that are dicts (the rest of each dict keeps its value).
EXTENDED: dict[str, set[str]] = {
    # offline matches uploaded when back online (issue 43): their rate scope and route
    "RATE_LIMITS": {"offline_upload", "following", "challenges"},  # and friends (issue 41)
    "RATE_LIMIT_ROUTES": {"api-offline-matches", "api-follow", "api-block", "api-challenge"},
    # arena tournaments (issue 41): beat's sweep of the arenas (pairing, counting, closing, the schedule)
    "CELERY_BEAT_SCHEDULE": {"sweep-arenas"},
}

# Modules moved into the platform and web wings of games (issue 40, item 7): the settings name the same classes
# and functions by their new dotted paths (middleware, DRF's parser, throttle and error handler, the OpenAPI hook,
# the password hashers, the lockout's client address).
MOVED = {f"games.{name}.": f"games.{wing}.{name}." for wing, names in {
    "platform": ["passwords", "ratelimit"], "web": ["api_errors", "bounds", "openapi", "security", "throttles"],
}.items() for name in names}


def _moved(value: Any) -> Any:
    """``value`` with every dotted path of a moved module written the new way."""
    if isinstance(value, str):
        for before, now in MOVED.items():
            if value.startswith(before):
                return now + value[len(before):]
        return value
    if isinstance(value, dict):
        return {k: _moved(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_moved(v) for v in value]
    return value


# Settings the split added: read before as environment variables or ``getattr`` defaults in app code. Their
# defaults, then the value each takes from its variable.
ADDED: dict[str, tuple[object, str, object]] = {
    "ANALYSIS_BUDGET": (0, "2", 2),
    "ANALYSIS_EAGER": ("thread", "off", "off"),
    "CELERY_DB_REUSE_MAX": (1000, "7", 7),
    "MATCH_STATE_CACHE_SIZE": (2000, "", 2000),  # no variable, as before
    "METRICS_TOKEN": ("", "s3cret", "s3cret"),
    "PROMETHEUS_MULTIPROC_DIR": ("", "/run/metrics", "/run/metrics"),
    "WEB_REQUEST_THREADS": (8, "3", 3),
    "WORKER_METRICS_ADDR": ("127.0.0.1", "0.0.0.0", "0.0.0.0"),
    "WORKER_METRICS_PORT": (0, "9101", 9101),
    "OFFLINE_REPLAY_MAX_BYTES": (65536, "1000", 1000),  # issue 43: an offline match's replay
    "BEAT_LEASE_SECONDS": (30.0, "12", 12.0),  # issue 42: one beat for the site
    # issue 41: watching and friends
    "SPECTATOR_DELAY_SECONDS": (0.0, "30", 30.0),
    "WATCH_TOP_PLAYERS": (100, "20", 20),
    "WATCH_LIST_SIZE": (24, "12", 12),
    "FOLLOWS_PER_USER": (500, "50", 50),
    "TOURNAMENT_STANDINGS_SPACING": (0.25, "1", 1.0),  # issue 41: the standings of a crowd arriving at once
}

# Read the environment: only here (gunicorn reads its file before Django's settings exist; see its comment).
ENV_READERS = {"callbreak_site/config/env.py", "callbreak_site/gunicorn_conf.py"}
READS = {"environ", "getenv", "environb", "getenvb"}


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (30 and 30.0 differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("case", list(CASES))
def test_every_setting_keeps_its_value(case: str) -> None:
    before = json.loads(SNAPSHOT.read_text())[case]
    now = settings_under(CASES[case])
    for name, keys in EXTENDED.items():
        assert keys <= set(now[name])
        now[name] = {k: v for k, v in now[name].items() if k not in keys}
    expected = {**_moved(before), **CHANGED}
    differ = {name: (value, now.get(name, "<missing>")) for name, value in expected.items()
              if not _same(value, now.get(name, "<missing>"))}
    assert differ == {}, "setting: (expected, now)"
    assert set(ADDED) <= set(now)


def test_added_settings_read_their_variables() -> None:
    defaults = settings_under({})
    assert {name: defaults[name] for name in ADDED} == {name: default for name, (default, _, _) in ADDED.items()}
    given = settings_under({name: raw for name, (_, raw, _) in ADDED.items() if raw})
    assert {name: given[name] for name in ADDED} == {name: value for name, (_, _, value) in ADDED.items()}


def _modules(*packages: str, root: Path = ROOT) -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(root)), ast.parse(path.read_text(), str(path)))
            for package in packages for path in sorted((root / package).rglob("*.py"))]


def environment_reads(root: Path = ROOT) -> list[str]:
    """``os.environ`` / ``os.getenv`` (or ``environ``/``getenv`` imported from os) outside ENV_READERS; an entry
    point's ``os.environ.setdefault("DJANGO_SETTINGS_MODULE", ...)`` names the settings and is no read."""
    found = []
    for name, tree in _modules("games", "callbreak_site", root=root):
        if name in ENV_READERS:
            continue
        allowed: set[int] = set()
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault"
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and node.args[0].value == "DJANGO_SETTINGS_MODULE"):
                allowed.add(id(node.func.value))
        for node in ast.walk(tree):
            imported = isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                alias.name in READS for alias in node.names)
            used = (isinstance(node, ast.Attribute) and node.attr in READS and isinstance(node.value, ast.Name)
                    and node.value.id == "os" and id(node) not in allowed)
            if imported or used:
                found.append(f"{name}:{node.lineno}")
    return found


def settings_getattrs(root: Path = ROOT) -> list[str]:
    """``getattr(settings, ...)`` calls: a setting is defined once, with its default, in callbreak_site/config/."""
    found = []
    for name, tree in _modules("games", "callbreak_site", root=root):
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                    and node.args and ast.unparse(node.args[0]).split(".")[-1] == "settings"):
                found.append(f"{name}:{node.lineno}")
    return found


def test_the_environment_is_read_in_config_env_only() -> None:
    assert environment_reads() == []


def test_app_code_reads_settings_without_getattr_defaults() -> None:
    assert settings_getattrs() == []


def test_celery_takes_db_reuse_max_from_the_settings(settings: Any) -> None:
    from callbreak_site.celery import app

    assert app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX == 1000
