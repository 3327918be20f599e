"""The pools never share a table, even when an account changes kind while it waits: the upgrade to a bot account
cancels the account's waiting seek, and the pairing run drops a people's seek whose account is now a bot account
(and a bots' seek whose account is no longer one). On PostgreSQL, an upgrade waits for a pairing run that holds
its seek, and the two never deadlock."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection, connections
from django.utils import timezone
from rest_framework.test import APIClient
from site_helpers import client_for

from games.bots import commands as bot_commands
from games.matches.commands import SeatSpec, create_match
from games.models import BotAccount, Match, Seat, Seek
from games.quickmatch import commands
from games.tasks import pair_quick_matches

pytestmark = pytest.mark.django_db(transaction=True)

BODY = {"pace": "correspondence", "rated": False}


@pytest.fixture(autouse=True)
def _waits(settings: Any) -> None:
    """The tests run the pairing themselves (time frozen or moved on); no timer thread outlives a test."""
    settings.QUICK_MATCH_EAGER_TIMER = False
    settings.QUICK_MATCH_BOTS_AFTER = 20
    settings.QUICK_MATCH_BOT_POOL_AFTER = 5


def seek(client: APIClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/quick-match/", {**BODY, **body}, format="json")
    assert r.status_code == 201, r.content
    data: dict[str, Any] = r.json()
    return data


def humans_at(match_id: int) -> set[int]:
    return set(Seat.objects.filter(match_id=match_id, kind="human").values_list("user_id", flat=True))


def test_an_account_upgraded_while_it_waits_is_not_seated_with_people(make_user: Any) -> None:
    robo = make_user("robo")
    client = client_for(robo)
    people = [make_user(f"p{i}") for i in range(3)]
    with time_machine.travel(timezone.now(), tick=False) as clock:
        mine = seek(client)
        assert client.post("/api/bot/account/upgrade/", {}, format="json").status_code == 201
        got = client.get(f"/api/quick-match/{mine['id']}/").json()
        assert got["status"] == "cancelled" and got["match_id"] is None  # the upgrade ended its wait
        theirs = [seek(client_for(p)) for p in people]
        assert [s["status"] for s in theirs] == ["waiting"] * 3  # three people: no table yet, no bot account
        assert pair_quick_matches.apply().get() == 0
        clock.shift(timedelta(seconds=21))
        assert pair_quick_matches.apply().get() == 1  # house bots fill the seat nobody came for
    match = Match.objects.get()
    assert humans_at(match.pk) == {p.pk for p in people}
    assert not Seat.objects.filter(user=robo).exists()
    assert not Seek.objects.filter(user=robo, status="waiting").exists()
    # a bot account seeks in its own pool, as before
    assert seek(client, pool="bots", pace="live", rated=True)["status"] == "waiting"


def test_a_refused_upgrade_leaves_the_seek_waiting(make_user: Any) -> None:
    amy = make_user("amy")
    create_match(seats=[SeatSpec(user=amy), *[SeatSpec(bot="normal")] * 3], rated=True)
    client = client_for(amy)
    mine = seek(client)
    r = client.post("/api/bot/account/upgrade/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "rated_matches"
    assert client.get(f"/api/quick-match/{mine['id']}/").json()["status"] == "waiting"  # rolled back with it


def test_pairing_drops_a_peoples_seek_whose_account_became_a_bot(make_user: Any) -> None:
    robo = make_user("robo")
    people = [make_user(f"p{i}") for i in range(3)]
    mine = seek(client_for(robo))
    BotAccount.objects.create(user=robo)  # behind the upgrade's back: only the pairing run can tell
    with time_machine.travel(timezone.now(), tick=False):
        last = [seek(client_for(p)) for p in people][-1]  # the fourth seek of the pool sets off a pairing run
    assert last["status"] == "waiting" and not Match.objects.exists()
    dropped = Seek.objects.get(pk=mine["id"])
    assert dropped.status == "cancelled" and dropped.ended_at is not None


def test_pairing_drops_a_bots_seek_whose_account_is_no_longer_a_bot(make_user: Any) -> None:
    robo = make_user("robo")
    client = client_for(robo)
    assert client.post("/api/bot/account/upgrade/", {}, format="json").status_code == 201
    mine = seek(client, pool="bots", pace="live", rated=True)
    BotAccount.objects.filter(user=robo).delete()  # the admin deleted the bot account
    with time_machine.travel(timezone.now() + timedelta(seconds=6), tick=False):
        assert commands.pair() == []  # it would have had house bots by now
    assert Seek.objects.get(pk=mine["id"]).status == "cancelled"
    assert not Match.objects.exists()


def _wait_for(check: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


class Threads:
    """Work in threads, each on its own database connection, its backend's pid and its errors kept."""

    def __init__(self) -> None:
        self.pids: dict[str, int] = {}
        self.errors: list[BaseException] = []
        self.threads: dict[str, threading.Thread] = {}

    def start(self, name: str, work: Any) -> None:
        def run() -> None:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    self.pids[name] = cursor.fetchone()[0]
                work()
            except BaseException as exc:  # reported by the test
                self.errors.append(exc)
            finally:
                connections.close_all()

        self.threads[name] = threading.Thread(target=run)
        self.threads[name].start()

    def waits_on_a_lock(self, name: str) -> bool:
        """Whether ``name`` is waiting for a row lock now (its backend in ``pg_stat_activity``)."""
        if name not in self.pids:
            return False
        with connection.cursor() as cursor:
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [self.pids[name]])
            row = cursor.fetchone()
        return row is not None and row[0] == "Lock"

    def held_up(self, name: str) -> bool:
        """Wait (bounded) until ``name`` waits for a lock or ends; whether it waits."""
        thread = self.threads[name]
        _wait_for(lambda: not thread.is_alive() or self.waits_on_a_lock(name), f"{name} to wait or end")
        return thread.is_alive()

    def join(self) -> None:
        for thread in self.threads.values():
            thread.join(15)
        assert not any(t.is_alive() for t in self.threads.values()), "a thread is stuck"


