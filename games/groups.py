"""Channels group names: who listens where. Group messages carry ids and ``seq`` only, never cards."""

import hashlib

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    """Every open socket on one match (each builds its own seat's view)."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Every open tab of one user (notices, private table updates, account events)."""
    return f"user-{user_id}"


# --- the credential groups: every open socket (match or /ws/me/) sits in its account's and its credential's ---

#: The group message that closes every socket of a group (consumers handle it in ``account_closed``).
CLOSE_MESSAGE = "account.closed"


def account_group(user_id: int) -> str:
    return f"account-{user_id}"


def token_group(digest: str) -> str:
    return f"token-{digest[:40]}"


def session_group(session_key: str) -> str:
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]
