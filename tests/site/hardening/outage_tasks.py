"""Tasks for the worker of ``test_worker_outage_realstack`` (loaded with ``celery worker -I hardening.outage_tasks``):
holds that keep a late-acked message in flight until the test lets it go, and a mark that says a task ran."""

from __future__ import annotations

import time
from pathlib import Path

from callbreak_site.celery import app

HOLD = "tests.outage.hold"
TOUCH = "tests.outage.touch"


@app.task(name=HOLD)  # type: ignore[untyped-decorator]
def hold(release: str, at_most: float) -> None:
    """Running until the file ``release`` exists (``at_most`` seconds)."""
    deadline = time.monotonic() + at_most
    while not Path(release).exists() and time.monotonic() < deadline:
        time.sleep(0.05)


@app.task(name=TOUCH)  # type: ignore[untyped-decorator]
def touch(path: str) -> None:
    Path(path).write_text("ran")
