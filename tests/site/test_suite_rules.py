"""Rules of the site suite itself: the database-sensitive files it names are there (a renamed file would
silently stop running on PostgreSQL); a test's left-over writer does not break the tests after it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from conftest import DB_SENSITIVE_FILES, _wait_for_sqlite_writers

SITE = Path(__file__).parent


def test_every_database_sensitive_file_named_exists() -> None:
    present = {path.name for path in SITE.rglob("test_*.py")}
    assert not DB_SENSITIVE_FILES - present, f"named but not found: {sorted(DB_SENSITIVE_FILES - present)}"


@pytest.mark.django_db(transaction=True)
def test_the_database_is_emptied_only_after_a_left_over_write_lets_go() -> None:
    """A thread still writing when a test ends (a socket's disconnect) holds SQLite's lock: the end of the test
    waits for it rather than fail to empty the database (which broke every later test of the process)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's shared-cache lock only")
    started, done = threading.Event(), []

    def writer() -> None:
        from django.db import connection as own

        with own.cursor() as cursor:
            cursor.execute("BEGIN IMMEDIATE")
            started.set()
            time.sleep(0.5)
            cursor.execute("ROLLBACK")
        done.append(time.monotonic())
        own.close()

    thread = threading.Thread(target=writer)
    thread.start()
    started.wait(5)
    _wait_for_sqlite_writers()
    waited_until = time.monotonic()
    thread.join()
    assert done and waited_until >= done[0] - 0.01  # it waited for the writer to let go
