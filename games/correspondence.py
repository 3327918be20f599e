"""Correspondence play: a deadline on every human turn, reminders, autopilot on expiry, resignation.

Deadlines live on the match row (``deadline``, ``remind_at``), set inside the same transaction as
the action that started the turn, so nothing is lost across restarts: beat's ``sweep_deadlines``
finds whatever is due. Every write here locks the match and checks ``seq``, so a sweep and a
per-turn timer racing for the same turn play it once.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine

from . import selectors
from .errors import GameError, MatchNotFound
from .models import Action, Match, Seat

log = logging.getLogger(__name__)

AUTOPILOT_BOT = "normal"


def handover_after() -> int:
    return int(getattr(settings, "AUTOPILOT_HANDOVER_AFTER", 3))


def set_deadline(match: Match, state: engine.MatchState) -> list[str]:
    """Set the current turn's deadline on the locked ``match`` (not saved); returns the fields changed.

    Only a person's own turn is timed: bots and autopilot seats move through ``bot_move``.
    """
    match.deadline = None
    match.remind_at = None
    if match.move_seconds and not state.is_finished and state.turn is not None:
        seat = match.seats.filter(index=state.turn).first()
        if seat is not None and not seat.played_by_bot:
            now = timezone.now()
            match.deadline = now + timedelta(seconds=match.move_seconds)
            match.remind_at = match.deadline - timedelta(seconds=match.move_seconds / 4)
    return ["deadline", "remind_at"]


def on_stored(match: Match, state: engine.MatchState, made_by: str, seat_index: int) -> list[str]:
    """Hook from ``services._store``: a person's own move clears their missed-turn streak; next deadline."""
    if made_by == Action.MadeBy.PLAYER:
        Seat.objects.filter(match=match, index=seat_index).exclude(missed_in_row=0).update(missed_in_row=0)
    return set_deadline(match, state)


def _decide_for(match: Match, state: engine.MatchState, seat: int, seq: int) -> Any:
    view = engine.player_view(state, seat)  # the autopilot sees that seat's view only
    bot_seed = f"{match.bot_seed}:{seq}:autopilot"
    try:
        action = engine.bots.decide(AUTOPILOT_BOT, view, bot_seed)
        engine.apply(state, action)
        return action
    except Exception:
        log.exception("autopilot failed in match %s at seq %s; random bot moves", match.pk, seq)
        return engine.bots.decide("random", view, bot_seed)


def play_expired_turn(match_id: int, seq: int) -> bool:
    """The deadline of the turn at ``seq`` passed: the ``normal`` bot plays that one action, recorded as
    autopilot. After ``AUTOPILOT_HANDOVER_AFTER`` such actions in a row the seat goes to the bot."""
    from .notifications import notice_on_commit
    from .services import _store

    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        now = timezone.now()
        if (
            match is None
            or match.seq != seq
            or match.status != Match.Status.ACTIVE
            or match.turn is None
            or match.deadline is None
            or match.deadline > now
        ):
            return False
        seat = match.seats.get(index=match.turn)
        if seat.played_by_bot:
            return False
        state = selectors.match_state(match)
        action = _decide_for(match, state, seat.index, seq)
        seat.missed_in_row += 1
        handed = seat.missed_in_row >= handover_after()
        if handed:
            seat.autopilot = True
            seat.bot = AUTOPILOT_BOT
        seat.save(update_fields=["missed_in_row", "autopilot", "bot"])
        _store(match, state, action, Action.MadeBy.AUTOPILOT, None)
        if seat.user_id is not None:
            notice_on_commit(seat.user_id, match.pk, seq, "handed_over" if handed else "autopilot")
    return True


def send_reminder(match_id: int, seq: int) -> bool:
    """A quarter of the turn's time is left: remind the player once (``remind_at`` is cleared)."""
    from .notifications import notice_on_commit

    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if (
            match is None
            or match.seq != seq
            or match.status != Match.Status.ACTIVE
            or match.remind_at is None
            or match.remind_at > timezone.now()
        ):
            return False
        match.remind_at = None
        match.save(update_fields=["remind_at"])
        seat = match.seats.filter(index=match.turn).first()
        if seat is not None and seat.user_id is not None and not seat.played_by_bot:
            notice_on_commit(seat.user_id, match.pk, seq, "reminder")
    return True


def resign(user: Any, match_id: int) -> Match:
    """The player gives the seat to the bot for the rest of the match (the match goes on)."""
    from .services import notify
    from .tasks import enqueue_bot_move

    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise MatchNotFound()
        seat = selectors.seat_for_user(match, user)
        if seat is None:
            raise MatchNotFound()
        if match.status != Match.Status.ACTIVE:
            raise GameError("match_over", "The match is over.")
        if seat.resigned:
            return match
        seat.resigned = True
        seat.autopilot = True
        seat.bot = AUTOPILOT_BOT
        seat.save(update_fields=["resigned", "autopilot", "bot"])
        if match.turn == seat.index:
            match.deadline = None
            match.remind_at = None
            match.save(update_fields=["deadline", "remind_at", "updated_at"])
            match_id, seq = match.pk, match.seq

            def kick() -> None:
                notify(match_id, seq, event="match.changed")  # the seat changed, not the log
                enqueue_bot_move(match_id, seq)

            transaction.on_commit(kick, robust=True)
        else:
            transaction.on_commit(lambda: notify(match.pk, match.seq, event="match.changed"), robust=True)
    return match


def abort_match(match: Match) -> bool:
    """Admin: stop a running match. Nobody is rated; the log stays as it was."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.ACTIVE:
            return False
        locked.status = Match.Status.ABORTED
        locked.deadline = None
        locked.remind_at = None
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "deadline", "remind_at", "finished_at", "updated_at"])
    from .services import notify

    transaction.on_commit(lambda: notify(locked.pk, locked.seq, event="match.changed"), robust=True)
    return True


def sweep() -> dict[str, int]:
    """Beat: play expired turns, send due reminders, rate finished matches left unrated, expire
    unstarted public tables."""
    from .tasks import expire_turn as expire_task
    from .tasks import remind_turn as remind_task
    from .tasks import run_task

    now = timezone.now()
    active = Match.objects.filter(status=Match.Status.ACTIVE)
    expired = list(active.filter(deadline__lte=now).values_list("pk", "seq"))
    for match_id, seq in expired:
        run_task(expire_task, match_id, seq)
    due = list(active.filter(remind_at__lte=now, deadline__gt=now).values_list("pk", "seq"))
    for match_id, seq in due:
        run_task(remind_task, match_id, seq)
    # a rating task lost with a worker: rate_match is idempotent, so sending it again is safe
    from .tasks import rate_match as rate_task

    unrated = list(Match.objects.filter(status=Match.Status.FINISHED, rated=True, rated_at__isnull=True)
                   .values_list("pk", flat=True)[:100])
    for match_id in unrated:
        run_task(rate_task, match_id)
    from .lobby import expire_tables
    from .notifications import forget_stale_presence

    tables = expire_tables(now)
    forget_stale_presence()
    return {"expired": len(expired), "reminded": len(due), "rated": len(unrated), "tables": tables}

