"""``games.outbox``: every task keeps the name brokers and beat know it by, every event has its reactions,
and reactions run only after the commit (never after a rollback)."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app
from django.db import transaction

from games import outbox
from games.accounts.events import AccountDeactivated, CredentialsRevoked
from games.analysis.events import AnalysisProgress, AnalysisQueued
from games.matches import commands
from games.matches.events import MatchAdvanced, NoticeDue, SeatsChanged
from games.models import Action, Match
from games.tables.events import TableChanged

TASK_NAMES = ["bot_move", "expire_turn", "remind_turn", "rate_match", "send_notice_email", "start_analyses",
              "analyze_seat", "resume_stalled_bot_turns", "sweep_deadlines"]


def test_every_task_keeps_its_registered_name() -> None:
    missing = [name for name in TASK_NAMES if f"games.tasks.{name}" not in current_app.tasks]
    assert not missing, f"tasks nobody registered under their names: {missing}"


@pytest.mark.parametrize("event", [MatchAdvanced, SeatsChanged, NoticeDue, CredentialsRevoked, AccountDeactivated,
                                   AnalysisQueued, AnalysisProgress, TableChanged])
def test_every_event_has_a_reaction(event: type[outbox.Event]) -> None:
    assert outbox.reactions_to(event), f"nothing reacts to {event.__name__}"


def test_the_match_reacts_to_its_own_advance_first() -> None:
    names = [f.__module__ for f in outbox.reactions_to(MatchAdvanced)]
    assert names[0] == "games.matches.reactions", names


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_write_sends_nothing(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[int, int]] = []

    def record(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "match.updated":
            sent.append((message["match_id"], message["seq"]))

    monkeypatch.setattr(outbox, "group_send_now", record)
    user = make_user("ann")

    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        commands.create_match(seats=[commands.SeatSpec(user=user)] + [commands.SeatSpec(bot="random")] * 3)
        raise Boom
    assert sent == [] and not Match.objects.exists()
    match = commands.create_match(seats=[commands.SeatSpec(user=user)] + [commands.SeatSpec(bot="random")] * 3)
    # once committed: the start, then one message for the bots' moves until the person's turn, if any
    moves = Action.objects.filter(match=match).count()
    assert sent == [(match.pk, 0)] + ([(match.pk, moves)] if moves else [])


def test_a_failing_reaction_does_not_stop_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []

    def boom(event: TableChanged) -> None:
        raise RuntimeError("boom")

    monkeypatch.setitem(outbox._REACTIONS, TableChanged, [boom, lambda event: ran.append("second")])
    outbox.dispatch(TableChanged(1))
    assert ran == ["second"]


def test_only_the_outbox_sends() -> None:
    """``transaction.on_commit``, group messages and task sending appear in ``games/outbox.py`` only."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "games"
    pattern = re.compile(r"\bon_commit\(|\bgroup_send\(|\.apply_async\(|\.delay\(|\bsend_task\(")
    found = [f"{path.relative_to(root)}:{n}" for path in sorted(root.rglob("*.py")) if path.name != "outbox.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == [], found
