"""Channels group names: who listens where, and the shapes every group message shares.

Group messages carry ids, ``seq``, times and what every seat at a match may see (the bids and cards already
played, in ``match.updated``), never a hand: each socket builds its own seat's view."""

import hashlib
from typing import Any

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    """Every open socket on one match (each builds its own seat's view)."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Every open tab of one user (notices, private table updates, account events)."""
    return f"user-{user_id}"


def user_message(payload: dict[str, Any]) -> dict[str, Any]:
    """The group message that puts ``payload`` on every open tab of a user (``/ws/me/``)."""
    return {"type": "user.notice", "payload": payload}


# --- the credential groups: every open socket (match or /ws/me/) sits in its account's and its credential's ---

#: The group message that closes every socket of a group (consumers handle it in ``account_closed``).
CLOSE_MESSAGE = "account.closed"


def account_group(user_id: int) -> str:
    return f"account-{user_id}"


def token_group(digest: str) -> str:
    return f"token-{digest[:40]}"


def session_group(session_key: str) -> str:
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def bot_events_group(user_id: int) -> str:
    """A bot account's open event streams (``GET /api/bot/events/``): told that an event was recorded (its id
    only); each stream then reads the events from the database."""
    return f"bot-events-{user_id}"


def watch_group(match_id: int) -> str:
    """Every watcher of one match (``/ws/watch/{id}/``): told that the match moved on, each builds the delayed
    spectator view itself."""
    return f"watch-{match_id}"


def tournament_group(tournament_id: int) -> str:
    """Every open standings socket of one arena (``/ws/tournaments/{id}/``): the standings as they change."""
    return f"tournament-{tournament_id}"
