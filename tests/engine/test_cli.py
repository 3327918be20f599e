"""``python -m engine`` as a user runs it: simulate, verify (and its failures), bench, --help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_help_lists_the_commands() -> None:
    out = run("--help")
    assert out.returncode == 0
    for word in ("simulate", "verify", "bench"):
        assert word in out.stdout


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("replays")
    res = run("simulate", "--matches", "12", "--seats", "random,random,random,random", "--seed", "cli",
              "--out", str(out), "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "win share" in res.stdout and "bids made" in res.stdout and "12 matches" in res.stdout
    assert "12/12" in res.stderr  # the progress bar reached the end
    return out


def test_simulate_writes_one_replay_per_match(replays: Path) -> None:
    files = sorted(p.name for p in replays.glob("*.json"))
    assert files == sorted(f"cli-{i}.json" for i in range(12))
    doc = json.loads((replays / "cli-3.json").read_text())
    assert doc["seed"] == "cli-3" and doc["format"] == "callbreak-replay/1"


def test_verify_accepts_them(replays: Path) -> None:
    res = run("verify", str(replays))
    assert res.returncode == 0, res.stdout
    assert res.stdout.count("OK ") == 12


def test_verify_names_the_first_violation(replays: Path, tmp_path: Path) -> None:
    doc = json.loads((replays / "cli-0.json").read_text())
    doc["deals"][1]["tricks"][0]["winner"] = (doc["deals"][1]["tricks"][0]["winner"] + 1) % 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    (tmp_path / "broken.json").write_text("{not json")
    res = run("verify", str(replays / "cli-1.json"), str(bad), str(tmp_path / "broken.json"))
    assert res.returncode == 1
    lines = res.stdout.strip().splitlines()
    assert lines[0].startswith("OK")
    assert lines[1].startswith("FAIL") and "deal 2 trick 1 winner" in lines[1]
    assert lines[2].startswith("FAIL") and "JSON" in lines[2]


def test_duplicate_rotates_every_seed_through_all_seats(tmp_path: Path) -> None:
    res = run("simulate", "--matches", "8", "--seats", "simple,random,random,random", "--seed", "dup",
              "--duplicate", "--out", str(tmp_path), "--quiet")
    assert res.returncode == 0, res.stderr
    names = sorted(p.stem for p in tmp_path.glob("*.json"))
    assert names == sorted(f"dup-{i}-r{r}" for i in range(2) for r in range(4))
    seats_of_simple = set()
    for r in range(4):
        doc = json.loads((tmp_path / f"dup-0-r{r}.json").read_text())
        assert doc["seed"] == "dup-0"
        seats_of_simple.add(next(p["seat"] for p in doc["players"] if p["bot"] == "simple"))
    assert seats_of_simple == {0, 1, 2, 3}


def test_two_seats_each_reports_one_bot_against_the_other() -> None:
    res = run("simulate", "--matches", "8", "--seats", "heuristic,random,heuristic,random", "--seed", "pairs",
              "--duplicate", "--quiet")
    assert res.returncode == 0, res.stderr
    lines = {line.split(" (both seats)")[0]: line for line in res.stdout.splitlines() if "(both seats)" in line}
    assert set(lines) == {"heuristic", "random"}
    heur = float(lines["heuristic"].split("margin ")[1].split()[0])
    assert heur > 10 and float(lines["random"].split("margin ")[1].split()[0]) == -heur


def test_simulate_rejects_bad_arguments() -> None:
    assert run("simulate", "--seats", "random,random").returncode == 2
    res = run("simulate", "--seats", "random,random,random,nobody", "--matches", "1")
    assert res.returncode == 2 and "unknown bot" in res.stderr


def test_bench_prints_its_figures() -> None:
    res = run("bench", "--runs", "1", "--seconds", "0.05", "--json")
    assert res.returncode == 0, res.stderr
    figures = json.loads(res.stdout)
    assert set(figures) == {"random_playouts_per_s", "legal_move_calls_per_s", "seeded_deal_us", "match_replay_ms",
                            "finished_match_state_kib"}
    assert all(v > 0 for v in figures.values())
