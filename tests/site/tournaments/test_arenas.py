"""Arenas through the API and the pairing run: join before or during, four free people share a match, a finished
match counts into the standings (live on the standings socket) and frees its people, never the same four twice in
a row, bots after the wait, paused and withdrawn people never seated, a crashing run loses no one, the end (no new
match, running ones count, the podium), the API's errors, the admin and the pages."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.utils import timezone
from prometheus_client import REGISTRY
from site_helpers import browser, client_for, next_of, ws

from games.accounts.models import BotAccount, Guest
from games.matches import commands as match_commands
from games.models import ArenaMatch, Entry, Match, Rating, Result, Seat, Tournament
from games.tournaments import commands, scoring
from games.tournaments.tasks import sweep

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_timer_threads(settings: Any) -> None:
    """The tests run the pairing themselves (time frozen or moved on); no timer thread outlives a test."""
    settings.TOURNAMENT_EAGER_TIMER = False
    settings.TOURNAMENT_BOTS_AFTER = 30
    settings.TOURNAMENT_SCHEDULE = []


def arena(minutes: int = 30, started: float = 60, **extra: Any) -> Tournament:
    return Tournament.objects.create(name="Test Arena", starts_at=timezone.now() - timedelta(seconds=started),
                                     minutes=minutes, **extra)


def join(user: Any, t: Tournament) -> dict[str, Any]:
    r = client_for(user).post(f"/api/tournaments/{t.pk}/join/")
    assert r.status_code == 200, r.content
    data: dict[str, Any] = r.json()
    return data


def finish(match_id: int) -> None:
    """Every person hands their seat to the bot, which plays the match out (eager mode: at once)."""
    for seat in Seat.objects.filter(match_id=match_id, kind="human"):
        match_commands.resign(seat.user, match_id)
    assert Match.objects.get(pk=match_id).status == "finished"


def playing(t: Tournament) -> dict[int, int | None]:
    return dict(Entry.objects.filter(tournament=t).values_list("user_id", "match_id"))


def test_four_people_share_a_match_and_it_counts(make_user: Any) -> None:
    people = [make_user(f"a{i}") for i in range(4)]
    t = arena()
    for u in people[:3]:
        assert join(u, t)["me"]["status"] == "active"
    assert not ArenaMatch.objects.exists()  # three wait
    data = join(people[3], t)  # the fourth completes a table at once
    game = ArenaMatch.objects.get()
    assert data["me"]["playing"] == game.match_id
    seats = Seat.objects.filter(match_id=game.match_id)
    assert {s.user_id for s in seats} == {u.pk for u in people} and {s.kind for s in seats} == {"human"}
    match = Match.objects.get(pk=game.match_id)
    assert match.rated and match.move_seconds == t.move_seconds
    finish(game.match_id)
    game.refresh_from_db()
    assert game.counted_at is not None
    results = list(Result.objects.filter(game=game).select_related("entry"))
    assert len(results) == 4 and sum(r.points for r in results) == 7 * scoring.UNIT  # 4 + 2 + 1 + 0, ties shared
    standings = client_for(people[0]).get(f"/api/tournaments/{t.pk}/").json()
    assert [r["points"] for r in standings["standings"]] == sorted((r.points for r in results), reverse=True)
    assert all(r["matches"] == 1 and r["playing"] is None for r in standings["standings"])
    assert all(r["results"][0]["match_id"] == game.match_id for r in standings["standings"])
    # free again, but the same four never sit together twice in a row: they wait
    assert commands.pair(t.pk) == []
    assert set(playing(t).values()) == {None}


def test_bots_fill_in_after_the_wait_and_score_nothing(make_user: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    t = arena()
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        join(amy, t)
        join(bo, t)
        clock.shift(timedelta(seconds=29))
        assert commands.pair(t.pk) == []
        clock.shift(timedelta(seconds=1.5))
        made = commands.pair(t.pk)
    assert len(made) == 1
    seats = list(Seat.objects.filter(match_id=made[0]))
    assert sorted(s.kind for s in seats) == ["bot", "bot", "human", "human"]
    finish(made[0])
    results = {r.entry.user_id: r for r in Result.objects.select_related("entry")}
    assert set(results) == {amy.pk, bo.pk}  # bots score nothing
    assert sorted(r.points for r in results.values()) in ([24, 48], [36, 36])  # places among the two people


def test_the_pairings_own_delay_is_measured_apart_from_the_rules_wait(make_user: Any) -> None:
    """/metrics tells operators how late the pairing seats a group the rules let sit: from the fourth person free,
    or from the end of the longest waiter's wait for bots, not from each one's free moment."""
    t0 = timezone.now()
    at = lambda s: t0 + timedelta(seconds=s)  # noqa: E731
    assert commands.seatable_at([at(0), at(3), at(5), at(9)], 30) == at(9)  # four: when the fourth is free
    assert commands.seatable_at([at(0), at(20)], 30) == at(30)  # with bots: when the first one's wait is over
    assert commands.seatable_at([at(0), at(40)], 30) == at(40)  # ... but not before all of them are free

    def observed() -> tuple[float, float]:
        sample = {s.name: s.value for m in REGISTRY.collect() if m.name == "callbreak_arena_seat_delay_seconds"
                  for s in m.samples}
        return sample["callbreak_arena_seat_delay_seconds_count"], sample["callbreak_arena_seat_delay_seconds_sum"]

    amy, bo = make_user("amy"), make_user("bo")
    t = arena()
    count, total = observed()
    with time_machine.travel(t0, tick=False) as clock:
        join(amy, t)
        clock.shift(timedelta(seconds=10))
        join(bo, t)
        clock.shift(timedelta(seconds=22))  # amy's wait ended 2 s ago
        assert len(commands.pair(t.pk)) == 1
    after = observed()
    assert after[0] == count + 1 and after[1] - total == pytest.approx(2.0, abs=0.01)


def test_paused_and_withdrawn_people_are_never_seated(make_user: Any) -> None:
    people = [make_user(f"p{i}") for i in range(5)]
    t = arena()
    with time_machine.travel(timezone.now(), tick=False):
        join(people[0], t)
        client_for(people[0]).post(f"/api/tournaments/{t.pk}/pause/")
        join(people[1], t)
        client_for(people[1]).post(f"/api/tournaments/{t.pk}/withdraw/")
        for u in people[2:]:
            join(u, t)
    assert not ArenaMatch.objects.exists()
    with time_machine.travel(timezone.now() + timedelta(seconds=60), tick=False):
        made = commands.pair(t.pk)
    assert len(made) == 1
    seated = set(Seat.objects.filter(match_id=made[0], kind="human").values_list("user_id", flat=True))
    assert seated == {u.pk for u in people[2:]}
    # the paused one comes back and is seated; the withdrawn one cannot
    assert join(people[0], t)["me"]["status"] == "active"
    r = client_for(people[1]).post(f"/api/tournaments/{t.pk}/join/")
    assert r.status_code == 409 and r.json()["code"] == "withdrawn"


def test_a_deactivated_person_is_never_seated(make_user: Any) -> None:
    people = [make_user(f"d{i}") for i in range(4)]
    t = arena()
    with time_machine.travel(timezone.now(), tick=False):
        for u in people[:3]:
            join(u, t)
        people[0].is_active = False
        people[0].save()
        join(people[3], t)
    assert not ArenaMatch.objects.exists()  # three active people: they wait
    assert Entry.objects.get(user=people[0]).status == "withdrawn"


def test_a_crashing_pairing_run_loses_no_one(make_user: Any, monkeypatch: Any) -> None:
    people = [make_user(f"c{i}") for i in range(8)]
    t = arena()
    monkeypatch.setattr(commands, "PAIRING_BATCH", 64)
    with time_machine.travel(timezone.now(), tick=False):
        Entry.objects.bulk_create(Entry(tournament=t, user=u, free_since=timezone.now()) for u in people)
        calls = {"n": 0}
        real = commands.start_full_table

        def crash_on_second(*args: Any, **kwargs: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == 2:
                raise RuntimeError("the database went away")
            return real(*args, **kwargs)

        monkeypatch.setattr(commands, "start_full_table", crash_on_second)
        with pytest.raises(RuntimeError):
            commands.pair(t.pk)
        assert not ArenaMatch.objects.exists() and not Match.objects.exists()  # rolled back whole
        assert set(playing(t).values()) == {None}
        monkeypatch.setattr(commands, "start_full_table", real)
        made = commands.pair(t.pk)
    assert len(made) == 2
    seated = list(Seat.objects.filter(match_id__in=made, kind="human").values_list("user_id", flat=True))
    assert sorted(seated) == sorted(u.pk for u in people)  # everyone once


def test_a_crowd_beyond_one_batch_is_seated_by_the_runs_that_follow(make_user: Any, monkeypatch: Any) -> None:
    """A run takes PAIRING_BATCH free people; one that took a whole batch sends the next, so a crowd that joined
    before the first run started is all seated at once, not the rest at the next join, match end or sweep."""
    people = [make_user(f"b{i}") for i in range(20)]
    t = arena()
    monkeypatch.setattr(commands, "PAIRING_BATCH", 8)
    with time_machine.travel(timezone.now(), tick=False):
        Entry.objects.bulk_create(Entry(tournament=t, user=u, free_since=timezone.now()) for u in people)
        made = commands.pair(t.pk)  # the first run: its batch, then (after its commit) the runs that follow
    assert len(made) == 2
    assert ArenaMatch.objects.filter(tournament=t).count() == 5  # 20 people, 5 tables
    assert set(playing(t).values()) != {None} and None not in set(playing(t).values())


def test_one_person_is_never_in_two_matches_of_one_arena(make_user: Any) -> None:
    people = [make_user(f"o{i}") for i in range(4)]
    t = arena()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for u in people:
            join(u, t)
        clock.shift(timedelta(seconds=120))
        assert commands.pair(t.pk) == []  # all four are playing: nobody is free
        assert join(people[0], t)["me"]["playing"]  # joining again changes nothing
        assert commands.pair(t.pk) == []
    assert ArenaMatch.objects.count() == 1


def test_the_end_no_new_match_running_ones_count_and_the_podium(make_user: Any) -> None:
    people = [make_user(f"e{i}") for i in range(4)]
    t = arena(minutes=15, started=15 * 60 - 10)  # ten seconds left
    for u in people:
        join(u, t)
    game = ArenaMatch.objects.get()
    later = timezone.now() + timedelta(seconds=60)
    with time_machine.travel(later, tick=False):
        assert join_refused(people[0], t) == (409, "tournament_over")
        Entry.objects.filter(tournament=t).update(last_four="")  # even a fresh four would not be seated now
        assert commands.pair(t.pk) == []
        assert sweep()["closed"] == 0  # a match still runs
        finish(game.match_id)  # it finishes after the time and counts; the arena closes with it
        t.refresh_from_db()
        assert t.closed_at is not None
        data = client_for(people[0]).get(f"/api/tournaments/{t.pk}/").json()
    assert data["phase"] == "finished" and len(data["podium"]) == 3
    assert [p["username"] for p in data["podium"]] == [r["username"] for r in data["standings"][:3]]
    assert sum(r["points"] for r in data["standings"]) == 7 * scoring.UNIT
    page = browser(people[0]).get(f"/arenas/{t.pk}/")
    assert page.status_code == 200 and b'data-testid="podium"' in page.content


def join_refused(user: Any, t: Tournament) -> tuple[int, str]:
    r = client_for(user).post(f"/api/tournaments/{t.pk}/join/")
    body = r.json()
    assert set(body) >= {"code", "detail"}
    return r.status_code, body["code"]


def test_the_api_refuses_with_codes(make_user: Any, client: Any) -> None:
    amy = make_user("amy")
    t = arena(rated=True, rating_limit=1600)
    assert client_for(amy).post("/api/tournaments/999999/join/").status_code == 404
    assert client_for(amy).get("/api/tournaments/999999/").json()["code"] == "not_found"
    r = client_for(amy).post(f"/api/tournaments/{t.pk}/pause/")
    assert r.status_code == 400 and r.json()["code"] == "not_joined"
    strong = make_user("strong")
    Rating.objects.create(user=strong, mu=31.0, sigma=2.0, games=40)  # 1620 shown
    assert join_refused(strong, t) == (403, "rating_over_limit")
    guest = make_user("guest1")
    Guest.objects.create(user=guest)
    assert join_refused(guest, t) == (403, "guest_unrated")
    program = make_user("program")
    BotAccount.objects.create(user=program)
    assert join_refused(program, t) == (403, "people_only")
    bots = arena(pool="bots")
    assert join_refused(amy, bots) == (403, "bots_only")
    done = arena(minutes=15, started=3600)
    assert join_refused(amy, done) == (409, "tournament_over")
    assert client.post(f"/api/tournaments/{t.pk}/join/").status_code in (401, 403)  # signed out
    assert client.get(f"/api/tournaments/{t.pk}/").status_code == 200  # the standings are public
    assert client.get("/api/tournaments/").status_code == 200
    assert client_for(amy).post("/api/tournaments/abc/join/").status_code == 404


def test_bot_accounts_have_their_own_arenas(make_user: Any, settings: Any) -> None:
    settings.BOT_LADDER_HOUSE_BOTS = ["heuristic"]
    programs = [make_user(f"bot{i}") for i in range(2)]
    for p in programs:
        BotAccount.objects.create(user=p)
    t = arena(pool="bots")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for p in programs:
            join(p, t)
        clock.shift(timedelta(seconds=31))
        made = commands.pair(t.pk)
    assert len(made) == 1
    seats = list(Seat.objects.filter(match_id=made[0]))
    assert {s.user_id for s in seats if s.kind == "human"} == {p.pk for p in programs}
    assert {s.bot for s in seats if s.kind == "bot"} == {"heuristic"}  # the ladder's house bots


async def test_the_standings_socket_follows_the_arena(make_user: Any) -> None:
    people = [await database_sync_to_async(make_user)(f"s{i}") for i in range(4)]
    t = await database_sync_to_async(arena)()
    sock = await ws(f"/ws/tournaments/{t.pk}/", people[0])
    first = await next_of(sock, "standings")
    assert first["tournament"]["id"] == t.pk and first["tournament"]["standings"] == []
    for u in people:
        await database_sync_to_async(join)(u, t)
    game = await database_sync_to_async(ArenaMatch.objects.get)()
    await database_sync_to_async(finish)(game.match_id)
    while True:  # the last message: everyone counted
        msg = await next_of(sock, "standings")
        rows = msg["tournament"]["standings"]
        if rows and all(r["matches"] == 1 for r in rows):
            break
    assert sum(r["points"] for r in rows) == 7 * scoring.UNIT
    await sock.send_to(text_data="{}")
    assert (await sock.receive_json_from(timeout=5))["code"] == "bad_message"
    await sock.disconnect()


def test_a_crowd_joining_at_once_gets_the_standings_spaced(make_user: Any, settings: Any,
                                                            monkeypatch: Any) -> None:
    """Twenty joins within the spacing: the first change is sent at once, the rest once at its end (one send with
    all of them), and a change after that is sent at once again."""
    from django.core.cache import cache

    from games.platform import outbox as outbox_module
    from games.tournaments import tasks

    settings.TOURNAMENT_STANDINGS_SPACING = 0.5
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as on the real stack: eager mode sends every change at once
    cache.clear()
    sent: list[int] = []
    later: list[tuple[Any, tuple[Any, ...], float | None]] = []
    real_send = outbox_module.group_send_now
    monkeypatch.setattr(outbox_module, "group_send_now", lambda group, message: (
        sent.append(len(message["standings"]["standings"])) if message.get("type") == "tournament.standings"
        else real_send(group, message)))
    real_task_now = outbox_module.task_now

    def task_now(task: Any, *args: Any, countdown: float | None = None, **kw: Any) -> None:
        if task is tasks.send_standings_due:
            later.append((task, args, countdown))
        else:
            real_task_now(task, *args, countdown=countdown, **kw)

    monkeypatch.setattr(outbox_module, "task_now", task_now)
    people = [make_user(f"c{i}") for i in range(20)]
    t = arena(started=-600)  # not started yet: joins pair no one
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for u in people:
            join(u, t)
        assert sent == [1]  # the first join's standings, at once
        assert [(task, args, wait) for task, args, wait in later] == [(tasks.send_standings_due, (t.pk,), 0.5)]
        later[0][0](*later[0][1])  # the task, at the spacing's end: every join since, in one send
        assert sent == [1, 20]
        clock.shift(timedelta(seconds=0.6))
        commands.pause(people[0], t.pk)
        assert sent == [1, 20, 20] and len(later) == 1  # the spacing over: at once


def test_a_crowd_joining_at_once_sends_few_pairing_runs(make_user: Any, settings: Any, monkeypatch: Any) -> None:
    """Twenty joins in one second, before the run they sent starts: one run now and one for just after their wait
    (not one of each per join); the run, once started, takes its mark off, so the next join sends the next run now,
    and a join a second later its own run after the wait, within a second of its wait's end."""
    from django.core.cache import cache

    from games.platform import outbox as outbox_module
    from games.tournaments import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False  # as on the real stack (eager mode runs each at once)
    cache.clear()
    now: list[tuple[Any, tuple[Any, ...]]] = []
    later: list[datetime] = []

    def task_now(task: Any, *args: Any, eta: datetime | None = None, **kw: Any) -> None:
        if task is tasks.pair_arena:
            (later.append(eta) if eta is not None else now.append((task, args)))

    monkeypatch.setattr(outbox_module, "task_now", task_now)
    monkeypatch.setattr(outbox_module, "group_send_now", lambda group, message: None)
    people = [make_user(f"p{i}") for i in range(22)]
    t = arena()
    start = timezone.now().replace(microsecond=100_000)
    with time_machine.travel(start, tick=False) as clock:
        for u in people[:20]:
            join(u, t)
        assert len(now) == 1 and len(later) == 1
        assert timedelta(seconds=30.5) <= later[0] - start <= timedelta(seconds=31.5)
        now[0][0](*now[0][1])  # the run: five tables of four
        assert sum(m is not None for m in playing(t).values()) == 20
        join(people[20], t)
        assert len(now) == 2 and len(later) == 1  # the mark was off: a run now; the same second's run after the wait
        clock.shift(timedelta(seconds=1))
        join(people[21], t)
        assert len(later) == 2 and later[1] - later[0] == timedelta(seconds=1)