def _held(monkeypatch: Any, owner: Any, name: str) -> tuple[threading.Event, threading.Event]:
    """Hold ``owner.name`` on its way in: (reached, release)."""
    reached, release = threading.Event(), threading.Event()
    real = getattr(owner, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        assert release.wait(10), "never released"
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, held)
    return reached, release


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_an_upgrade_waits_for_the_pairing_run_holding_its_seek_and_never_deadlocks(
        make_user: Any, settings: Any, monkeypatch: Any) -> None:
    """A pairing run has locked the person's seek and is about to seat it (rows naming the account, whose foreign
    keys lock the account's row for key share); the upgrade, which locks the account's row, must wait for the seek
    and let the run finish: then the seat it made is marked a bot account's. Before, the upgrade went ahead and the
    run seated a bot account with people; locking the account's row ``FOR UPDATE`` deadlocks the two."""
    settings.QUICK_MATCH_BOTS_AFTER = 0
    robo = make_user("robo")
    Seek.objects.create(user=robo, pace="correspondence", rated=False, skill=25.0, waiting_since=timezone.now())
    seating, release = _held(monkeypatch, commands, "_seat")
    work = Threads()
    work.start("pair", commands.pair)
    assert seating.wait(10)  # the run holds the seek
    work.start("upgrade", lambda: bot_commands.upgrade(robo))
    try:
        assert work.held_up("upgrade"), "the upgrade went ahead while a pairing run held the account's seek"
    finally:
        release.set()
        work.join()
    assert not work.errors, work.errors
    assert BotAccount.objects.filter(user=robo).exists()
    seek_row = Seek.objects.get(user=robo)
    assert seek_row.status == "matched"  # seated while a person; from now on its seat is a bot account's
    assert Seat.objects.get(match_id=seek_row.match_id, user=robo).bot_account


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_a_seek_opened_during_an_upgrade_is_cancelled_by_it(make_user: Any, monkeypatch: Any) -> None:
    """A seek checked as a person's and not yet stored, while the account is upgraded: the upgrade waits for it
    (both lock the account's row) and cancels it. Before, the seek stayed waiting in the people's pool."""
    robo = make_user("robo")
    checked, release = _held(monkeypatch, Seek.objects, "create")
    work = Threads()
    work.start("seek", lambda: commands.open_seek(robo, **BODY))
    assert checked.wait(10)  # past its checks, a person's seek
    work.start("upgrade", lambda: bot_commands.upgrade(robo))
    try:
        assert work.held_up("upgrade"), "the upgrade went ahead while a seek of the account was being opened"
    finally:
        release.set()
        work.join()
    assert not work.errors, work.errors
    assert BotAccount.objects.filter(user=robo).exists()
    assert Seek.objects.get(user=robo).status == "cancelled"
