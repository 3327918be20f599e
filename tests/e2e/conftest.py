"""End-to-end fixtures: a live ASGI server (daphne) in a subprocess and Debian's Chromium.

The server runs the embedded settings (SQLite file in a temp dir, in-memory channel layer, Celery
eager) so bots answer at once. Chromium is `/usr/bin/chromium`; never `playwright install`.
Without Chromium the tests skip with the reason shown, except under CI=true, where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import keep_pages, new_context

from tests.stack import free_port, port_listens, running

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _vapid_pair() -> tuple[str, str]:
    """A VAPID key pair (public, private), base64url, as `manage.py vapid_keys` prints them."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64(public), b64(key.private_numbers().private_value.to_bytes(32, "big"))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def site_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The server's environment (its database file among it), for ``manage``."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"}}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "callbreak_site.settings",
            "SQLITE_PATH": str(tmp / "e2e.sqlite3"),
            "DEBUG": "1",
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "BOT_DELAY_SECONDS": "0",
            # the review of a finished match runs in a thread of the server at its end, with a small budget
            "ANALYSIS_EAGER": "thread",
            "ANALYSIS_BUDGET": "2",
            "PYTHONUNBUFFERED": "1",
            # Web Push on, with a pair made for this run; the push tests' stand-in subscriptions point at loopback
            **dict(zip(("VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"), _vapid_pair(), strict=True)),
            "VAPID_SUBJECT": "mailto:e2e@callbreak.example",
            "PUSH_ALLOW_HTTP_HOSTS": "127.0.0.1",
            # quick match: bots fill the empty seats after a short wait (the timer is a thread of the server)
            "QUICK_MATCH_BOTS_AFTER": "6",
            # arenas: a free person gets bots after a short wait too (the timer is a thread of the server)
            "TOURNAMENT_BOTS_AFTER": "6",
            "TOURNAMENT_SCHEDULE": "0",
            # no beat here to tell a change held back by the 3 s spacing: who is here is told at every change
            "QUICK_MATCH_HERE_SECONDS": "0",
            # every browser test signs up its people from 127.0.0.1: more than the 30 an hour one address may
            # (that limit is tested in tests/site)
            "RATE_LIMIT_SIGNUP": "1000/hour",
        }
    )
    env["E2E_TMP"] = str(tmp)
    return env


@pytest.fixture(scope="session")
def manage(site_env: dict[str, str]) -> Any:
    """Run a ``manage.py`` command on the server's database (``extra_env``: more variables, such as
    ``DJANGO_SUPERUSER_PASSWORD`` for ``createsuperuser --noinput``)."""

    def run(*args: str, extra_env: dict[str, str] | None = None) -> str:
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**site_env, **(extra_env or {})},
                              check=True, capture_output=True, text=True)
        return done.stdout

    return run


@pytest.fixture(scope="session")
def site_url(site_env: dict[str, str]) -> Iterator[str]:
    env = site_env
    tmp = Path(env["E2E_TMP"])
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    log = tmp / "server.log"
    daphne = [py, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "callbreak_site.asgi:application"]
    try:
        with running(daphne, env=env, log=log, ready=port_listens(port), what=f"daphne on {port}", timeout=30,
                     stop_timeout=10):
            yield f"http://127.0.0.1:{port}"
    finally:
        # keep the server log next to the screenshots, one per test process (xdist's workers each run a server)
        if log.exists():
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(log, ARTIFACTS / f"server-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        msg = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if _ci():
            pytest.fail(msg)
        pytest.skip(msg)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # bypass_csp: Playwright's string predicates are evaluated in the page (the site's CSP forbids eval)
    context = new_context(browser, viewport={"width": 1280, "height": 860}, locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser test leaves what its open pages showed (``keep_pages``; the contexts a test closes itself
    keep theirs as they close), and the server log of its process says what they asked for."""
    report = yield
    if report.when == "call" and report.failed:
        browser = getattr(item, "funcargs", {}).get("browser")
        if browser is not None:
            keep_pages([pg for ctx in browser.contexts for pg in ctx.pages])
    return report
