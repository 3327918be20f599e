"""A four-person correspondence match driven through the API with frozen time over several days.

Turn deadlines, reminders and your-turn emails in the outbox, autopilot on expiry, the seat handed to
the bot after repeated expiry, a resignation, the match finishing, and ratings updated once.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from site_helpers import choose, client_for

from games.matches import store
from games.models import Action, Match, Notice, Rating, RatingChange, Seat
from games.ratings import commands as rating_commands
from games.ratings import reads as rating_reads
from games.tasks import rate_match, sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def emails_to(address: str, word: str = "") -> list[Any]:
    return [m for m in mail.outbox if any(address in to for to in m.to) and word in m.subject.lower()]


def start_table(clients: list[Any], *, move_seconds: int = DAY, rated: bool = True) -> int:
    """Host (clients[0]) makes a public table, the others join in order, the host starts it."""
    r = clients[0].post("/api/tables/", {"visibility": "public", "move_seconds": move_seconds, "rated": rated},
                        format="json")
    assert r.status_code == 201, r.content
    table_id = r.json()["id"]
    for i, c in enumerate(clients[1:], start=1):
        r = c.post(f"/api/tables/{table_id}/join/", {}, format="json")
        assert r.status_code == 200, r.content
        assert [s["you"] for s in r.json()["seats"]].index(True) == i
    r = clients[0].post(f"/api/tables/{table_id}/start/")
    assert r.status_code == 201, r.content
    return int(r.json()["match_id"])


def test_four_people_over_several_days(make_user: Any) -> None:
    users = [make_user(f"p{i}", email=f"p{i}@example.com") for i in range(4)]
    clients = [client_for(u) for u in users]
    rng = random.Random(6)
    with time_machine.travel(START, tick=False) as clock:
        # p3 does not want email
        r = clients[3].patch("/api/me/settings/", {"email_notifications": False}, format="json")
        assert r.status_code == 200 and r.json()["email_notifications"] is False
        match_id = start_table(clients)
        match = Match.objects.get(pk=match_id)
        assert match.rated and match.move_seconds == DAY
        assert match.deadline == START + timedelta(days=1)
        assert match.remind_at == START + timedelta(hours=18)
        first = match.turn
        if first != 3:
            assert len(emails_to(f"p{first}@", "your turn")) == 1
        assert Notice.objects.filter(user=users[first], match=match, seq=0, kind="your_turn").exists()

        expiries = reminders = resigned_at = 0
        while True:
            match.refresh_from_db()
            if match.status == Match.Status.FINISHED:
                break
            turn = match.turn
            seat = Seat.objects.get(match=match, index=turn)
            assert not seat.played_by_bot, "bots move at once in eager mode"
            # "My matches" of the player to act: this match first, with the time left
            row = clients[turn].get("/api/matches/").json()[0]
            assert row["id"] == match_id and row["your_turn"]
            assert row["seconds_left"] == int((match.deadline - timezone.now()).total_seconds())
            if turn == 1:
                # p1 never moves: a reminder at 1/4 time left, then the autopilot at the deadline
                clock.move_to(match.remind_at + timedelta(seconds=1))
                before = len(emails_to("p1@", "reminder"))
                sweep_deadlines.delay()
                sweep_deadlines.delay()  # twice: still one reminder
                assert len(emails_to("p1@", "reminder")) == before + 1
                reminders += 1
                seq = match.seq
                clock.move_to(match.deadline + timedelta(seconds=1))
                sweep_deadlines.delay()
                sweep_deadlines.delay()
                action = Action.objects.get(match=match, seq=seq)
                assert action.seat == 1 and action.made_by == Action.MadeBy.AUTOPILOT
                expiries += 1
                seat.refresh_from_db()
                assert seat.missed_in_row == expiries
                assert seat.autopilot == (expiries >= 3)
                kind = "handed_over" if expiries >= 3 else "autopilot"
                assert Notice.objects.filter(user=users[1], match=match, seq=seq, kind=kind).count() == 1
                continue
            if turn == 2 and match.seq >= 60 and not resigned_at:
                r = clients[2].post(f"/api/matches/{match_id}/resign/")
                assert r.status_code == 200, r.content
                assert r.json()["seats"][2]["autopilot"] is True
                resigned_at = match.seq
                continue
            # p0 and p3 answer within a few hours
            clock.shift(timedelta(hours=rng.choice([1, 3, 7])))
            view = clients[turn].get(f"/api/matches/{match_id}/").json()
            assert view["your_turn"] and view["seconds_left"] is not None
            before_actions = match.seq
            r = clients[turn].post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json")
            assert r.status_code == 200, r.content
            match.refresh_from_db()
            assert match.seq > before_actions
            if match.status == Match.Status.ACTIVE:
                # the next person's turn has a fresh deadline from now
                assert match.deadline == timezone.now() + timedelta(days=1)

        assert timezone.now() - START > timedelta(days=5), "the match took several days"
        assert expiries == 3 and reminders == 3 and resigned_at
        s1 = Seat.objects.get(match=match, index=1)
        assert s1.autopilot and not s1.resigned
        s2 = Seat.objects.get(match=match, index=2)
        assert s2.autopilot and s2.resigned
        # after the hand-over p1's turns were played by the bot, recorded as autopilot, with no deadline
        later = Action.objects.filter(match=match, seat=1).order_by("seq")[3:]
        assert later and all(a.made_by == Action.MadeBy.AUTOPILOT for a in later)
        assert match.deadline is None
        # your-turn emails: one per turn of p0 (emails on); none for p3 (opted out)
        p0_turns = Notice.objects.filter(user=users[0], kind="your_turn").count()
        assert p0_turns > 10 and len(emails_to("p0@", "your turn")) == p0_turns
        assert Notice.objects.filter(user=users[3], kind="your_turn").count() > 10
        assert emails_to("p3@") == []
        assert len(emails_to("p1@", "bot now plays")) == 1
        assert all(f"/play/{match_id}/" in m.body for m in mail.outbox)

    # ratings: updated once, even if the task runs twice
    match.refresh_from_db()
    assert match.rated_at is not None
    assert RatingChange.objects.filter(match=match).count() == 4
    snapshot = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    assert rate_match.delay(match_id).get() is False
    assert rating_commands.rate_match(match_id) is False
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == snapshot
    totals = match_totals(match)
    ranks = rating_reads.ranks_by_totals(totals)
    for seat_index, user in enumerate(users):
        change = RatingChange.objects.get(match=match, rating__user=user)
        assert change.rank == ranks[seat_index]
        assert change.rating.games == 1
    best = ranks.index(1)
    assert RatingChange.objects.get(match=match, rating__user=users[best]).mu_after > 25
    # leaderboard and profile
    board = clients[0].get("/api/leaderboard/").json()
    assert [row["username"] for row in board] == sorted(
        [u.username for u in users], key=lambda n: -Rating.objects.get(user__username=n).conservative)
    prof = clients[1].get(f"/api/players/{users[best].username}/").json()
    assert prof["stats"]["matches"] == 1 and prof["stats"]["wins"] == 1
    assert prof["stats"]["mean_score"] == totals[best]
    assert len(prof["history"]) == 1 and prof["history"][0]["match_id"] == match_id


def match_totals(match: Match) -> tuple[int, ...]:
    return store.state_of(match).totals
