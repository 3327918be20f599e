"""Rules of the site suite itself: the database-sensitive files it names are there (a renamed file would
silently stop running on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from conftest import DB_SENSITIVE_FILES

SITE = Path(__file__).parent


def test_every_database_sensitive_file_named_exists() -> None:
    present = {path.name for path in SITE.rglob("test_*.py")}
    assert not DB_SENSITIVE_FILES - present, f"named but not found: {sorted(DB_SENSITIVE_FILES - present)}"
