"""Arenas on PostgreSQL: two pairing runs at once (threads, each its own connection, started together) share the
free people out with ``SKIP LOCKED`` and never seat anyone twice, round after round."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from site_helpers import race

from games.models import ArenaMatch, Entry, Seat, Tournament
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
