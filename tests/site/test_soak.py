"""The chaos soak's pieces, cheaply (``bench/soak.py``; the soak itself runs minutes on the real stack): its
arguments, its faults drawn the same from the same seed, which waits count as after a fault, and its worker
under ``bin/supervise`` (tested in ``hardening/test_supervision.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak", ROOT / "bench" / "soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_defaults_are_the_soak_of_the_issue(soak: ModuleType) -> None:
    args = soak.parse([])
    assert (args.minutes, args.people, args.fault_every, args.faults) == (15.0, 20, (20.0, 60.0), soak.FAULTS)
    assert set(soak.FAULTS) == {"web", "worker", "worker-child", "database", "redis"}


@pytest.mark.parametrize("argv", [["--minutes", "0"], ["--people", "0"], ["--fault-every", "60-20"],
                                  ["--fault-every", "often"], ["--faults", "web,meteor"], ["--bots", "psychic"]])
def test_bad_arguments_are_refused(soak: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        soak.parse(argv)
    assert refused.value.code == 2


def test_the_same_seed_draws_the_same_faults_at_the_same_moments(soak: ModuleType) -> None:
    first = soak.fault_schedule("s1", 900, (20, 60))
    assert first == soak.fault_schedule("s1", 900, (20, 60))
    assert first != soak.fault_schedule("s2", 900, (20, 60))
    moments = [at for at, _ in first]
    gaps = [b - a for a, b in zip([0.0, *moments], moments, strict=False)]
    assert all(19.9 <= gap <= 60.1 for gap in gaps) and moments[-1] < 900
    assert 900 / 60 <= len(first) <= 900 / 20 and {kind for _, kind in first} == set(soak.FAULTS)
    assert {kind for _, kind in soak.fault_schedule("s1", 900, (20, 60), ("redis",))} == {"redis"}


def test_a_wait_counts_after_a_fault_when_it_overlaps_the_fault_s_first_seconds(soak: ModuleType) -> None:
    fault = soak.Fault(at=100.0, kind="web", detail="")
    waits = [(90.0, 99.0, 1), (95.0, 101.0, 2), (110.0, 112.0, 3), (125.0, 130.0, 4)]
    assert [w[2] for w in soak.waits_after_faults(waits, [fault])] == [2, 3]


def test_the_worker_runs_under_the_project_s_supervisor(soak: ModuleType) -> None:
    stack = soak.SoakStack(web=1, workers=1)
    worker = stack.commands()["worker"]
    assert worker[0] == str(ROOT / "bin" / "supervise") and worker[1].endswith("celery") and "worker" in worker
