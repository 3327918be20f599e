"""Commands of bot accounts: the upgrade (for good) and recording an event for a bot (once per key)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games.accounts.models import BotAccount
from games.errors import GameError, TableConflict
from games.matches.models import Match, Seat

from .models import BotEvent


def upgrade(user: Any) -> tuple[BotAccount, bool]:
    """Make ``user`` a bot account, for good: only an account that has played no rated match (a person's
    rating must not become a program's), never staff. Returns the bot account and whether it was made now
    (asking again answers the same). Its seats in running matches are told their turns from now on."""
    if user.is_staff or user.is_superuser:
        raise GameError("staff_account", "A staff account cannot become a bot account.")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # two upgrades at once: one
        existing = BotAccount.objects.filter(user=user).first()
        if existing is not None:
            return existing, False
        if Seat.objects.filter(user=user, match__rated=True).exclude(match__status=Match.Status.ABORTED).exists():
            raise TableConflict("rated_matches", "This account has played rated matches; a bot account starts from "
                                                 "a fresh account (sign up a new one for the bot).")
        account = BotAccount.objects.create(user=user)
        Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE).update(bot_account=True)
    return account, True


def _key(kind: str, match_id: int | None, table_id: int | None, seq: int | None) -> str:
    return f"{kind}:{match_id or ''}:{table_id or ''}:{'' if seq is None else seq}"


def record(user_id: int, kind: str, *, match_id: int | None = None, table_id: int | None = None,
           seq: int | None = None) -> dict[str, object] | None:
    """Store one event for a bot account and return its JSON; None if it was recorded already (a reaction run
    twice, an invitation repeated)."""
    try:
        with transaction.atomic():
            event = BotEvent.objects.create(user_id=user_id, kind=kind, match_id=match_id, table_id=table_id,
                                            seq=seq, key=_key(kind, match_id, table_id, seq))
    except IntegrityError:
        return None
    return event.to_json()
