"""``games.effects`` sends tasks by name: every name it uses must be a registered Celery task, and the
after-commit hooks must not run before the commit (nor at all after a rollback)."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app
from django.db import transaction

from games import effects
from games.matches import commands
from games.models import Action, Match


def test_every_task_name_effects_sends_is_registered() -> None:
    names = [effects.BOT_MOVE, effects.EXPIRE_TURN, effects.REMIND_TURN, effects.RATE_MATCH,
             effects.SEND_NOTICE_EMAIL]
    missing = [name for name in names if name not in current_app.tasks]
    assert not missing, f"effects sends tasks nobody registered: {missing}"


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_write_sends_nothing(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[int, int]] = []

    def record(match_id: int, seq: int, event: str = "match.updated", public: Any = None) -> None:
        sent.append((match_id, seq))

    monkeypatch.setattr(effects, "notify_match", record)
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
