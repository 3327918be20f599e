"""Fixtures for the site tests, and the rule for `realstack` tests.

`realstack` tests need PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). Without them they skip
with the reason shown, except under CI=true, where they run and so fail loudly.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any
from urllib.parse import urlparse

import pytest
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD, client_for


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def realstack_missing() -> str | None:
    db, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not db.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL is not a PostgreSQL URL (run `make test-realstack`)"
    if not redis.startswith("redis://"):
        return "REDIS_URL is not set (run `make test-realstack`)"
    if not _reachable(db, 5432):
        return f"PostgreSQL is not reachable at {db}"
    if not _reachable(redis, 6379):
        return f"Redis is not reachable at {redis}"
    return None


# The site tests whose outcome can depend on the database, by file name (the name stays when a file moves):
# row locks and SKIP LOCKED, unique constraints and the races they settle, collation and odd characters, NUL
# bytes, migrations, query counts, transactions and connection faults, deadlines found by query. `make test`
# runs these on PostgreSQL (`-m db_sensitive`, as production) and the rest of the site suite on SQLite; without
# a reachable PostgreSQL, all of it on SQLite. A test elsewhere can say so itself with `@pytest.mark.db_sensitive`.
DB_SENSITIVE_FILES = frozenset({
    "test_one_name_rule.py", "test_guests.py", "test_bot_accounts.py", "test_ladder.py",
    "test_upgrade_while_seeking.py", "test_bounded_input.py", "test_faults.py", "test_odd_characters.py",
    "test_passwords.py", "test_pools.py", "test_task_retries.py", "test_username_skeleton.py",
    "test_commands.py", "test_chat.py", "test_correspondence.py", "test_owed_bot_moves.py", "test_queries.py",
    "test_notices.py", "test_quickmatch.py", "test_one_tap_rematch.py", "test_room_codes.py", "test_deploy.py",
    "test_outbox.py", "test_ratings.py", "test_friends.py", "test_arenas.py",
})


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        if item.path.name in DB_SENSITIVE_FILES:
            item.add_marker(pytest.mark.db_sensitive)
    if os.environ.get("CI", "").lower() == "true":
        return
    db = os.environ.get("DATABASE_URL", "")
    if db.startswith(("postgres://", "postgresql://")) and not _reachable(db, 5432):
        for item in items:  # the whole suite was asked to run on PostgreSQL, which is not there
            item.add_marker(pytest.mark.skip(reason=f"PostgreSQL is not reachable at {db}"))
        return
    reason = realstack_missing()
    if reason is None:
        return
    for item in items:
        if "realstack" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _settle_eager_threads() -> Any:
    """A test's eager background tasks (the quick match's pairing timer) end with it: left running, one
    would write into the next test's database (SQLite's shared cache then says "database table is locked").
    A socket a test left open may still be writing (its disconnect, in a thread, after the test's event loop
    closed): on SQLite the database is emptied for the next test only once that write has let go of it, or the
    failed emptying breaks every test after it in this process."""
    yield
    from games.platform import outbox

    outbox.settle_eager_threads()
    _wait_for_sqlite_writers()


def _wait_for_sqlite_writers(timeout: float = 10.0) -> None:
    from django.db import OperationalError, connection

    if connection.vendor != "sqlite" or connection.in_atomic_block:  # a test in a transaction: rolled back
        return
    deadline = time.monotonic() + timeout
    while True:
        try:
            with connection.cursor() as cursor:
                cursor.execute("BEGIN IMMEDIATE")
                cursor.execute("ROLLBACK")
            return
        except RuntimeError:  # a test without database access: nothing of its own to wait for
            return
        except OperationalError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


@pytest.fixture
def make_user(django_user_model: Any) -> Any:
    counter = {"n": 0}

    def make(username: str | None = None, **extra: Any) -> Any:
        counter["n"] += 1
        name = username or f"player{counter['n']}"
        return django_user_model.objects.create_user(username=name, password=PASSWORD, **extra)

    return make


@pytest.fixture
def user(make_user: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def api(user: Any) -> APIClient:
    return client_for(user)


@pytest.fixture
def root(django_user_model: Any) -> Client:
    """A browser logged in as a superuser, for the admin."""
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    c = Client()
    assert c.login(username="root", password=PASSWORD)
    return c


@pytest.fixture
def admin_client_(root: Client) -> Client:
    """The same superuser's browser, under the name the admin tests of users and match logs use."""
    return root


@pytest.fixture(scope="session", autouse=True)
def _end_stray_database_sessions(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """Before Django drops the PostgreSQL test database, end sessions other threads left open.

    Channels runs ORM calls in worker threads whose connections outlive the tests; without this the
    drop fails ("being accessed by other users") and every run leaves a database behind.
    """
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _reviews_run_when_a_test_runs_them(settings: Any) -> None:
    """In eager mode a finished match's review runs in a background thread (``make run``); a test that
    wants one runs the task itself, so no thread outlives a test or races its database."""
    settings.ANALYSIS_EAGER = "off"


@pytest.fixture(autouse=True)
def _limits_where_they_are_tested(request: Any, settings: Any) -> None:
    """Site tests play whole matches as fast as the test client can, far faster than any person (a user's
    actions are limited to 20 a second): the limits are on only in tests marked ``rate_limits``, which
    test them and test that normal play never meets them."""
    settings.RATE_LIMITS_ON = request.node.get_closest_marker("rate_limits") is not None


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    """Rate-limit counters and cached profiles live in the cache: each test starts without the previous
    tests' (a rolled-back database gives the next test's users the same ids)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
