"""Commands of bot accounts: the upgrade (for good) and recording an event for a bot (once per key)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.dispatch import Signal

from games.accounts import reads as account_reads
from games.accounts.models import BotAccount
from games.matches.models import Match, Seat
from games.platform.errors import Forbidden, GameError, TableConflict

from .models import BotEvent

#: Sent inside the upgrade's transaction (``user``; the account's row locked), before the account is checked and
#: made a bot account: a concept above this one lets go of what only a person holds there (quick match cancels the
#: account's waiting seek, so a bot account is never seated in the people's pool). A receiver's error refuses the
#: upgrade; a refused upgrade rolls back what the receivers did.
upgrading = Signal()


def upgrade(user: Any) -> tuple[BotAccount, bool]:
    """Make ``user`` a bot account, for good: only an account that has played no rated match (a person's
    rating must not become a program's), never staff. Returns the bot account and whether it was made now
    (asking again answers the same). Its seats in running matches are told their turns from now on, and what it
    waits for as a person is let go (``upgrading``)."""
    if user.is_staff or user.is_superuser:
        raise GameError("staff_account", "A staff account cannot become a bot account.")
    if account_reads.is_guest(user):  # a guest's account is its session's, and its games are kept by a person
        raise Forbidden("guest_account", "A guest account cannot become a bot account; sign up an account for the bot.")
    with transaction.atomic():
        # Two upgrades at once: one. NO KEY: rows naming the account (a pairing run seating it) still go in, so a
        # receiver waiting for that run does not deadlock with it.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        existing = BotAccount.objects.filter(user=user).first()
        if existing is not None:
            return existing, False
        upgrading.send(sender=BotAccount, user=user)  # before the checks: they see a seat a pairing run just made
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
