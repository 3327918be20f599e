"""What happens to accounts, as events for ``games.platform.outbox``."""

from __future__ import annotations

from dataclasses import dataclass

from games.platform.outbox import Event


@dataclass(frozen=True)
class CredentialsRevoked(Event):
    """Credentials stopped holding (tokens revoked, a session logged out, an account deactivated): every
    socket in ``groups`` (see ``games.platform.groups``) closes. ``reason`` goes to the log."""

    groups: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class AccountDeactivated(Event):
    """An account was deactivated: bots take its seats in running matches (``games.matches.reactions``)."""

    user_id: int
