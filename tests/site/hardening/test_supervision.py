"""Long-running processes come back by themselves (issue 39: a worker that exited after a Redis outage stayed
down, and no bot moved again): `make worker` and `make beat` run under bin/supervise, which starts a command
again when it exits and stops it cleanly on SIGINT/SIGTERM; every long-running docker-compose service has a
restart policy."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
SUPERVISE = ROOT / "bin" / "supervise"

# A child that notes each start, and its SIGTERM; it exits at once with the status given, or sleeps if that is -1.
CHILD = """
import pathlib, signal, sys
notes = pathlib.Path(sys.argv[1])
def note(word):
    with notes.open("a") as f:
        f.write(word + "\\n")
def on_term(*_):
    note("term")
    sys.exit(0)
signal.signal(signal.SIGTERM, on_term)
note("start")
if int(sys.argv[2]) >= 0:
    sys.exit(int(sys.argv[2]))
signal.alarm(60)  # runs until signalled, a minute at most
signal.pause()
"""


def _supervise(notes: Path, status: int) -> subprocess.Popen[str]:
    return subprocess.Popen([str(SUPERVISE), sys.executable, "-c", CHILD, str(notes), str(status)],
                            stderr=subprocess.PIPE, text=True)


def _notes(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []


def _children(pid: int) -> list[list[str]]:
    """The command lines of ``pid``'s children."""
    out = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            if entry.name.isdigit() and int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                out.append((entry / "cmdline").read_bytes().decode().split("\0")[:-1])
        except (OSError, ValueError):
            continue
    return out


def _wait_for(what: str, check: object, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_command_that_exits_is_started_again_with_a_growing_pause(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    proc = _supervise(notes, 3)
    try:
        _wait_for("three starts", lambda: _notes(notes).count("start") >= 3)  # pauses of 1 s, then 2 s
        # the third run has exited: the signal comes in the 4 s pause after it
        _wait_for("the pause after the third run", lambda: _children(proc.pid) == [["sleep", "4"]])
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err  # stopped in a pause: nothing to pass on
    assert "exited with status 3; starting it again in 1s" in err
    assert "exited with status 3; starting it again in 2s" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_command_and_the_supervisor_for_good(tmp_path: Path, sig: signal.Signals) -> None:
    notes = tmp_path / "notes"
    proc = _supervise(notes, -1)
    try:
        _wait_for("the command started", lambda: "start" in _notes(notes))
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err  # the command's own status after its warm shutdown
    assert _notes(notes) == ["start", "term"], err  # told to stop, and never started again
    assert "starting it again" not in err


def test_make_worker_and_beat_run_under_the_supervisor() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target in ("worker", "beat"):
        recipe = re.search(rf"^{target}: .*\n\t(.+)$", makefile, re.M)
        assert recipe, target
        assert recipe.group(1).startswith("bin/supervise $(BIN)/celery -A callbreak_site " + target), recipe.group(1)


def test_every_long_running_compose_service_restarts_by_itself() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert {name: s.get("restart") for name, s in services.items()} == dict.fromkeys(services, "unless-stopped")


def test_workers_and_beat_wait_for_the_broker_as_long_as_it_is_away() -> None:
    from callbreak_site.celery import app

    assert app.conf.broker_connection_retry_on_startup is True
    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_max_retries is None  # Celery's 100 tries ended the process after ~45 min
    assert app.conf.worker_cancel_long_running_tasks_on_connection_loss is False  # running tasks finish
