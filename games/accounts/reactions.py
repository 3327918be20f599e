"""What the accounts concept does once a write has committed: close the sockets of revoked credentials."""

from __future__ import annotations

import logging

from games.platform import outbox
from games.platform.groups import CLOSE_MESSAGE

from .events import CredentialsRevoked

log = logging.getLogger(__name__)


def close_sockets(event: CredentialsRevoked) -> None:
    """Every open socket in the groups closes (a socket that misses it closes at its next re-check)."""
    log.info("closing the sockets of %d credential group(s): %s", len(event.groups), event.reason)
    for group in event.groups:
        outbox.group_send_now(group, {"type": CLOSE_MESSAGE, "reason": event.reason})
