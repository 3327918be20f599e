"""What the bots concept does once a write has committed: record the event a bot account must answer (its turn,
an invitation, a match over) and tell the bot's open sockets (``/ws/me/``) and event streams."""

from __future__ import annotations

from games.matches.events import MatchAdvanced
from games.platform import outbox
from games.platform.groups import bot_events_group, user_group, user_message
from games.tables.events import BotInvited

from . import commands
from .models import BotEvent


def _tell(user_id: int, payload: dict[str, object] | None) -> None:
    if payload is None:  # recorded before: told before
        return
    outbox.group_send_now(user_group(user_id), user_message(payload))
    outbox.group_send_now(bot_events_group(user_id), {"type": "bot.event", "id": payload["id"]})


def match_advanced(event: MatchAdvanced) -> None:
    """A bot account's turn began: ``your_turn``; the match ended: ``match_over`` to each bot account in it."""
    seat = event.match.seat_to_act
    if seat is not None and seat.bot_account and seat.user_id is not None and not seat.played_by_bot:
        _tell(seat.user_id, commands.record(seat.user_id, BotEvent.Kind.YOUR_TURN, match_id=event.match_id,
                                            seq=event.seq))
    if event.finished:
        bot_accounts = {s.user_id for s in event.match.seats if s.bot_account and s.user_id is not None}
        for user_id in sorted(bot_accounts):
            _tell(user_id, commands.record(user_id, BotEvent.Kind.MATCH_OVER, match_id=event.match_id))


def bot_invited(event: BotInvited) -> None:
    _tell(event.user_id, commands.record(event.user_id, BotEvent.Kind.INVITED, table_id=event.table_id))
