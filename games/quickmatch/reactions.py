"""What quick match does once a write has committed: pair now and after the wait; tell the seated people."""

from __future__ import annotations

from django.conf import settings

from games.platform import outbox
from games.platform.groups import LOBBY_GROUP, user_group, user_message

from . import tasks
from .events import HereCounted, SeekOpened, SeeksMatched


def seek_opened(event: SeekOpened) -> None:
    """Pair at once (a fourth person completes a table now), and again just after the wait for people ends, so
    the bots come on time without waiting for beat's next sweep (which pairs anyway, as a recovery net). In
    eager mode the delayed run is a timer thread of this process (``QUICK_MATCH_EAGER_TIMER``)."""
    outbox.task_now(tasks.pair_quick_matches)
    if not settings.CELERY_TASK_ALWAYS_EAGER or settings.QUICK_MATCH_EAGER_TIMER:
        outbox.task_now(tasks.pair_quick_matches, countdown=event.bots_after + 0.5, eager="thread")


def seeks_matched(event: SeeksMatched) -> None:
    """Every open tab of each seated person hears where to go (``/ws/me/``)."""
    for user_id in event.user_ids:
        outbox.group_send_now(user_group(user_id), user_message({"type": "matched", "match_id": event.match_id}))


def here_counted(event: HereCounted) -> None:
    """Every ``/ws/me/`` socket (each is in the lobby group) hears who is here."""
    outbox.group_send_now(LOBBY_GROUP, {"type": "lobby.here", "playing": event.playing, "waiting": event.waiting})
