"""The arena's arithmetic, pure: points by place among the people (ties share), the streak that doubles them,
and which free people sit together (closest in points first, never the same four twice in a row)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

#: Points are kept in twelfths: a tie of two, three or four places shares their sum exactly.
UNIT = 12
PLACE_POINTS = (4, 2, 1, 0)
#: Top-two finishes in a row after which a person's points count double.
STREAK_DOUBLES_AT = 2


def places(totals: Sequence[int]) -> list[tuple[int, int]]:
    """Each person's place among the people (1 = best; tied totals share the better place) and points in
    twelfths (the average of the places the tie covers).

    >>> places([50, 30, 30, 10])
    [(1, 48), (2, 18), (2, 18), (4, 0)]
    >>> places([10, 10, 10])
    [(1, 28), (1, 28), (1, 28)]
    """
    out: list[tuple[int, int]] = []
    for mine in totals:
        above = sum(1 for other in totals if other > mine)
        tied = sum(1 for other in totals if other == mine)
        share = sum(PLACE_POINTS[above:above + tied]) * UNIT
        out.append((above + 1, share // tied))  # exact: tied is 1..4, and 12 is divisible by each
    return out


def award(points: int, place: int, streak: int) -> tuple[int, int, bool]:
    """The points a finish gives (doubled while the person is on a streak of ``STREAK_DOUBLES_AT`` top-two finishes
    in a row), the streak after it, and whether it was doubled."""
    doubled = streak >= STREAK_DOUBLES_AT
    return (points * 2 if doubled else points), (streak + 1 if place <= 2 else 0), doubled


def text(points: int) -> str:
    """Twelfths as people read them: ``48`` is "4", ``28`` is "2.33", ``18`` is "1.5"."""
    whole, rest = divmod(points, UNIT)
    if not rest:
        return str(whole)
    return f"{points / UNIT:.2f}".rstrip("0")


@dataclass(frozen=True)
class Free:
    """A person free to be seated: their entry, points, free since, and the people of their last match."""

    entry_id: int
    points: int
    free_since: datetime
    last_four: str


def four_key(user_ids: Sequence[int]) -> str:
    return ",".join(str(u) for u in sorted(user_ids))


def _same_four(group: Sequence[Free], key: str) -> bool:
    return len(group) == 4 and all(f.last_four == key for f in group)


def groups(free: Sequence[Free], user_of: dict[int, int], now: datetime, wait: float) -> list[list[Free]]:
    """Who sits together now. Fours first, the closest in points (the adjacent four with the smallest spread),
    never the four who just played together nor a four that strands them; then, among those left, whoever has
    waited ``wait`` seconds sits with the others left nearest in points (three at most, bots in the other seats).
    The rest wait on."""
    def same(group: Sequence[Free]) -> bool:
        return _same_four(group, four_key([user_of[f.entry_id] for f in group]))

    pool = sorted(free, key=lambda f: (-f.points, f.free_since, f.entry_id))
    out: list[list[Free]] = []
    while len(pool) >= 4:
        best: tuple[int, int] | None = None
        for i in range(len(pool) - 3):
            window = pool[i:i + 4]
            # nor a four that would leave exactly the four who just played together (three matches' people free at
            # once): of eight there is always another choice, so everyone sits
            if same(window) or (len(pool) == 8 and same(pool[:i] + pool[i + 4:])):
                continue
            spread = window[0].points - window[3].points
            if best is None or spread < best[0]:
                best = (spread, i)
        if best is None:
            break
        out.append(pool[best[1]:best[1] + 4])
        del pool[best[1]:best[1] + 4]
    # the few left: bots fill in once one of them has waited long enough (in small groups, nearest in points)
    count = len(pool)
    if count:
        n_groups = -(-count // 3)
        size, extra = divmod(count, n_groups)
        start = 0
        for g in range(n_groups):
            end = start + size + (1 if g < extra else 0)
            group = pool[start:end]
            start = end
            if any((now - f.free_since).total_seconds() >= wait for f in group):
                out.append(group)
    return out