def test_the_pages_and_the_admin(make_user: Any, root: Any) -> None:
    amy = make_user("amy")
    t = arena()
    page = browser(amy).get("/arenas/")
    assert page.status_code == 200 and f'href="/arenas/{t.pk}/"'.encode() in page.content
    assert browser(amy).get(f"/arenas/{t.pk}/").status_code == 200
    assert browser(amy).get("/arenas/999999/").status_code == 404
    r = root.post("/admin/games/tournament/add/", {
        "name": "Friday Arena", "pool": "people", "starts_at_0": "2030-01-01", "starts_at_1": "18:00:00",
        "minutes": "200", "move_seconds": "15", "rated": "on",
        "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0"})
    assert r.status_code == 200 and not Tournament.objects.filter(name="Friday Arena").exists()  # 15 to 120 minutes
    r = root.post("/admin/games/tournament/add/", {
        "name": "Friday Arena", "pool": "people", "starts_at_0": "2030-01-01", "starts_at_1": "18:00:00",
        "minutes": "60", "move_seconds": "15", "rated": "on",
        "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0"})
    assert r.status_code == 302, r.content[:2000]
    assert Tournament.objects.get(name="Friday Arena").minutes == 60


def test_beat_makes_the_scheduled_arenas_once(settings: Any) -> None:
    settings.TOURNAMENT_SCHEDULE = [{"key": "hourly", "name": "Hourly", "every_hours": 1, "at_minute": 0,
                                     "minutes": 30}]
    settings.TOURNAMENT_SCHEDULE_AHEAD = 3600
    assert len(commands.schedule()) == 1
    assert commands.schedule() == []
    t = Tournament.objects.get()
    assert t.starts_at > timezone.now() and t.starts_at.minute == 0 and t.schedule == "hourly"


