"""Channels group names: who listens where. Group messages carry ids and ``seq`` only, never cards."""

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    """Every open socket on one match (each builds its own seat's view)."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Every open tab of one user (notices, private table updates, account events)."""
    return f"user-{user_id}"
