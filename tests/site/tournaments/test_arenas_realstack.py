"""Arenas on PostgreSQL: two pairing runs at once (threads, each its own connection, started together) never seat
anyone twice, round after round; and runs take turns, so two fours freed as a run is under way sit together."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from site_helpers import race

from games.models import ArenaMatch, Entry, Match, Seat, Tournament
from games.tournaments import commands

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]




def test_two_pairing_runs_at_once_never_seat_anyone_twice(make_user: Any, settings: Any) -> None:
    assert connection.vendor == "postgresql"
    settings.TOURNAMENT_BOTS_AFTER = 0  # everyone may be seated (with bots too): the runs race for every entry
    settings.TOURNAMENT_EAGER_TIMER = False
    people = [make_user(f"r{i}") for i in range(41)]
    t = Tournament.objects.create(name="Race", starts_at=timezone.now() - timedelta(minutes=1), minutes=30)
    Entry.objects.bulk_create(Entry(tournament=t, user=u, points=12 * (i % 9),
                                    free_since=timezone.now() - timedelta(seconds=i)) for i, u in enumerate(people))
    for round_ in range(3):
        made, errors = race(2, lambda: commands.pair(t.pk))
        assert not errors, errors
        new = [m for ms in made for m in ms]
        seated = list(Seat.objects.filter(match_id__in=new, kind="human").values_list("user_id", flat=True))
        assert sorted(seated) == sorted(u.pk for u in people), f"round {round_}"  # each person exactly once
        for entry in Entry.objects.filter(tournament=t):
            assert Seat.objects.filter(match_id=entry.match_id, user_id=entry.user_id).exists()
        assert ArenaMatch.objects.filter(match_id__in=new).count() == len(new)
        # the round's matches end (aborted: nothing to count) and everyone is free again
        for match_id in new:
            ArenaMatch.objects.filter(match_id=match_id).update(counted_at=timezone.now())
        Entry.objects.filter(tournament=t).update(match=None, free_since=timezone.now() - timedelta(seconds=5))


def test_two_fours_freed_while_a_run_is_under_way_sit_together(make_user: Any, settings: Any,
                                                              monkeypatch: Any) -> None:
    """Four who just played together are free and a run has them; the next match's four come free and a second
    run starts before the first commits. Had the second run skipped the first's locked rows, each would see one
    four who may not sit together again, and all eight would wait for beat's sweep; it waits its turn and seats
    them as two mixed fours."""
    import threading

    from games.tournaments import scoring

    assert connection.vendor == "postgresql"
    settings.TOURNAMENT_EAGER_TIMER = False
    settings.TOURNAMENT_BOTS_AFTER = 30
    people = [make_user(f"p{i}") for i in range(8)]
    t = Tournament.objects.create(name="Turns", starts_at=timezone.now() - timedelta(minutes=1), minutes=30)
    first = scoring.four_key([u.pk for u in people[:4]])
    second = scoring.four_key([u.pk for u in people[4:]])
    now = timezone.now()
    Entry.objects.bulk_create([Entry(tournament=t, user=u, free_since=now, last_four=first) for u in people[:4]]
                              + [Entry(tournament=t, user=u, free_since=None, last_four=second) for u in people[4:]])
    # the second four are still at their match: a table's match holds them until it is counted
    Entry.objects.filter(user__in=people[4:]).update(match=Match.objects.create(seed="0" * 64))
    inside, go = threading.Event(), threading.Event()
    real_groups = scoring.groups

    def held_groups(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "first":
            inside.set()
            go.wait(10)
        return real_groups(*args, **kwargs)

    monkeypatch.setattr(scoring, "groups", held_groups)
    made: dict[str, list[int]] = {}

    def run(name: str) -> None:
        from django.db import connections
        try:
            made[name] = commands.pair(t.pk)
        finally:
            connections.close_all()

    one = threading.Thread(target=run, args=("first",), name="first")
    one.start()
    assert inside.wait(10)
    Entry.objects.filter(user__in=people[4:]).update(match=None, free_since=timezone.now())  # their match counted
    two = threading.Thread(target=run, args=("second",), name="second")
    two.start()
    # the second run is either done (without the turns: it saw only the second four and seated no one) or waiting
    # for the first run's lock; only then does the first go on, however slow the machine
    deadline = time.monotonic() + 10
    while two.is_alive() and time.monotonic() < deadline and not _waiting_on_a_lock():
        time.sleep(0.02)
    go.set()
    one.join(10)
    two.join(10)
    seated = list(Seat.objects.filter(match_id__in=made["first"] + made["second"], kind="human")
                  .values_list("user_id", flat=True))
    assert sorted(seated) == sorted(u.pk for u in people)
    assert len(made["first"]) + len(made["second"]) == 2


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                       " AND wait_event_type = 'Lock'")
        return bool(cursor.fetchone()[0])


def test_standings_are_spaced_through_the_shared_redis_cache(settings: Any, monkeypatch: Any) -> None:
    """The spacing's mark lives in Redis (the cache web and worker processes share): a burst of changes sends once
    at once and once at the spacing's end, never once per change. The spacing is 5 s here (the site's is a quarter
    of a second): twenty changes, each a few Redis round trips, must fall inside it even on a busy machine."""
    from django.core.cache import cache, caches

    from games.platform import outbox
    from games.tournaments import reactions, tasks
    from games.tournaments.events import StandingsChanged

    assert "Redis" in type(caches["default"]).__name__
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.TOURNAMENT_STANDINGS_SPACING = 5.0
    t = Tournament.objects.create(name="Spaced", starts_at=timezone.now() + timedelta(minutes=5), minutes=30)
    cache.delete_many([tasks.standings_sent_key(t.pk), tasks.standings_due_key(t.pk)])
    sent: list[int] = []
    due: list[float | None] = []
    monkeypatch.setattr(tasks, "send_standings", lambda tid: sent.append(tid))
    monkeypatch.setattr(outbox, "task_now", lambda task, *args, countdown=None, **kw: due.append(countdown))
    reactions.standings_changed(StandingsChanged(t.pk))
    cache.set(tasks.standings_sent_key(t.pk), time.time(), timeout=3600)  # as the send marks it
    for _ in range(20):
        reactions.standings_changed(StandingsChanged(t.pk))
    assert sent == [t.pk] and len(due) == 1 and 0 < (due[0] or 0) <= settings.TOURNAMENT_STANDINGS_SPACING