def test_the_watch_page_lists_the_arenas_top_tables(make_user: Any) -> None:
    """The Watch page's arena section: an arena's running matches, the one whose people have the most points first;
    a finished one leaves it."""
    people = [make_user(f"w{i}") for i in range(8)]
    t = arena()
    for u in people:
        join(u, t)
    games = list(ArenaMatch.objects.order_by("pk").values_list("match_id", flat=True))
    assert len(games) == 2
    Entry.objects.filter(tournament=t, match_id=games[1]).update(points=5 * scoring.UNIT)
    watcher = client_for(make_user("onlooker"))
    listed = watcher.get("/api/watch/").json()["arena_tables"]
    assert [row["id"] for row in listed] == [games[1], games[0]]
    finish(games[1])
    assert [row["id"] for row in watcher.get("/api/watch/").json()["arena_tables"]] == [games[0]]


def test_an_arena_and_my_entry_cost_three_reads(make_user: Any, django_assert_max_num_queries: Any) -> None:
    """The arena, its entries and their results: ``me`` comes from the rows just read (a crowd's joins each answer
    with the standings), the same for 3 people as for 30."""
    t = arena()
    people = [make_user(f"q{i}") for i in range(30)]
    Entry.objects.bulk_create(Entry(tournament=t, user=u, free_since=timezone.now(), points=i)
                              for i, u in enumerate(people))
    for who in (people[0], people[29]):
        client = client_for(who)
        client.get(f"/api/tournaments/{t.pk}/")  # the session's own reads, once
        with django_assert_max_num_queries(4):  # the session, then the arena, its entries, their results
            data = client.get(f"/api/tournaments/{t.pk}/").json()
        mine = next(r for r in data["standings"] if r["user_id"] == who.pk)
        assert data["me"] == {k: mine[k] for k in ("status", "points", "points_text", "matches", "streak", "playing")}
    assert client_for(make_user("outsider")).get(f"/api/tournaments/{t.pk}/").json()["me"] is None
