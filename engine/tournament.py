"""Bot-only matches and their statistics: the machinery behind ``python -m engine simulate``.

A duplicate tournament plays each seed once per rotation of the entrants round the table, so
every entrant holds every hand and card luck cancels out of the comparison.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .bots import decide, resolve
from .match import MatchState, apply, new_match
from .replays import export_replay
from .views import player_view


@dataclass(frozen=True)
class MatchSpec:
    """One match to play: ``entrants[s]`` is the index (in ``--seats``) of the entrant at seat ``s``."""

    match_id: str
    seed: str
    bots: tuple[str, ...]
    entrants: tuple[int, ...]


@dataclass
class MatchResult:
    spec: MatchSpec
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    bids_made: list[int]  # per seat, deals where tricks won >= bid
    bid_times: list[list[float]]  # per seat, seconds per bid decision
    card_times: list[list[float]]  # per seat, seconds per card decision
    replay: dict[str, object] | None = None


def match_specs(n: int, bots: Sequence[str], prefix: str, duplicate: bool) -> list[MatchSpec]:
    """The matches of a run: seed ``PREFIX-i``; with ``duplicate``, each seed in all 4 rotations."""
    for b in bots:
        resolve(b)
    specs = []
    if not duplicate:
        for i in range(n):
            specs.append(MatchSpec(f"{prefix}-{i}", f"{prefix}-{i}", tuple(bots), (0, 1, 2, 3)))
        return specs
    sets = max(1, math.ceil(n / 4))
    for i in range(sets):
        for r in range(4):
            entrants = tuple((s - r) % 4 for s in range(4))
            specs.append(MatchSpec(f"{prefix}-{i}-r{r}", f"{prefix}-{i}", tuple(bots[e] for e in entrants),
                                   entrants))
    return specs


def play_match(spec: MatchSpec, keep_replay: bool = True) -> MatchResult:
    """Play one bot-only match; every decision goes through the seat's view and the rules."""
    state: MatchState = new_match(spec.seed)
    bid_times: list[list[float]] = [[], [], [], []]
    card_times: list[list[float]] = [[], [], [], []]
    clock = time.perf_counter
    while state.turn is not None:
        seat = state.turn
        view = player_view(state, seat)
        start = clock()
        action = decide(spec.bots[seat], view, f"{spec.match_id}:{seat}")
        (bid_times if view.legal_bids else card_times)[seat].append(clock() - start)
        state = apply(state, action)
    made = [sum(1 for d in state.completed if d.tricks_won[s] >= d.bids[s]) for s in range(4)]
    players = [{"seat": s, "name": f"{spec.bots[s]} #{spec.entrants[s] + 1}", "kind": "bot", "bot": spec.bots[s]}
               for s in range(4)]
    return MatchResult(
        spec=spec,
        totals=state.totals,
        winners=state.winners,
        bids_made=made,
        bid_times=bid_times,
        card_times=card_times,
        replay=export_replay(state, players, spec.match_id) if keep_replay else None,
    )


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    m = statistics.fmean(values)
    if n < 2:
        return m, math.inf
    return m, 1.96 * statistics.stdev(values) / math.sqrt(n)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


@dataclass
class EntrantStats:
    """Per entrant: one sample per match for shares, totals and margins; one per deal for bids made."""

    label: str
    wins: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    made: list[float] = field(default_factory=list)
    bid_times: list[float] = field(default_factory=list)
    card_times: list[float] = field(default_factory=list)


def summarize(results: Sequence[MatchResult], bots: Sequence[str]) -> list[EntrantStats]:
    stats = [EntrantStats(f"{b} #{i + 1}") for i, b in enumerate(bots)]
    for r in results:
        for seat in range(4):
            st = stats[r.spec.entrants[seat]]
            total = r.totals[seat]
            others = [r.totals[s] for s in range(4) if s != seat]
            st.wins.append(1 / len(r.winners) if seat in r.winners else 0.0)
            st.totals.append(total / 10)
            st.margins.append((total - sum(others) / 3) / 10)
            st.made.extend([1.0] * r.bids_made[seat] + [0.0] * (5 - r.bids_made[seat]))
            st.bid_times.extend(r.bid_times[seat])
            st.card_times.extend(r.card_times[seat])
    return stats


def team_margins(results: Sequence[MatchResult], bots: Sequence[str]) -> dict[str, list[float]]:
    """For each bot entered at two seats (e.g. new against old, two seats each): per match, the mean total
    of its seats minus the mean total of the other seats, in points."""
    out: dict[str, list[float]] = {b: [] for b in dict.fromkeys(bots) if bots.count(b) == 2}
    for r in results:
        for b, margins in out.items():
            mine = [r.totals[s] for s in range(4) if r.spec.bots[s] == b]
            rest = [r.totals[s] for s in range(4) if r.spec.bots[s] != b]
            margins.append((sum(mine) / len(mine) - sum(rest) / len(rest)) / 10)
    return out


def format_table(stats: Sequence[EntrantStats], matches: int, teams: dict[str, list[float]] | None = None) -> str:
    """The summary the CLI prints: shares and means with their 95% intervals, decision times in ms."""
    head = (f"{'entrant':<16} {'win share':>15} {'mean total':>15} {'margin vs field':>17} "
            f"{'bids made':>15} {'card ms p50/p95':>16} {'bid ms p50/p95':>15}")
    lines = [f"{matches} matches", head, "-" * len(head)]
    for st in stats:
        w, wci = mean_ci(st.wins)
        t, tci = mean_ci(st.totals)
        mg, mci = mean_ci(st.margins)
        b, bci = mean_ci(st.made)
        card = f"{percentile(st.card_times, .5) * 1e3:.2f}/{percentile(st.card_times, .95) * 1e3:.2f}"
        bid = f"{percentile(st.bid_times, .5) * 1e3:.2f}/{percentile(st.bid_times, .95) * 1e3:.2f}"
        lines.append(
            f"{st.label:<16} {w * 100:6.1f}% ±{wci * 100:5.1f} {t:7.2f} ±{tci:5.2f} {mg:+8.2f} ±{mci:6.2f} "
            f"{b * 100:6.1f}% ±{bci * 100:5.1f} {card:>16} {bid:>15}"
        )
    for name, margins in (teams or {}).items():
        m, ci = mean_ci(margins)
        lines.append(f"{name} (both seats) against the other two: margin {m:+.2f} ± {ci:.2f} points a match")
    lines.append("± is the half-width of a 95% confidence interval; ties share a win.")
    return "\n".join(lines)
