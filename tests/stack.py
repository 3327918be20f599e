"""Start a process of the real stack (a web server, a Celery worker or beat) and wait until it answers: one
way for the tests and the benches (``bench/load_stack.py``), so a process that dies or never comes up fails
with its log's tail instead of a bare timeout, and none is left running after its block."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


class StackError(RuntimeError):
    """A process of the stack exited early or did not answer in time."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tail(log: Path | None, chars: int = 3000) -> str:
    return log.read_text(errors="replace")[-chars:] if log is not None and log.exists() else ""


def wait_until(ready: Callable[[], bool], what: str, *, proc: subprocess.Popen[Any] | None = None,
               log: Path | None = None, timeout: float = 60, every: float = 0.2) -> None:
    """Poll ``ready`` until it is true; StackError when ``proc`` exits first or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while not ready():
        if proc is not None and proc.poll() is not None:
            raise StackError(f"{what}: the process exited ({proc.returncode}):\n{tail(log)}")
        if time.monotonic() >= deadline:
            raise StackError(f"{what}: not ready after {timeout:g} s:\n{tail(log)}")
        time.sleep(every)


def http_answers(url: str, statuses: tuple[int, ...] = ()) -> Callable[[], bool]:
    """Ready once ``url`` answers (with one of ``statuses``, when given)."""
    import httpx

    def check() -> bool:
        try:
            status = httpx.get(url, timeout=2).status_code
        except httpx.HTTPError:
            return False
        return not statuses or status in statuses

    return check


def port_listens(port: int, host: str = "127.0.0.1") -> Callable[[], bool]:
    def check() -> bool:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            return False

    return check


def log_says(log: Path, text: str) -> Callable[[], bool]:
    return lambda: log.exists() and text in log.read_text(errors="replace")


def start(cmd: list[str], *, env: dict[str, str], log: Path, ready: Callable[[], bool], what: str,
          timeout: float = 60, group: bool = False, cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    """Run ``cmd`` (its output to ``log``) and return once ``ready``; stopped again if it never is.
    ``group``: in a session of its own, so that ``stop`` ends its children too."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=group)
    try:
        wait_until(ready, what, proc=proc, log=log, timeout=timeout)
    except BaseException:
        stop(proc, group=group)
        raise
    return proc


def stop(proc: subprocess.Popen[Any], *, timeout: float = 20, group: bool = False) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` seconds."""
    def send(sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)

    send(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        proc.wait()


@contextmanager
def running(cmd: list[str], *, env: dict[str, str], log: Path, ready: Callable[[], bool], what: str,
            timeout: float = 60, stop_timeout: float = 20, cwd: Path = ROOT) -> Iterator[subprocess.Popen[bytes]]:
    """``start`` for the length of a block."""
    proc = start(cmd, env=env, log=log, ready=ready, what=what, timeout=timeout, cwd=cwd)
    try:
        yield proc
    finally:
        stop(proc, timeout=stop_timeout)


def celery_drained(app: Any, log: Path, queues: tuple[str, ...], timeout: float = 30) -> None:
    """Every task queued on ``queues`` before this call has run: a no-op task (Celery's own ``accumulate``) is
    sent last on each, and the worker (one process, ``-P solo``, logging at info) logs it done. Proves that
    nothing more is coming from work already queued, without waiting a fixed while."""
    ids = [app.send_task("celery.accumulate", args=(0,), queue=queue).id for queue in queues]
    wait_until(lambda: all(f"[{i}] succeeded" in log.read_text(errors="replace") for i in ids),
               f"the worker did not drain {queues}", log=log, timeout=timeout, every=0.05)
