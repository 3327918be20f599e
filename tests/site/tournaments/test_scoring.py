"""The arena's arithmetic: points by place among the people (ties share, exactly), the streak that doubles them,
and who sits together (closest in points first, never the same four twice in a row, bots after the wait)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.tournaments import scoring
from games.tournaments.scoring import UNIT, Free


def test_places_give_4_2_1_0_among_the_people() -> None:
    assert scoring.places([120, 80, 50, -30]) == [(1, 4 * UNIT), (2, 2 * UNIT), (3, 1 * UNIT), (4, 0)]
    assert scoring.places([-30, 120, 50, 80]) == [(4, 0), (1, 4 * UNIT), (3, 1 * UNIT), (2, 2 * UNIT)]


def test_ties_share_the_places_they_cover_exactly() -> None:
    assert scoring.places([50, 30, 30, 10]) == [(1, 48), (2, 18), (2, 18), (4, 0)]  # (2 + 1) / 2 = 1.5
    assert scoring.places([30, 30, 10, 10]) == [(1, 36), (1, 36), (3, 6), (3, 6)]  # 3 and 0.5
    assert scoring.places([10, 10, 10, 5]) == [(1, 28), (1, 28), (1, 28), (4, 0)]  # 7 / 3, kept exact in twelfths
    assert scoring.places([7, 7, 7, 7]) == [(1, 21)] * 4  # 7 / 4
    assert scoring.places([9, 3]) == [(1, 48), (2, 24)]  # two people and two bots: places among the people
    assert scoring.places([4]) == [(1, 48)]
    for totals in ([1, 1, 1, 1], [3, 2, 2, 2], [5, 5, 1, 1], [4, 3, 3]):
        shares = scoring.places(totals)
        assert sum(p for _, p in shares) == sum(scoring.PLACE_POINTS[:len(totals)]) * UNIT  # nothing lost to rounding


def test_two_top_two_finishes_in_a_row_double_the_next() -> None:
    points, streak, doubled = scoring.award(48, 1, 0)
    assert (points, streak, doubled) == (48, 1, False)
    points, streak, doubled = scoring.award(24, 2, streak)
    assert (points, streak, doubled) == (24, 2, False)
    points, streak, doubled = scoring.award(12, 3, streak)  # on the streak: doubled, and the streak ends
    assert (points, streak, doubled) == (24, 0, True)
    points, streak, doubled = scoring.award(48, 1, streak)
    assert (points, streak, doubled) == (48, 1, False)
    assert scoring.award(18, 2, 2) == (36, 3, True)  # a shared second place keeps the streak going, doubled
    assert scoring.award(18, 2, 3) == (36, 4, True)


def test_points_read_as_people_read_them() -> None:
    assert [scoring.text(p) for p in (0, 48, 18, 28, 21, 96, 6)] == ["0", "4", "1.5", "2.33", "1.75", "8", "0.5"]


NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def free(entry_id: int, points: int, waited: float = 0.0, last: str = "") -> Free:
    return Free(entry_id, points, NOW - timedelta(seconds=waited), last)


def test_the_closest_in_points_sit_together_first() -> None:
    people = [free(1, 100), free(2, 90), free(3, 40), free(4, 38), free(5, 37), free(6, 36), free(7, 0), free(8, -1)]
    groups = scoring.groups(people, {i: i for i in range(1, 9)}, NOW, 30)
    assert [[f.entry_id for f in g] for g in groups] == [[3, 4, 5, 6], [1, 2, 7, 8]]


def test_never_the_same_four_twice_in_a_row() -> None:
    key = scoring.four_key([1, 2, 3, 4])
    same = [free(i, 0, last=key) for i in (1, 2, 3, 4)]
    assert scoring.groups(same, {i: i for i in range(1, 5)}, NOW, 30) == []  # they wait for others
    # a fifth person breaks the four up
    groups = scoring.groups([*same, free(5, 0)], {i: i for i in range(1, 6)}, NOW, 30)
    assert len(groups) == 1 and 5 in {f.entry_id for f in groups[0]}
    # after the wait, the same four are split in twos with bots rather than seated together again
    late = [free(i, 0, waited=31, last=key) for i in (1, 2, 3, 4)]
    groups = scoring.groups(late, {i: i for i in range(1, 5)}, NOW, 30)
    assert sorted(len(g) for g in groups) == [2, 2]


def test_bots_only_after_the_wait() -> None:
    assert scoring.groups([free(1, 0, waited=29), free(2, 0, waited=5)], {1: 1, 2: 2}, NOW, 30) == []
    groups = scoring.groups([free(1, 0, waited=30), free(2, 0, waited=5)], {1: 1, 2: 2}, NOW, 30)
    assert [[f.entry_id for f in g] for g in groups] == [[1, 2]]
    seven = [free(i, i, waited=40) for i in range(1, 8)]  # four together, three with a bot
    groups = scoring.groups(seven, {i: i for i in range(1, 8)}, NOW, 30)
    assert sorted(len(g) for g in groups) == [3, 4]


def test_three_fours_freed_together_all_sit_though_the_closest_fours_strand_one() -> None:
    """Three matches' people free at once. The closest fours in points, taken greedily, are [7, 11, 4, 6] and
    [9, 8, 5, 10]: they leave 0-3, who just played together. All twelve sit, in fours that mix tables: the closest
    four is kept, and of the eight left the closest four that does not strand 0-3."""
    tables = {i: scoring.four_key(range(4 * (i // 4), 4 * (i // 4) + 4)) for i in range(12)}
    points = {9: 11, 8: 10, 5: 7, 10: 7, 3: 6, 7: 5, 11: 5, 4: 4, 6: 4, 0: 1, 1: 1, 2: 0}
    people = [free(i, p * UNIT, last=tables[i]) for i, p in points.items()]
    groups = scoring.groups(people, {i: i for i in range(12)}, NOW, 30)
    assert sorted(f.entry_id for g in groups for f in g) == list(range(12))
    assert all(len(g) == 4 and len({f.last_four for f in g}) > 1 for g in groups)
    assert [[f.entry_id for f in g] for g in groups] == [[7, 11, 4, 6], [8, 5, 10, 3], [9, 0, 1, 2]]


def test_eight_free_people_always_sit_in_two_mixed_fours_whatever_their_order_in_points() -> None:
    """The closest-fours choice skips a four that would leave the four who just played together; of eight there
    is always another choice (the docs say so): every order in points of two tables' fours, and of one table's four
    with four from four other tables, seats all eight at once, never a table's four again."""
    import itertools

    tables = {"A": scoring.four_key(range(4)), "B": scoring.four_key(range(4, 8))}
    orders = set(itertools.permutations("AAAABBBB")) | set(itertools.permutations("AAAAwxyz"))
    for order in orders:
        counters = {"A": iter(range(4)), "B": iter(range(4, 8))}
        people = []
        for rank, label in enumerate(order):
            entry = next(counters[label]) if label in counters else 8 + "wxyz".index(label)
            people.append(free(entry, (8 - rank) * UNIT, last=tables.get(label, f"other-{label}")))
        groups = scoring.groups(people, {f.entry_id: f.entry_id for f in people}, NOW, 30)
        assert sorted(len(g) for g in groups) == [4, 4], order
        assert not any(len({f.last_four for f in g}) == 1 and g[0].last_four in tables.values() for g in groups), order
