"""Writes to matches. Every change to a match goes through here, by one pipeline:

1. lock the match row, reading its seats in the same statement (``lock_match``, or ``_turn_due`` for tasks
   that play a turn only if it is still due),
2. check the expected ``seq`` and the status,
3. apply the action through the engine (``_advance``: consecutive bot moves apply several), then append
   them to the log in one insert and update the row's cached fields and the turn's deadline (``_store``),
4. hand the after-commit effects (socket notices, the next bot move, your-turn notices, timers, rating)
   to ``games.effects``, which sends them only once the transaction has committed.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import engine
import engine.bots
from engine.bots import BOT_NAMES, DEFAULT_BOT
from games import effects
from games.errors import GameError, MatchNotFound, StaleSeq

from . import deadlines, reads
from .models import Action, Match, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatSpec:
    """Who sits at a seat: a user, or a bot of the given level."""

    user: Any = None
    bot: str | None = None


def check_bot_level(level: str | None) -> str:
    if level is None or level == "":
        return DEFAULT_BOT
    if not isinstance(level, str) or level not in BOT_NAMES:
        raise GameError("unknown_bot", f"Unknown bot level {level!r}; choose one of: {', '.join(BOT_NAMES)}.")
    return level


def check_seed(seed: object) -> str:
    if not isinstance(seed, str) or not seed or len(seed) > 200:
        raise GameError("bad_seed", "A seed is a non-empty string of at most 200 characters.")
    return seed


def parse_action_payload(payload: object) -> tuple[int, dict[str, Any]]:
    """Check the shape of ``{"seq": n, "bid": b}`` / ``{"seq": n, "card": "QH"}``; the engine checks the rest."""
    if not isinstance(payload, dict):
        raise GameError("bad_request", 'Send a JSON object like {"seq": 3, "bid": 4} or {"seq": 9, "card": "QH"}.')
    seq = payload.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise GameError("bad_seq", "`seq` must be the match's current seq, a non-negative integer.")
    has_bid, has_card = "bid" in payload, "card" in payload
    if has_bid == has_card:
        raise GameError("bad_action", "Send exactly one of `bid` or `card`.")
    if has_bid:
        bid = payload["bid"]
        if isinstance(bid, bool) or not isinstance(bid, int):
            raise GameError("bad_bid", "A bid is an integer from 1 to 13.")
        return seq, {"bid": bid}
    card = payload["card"]
    if not isinstance(card, str) or len(card) > 8:
        raise GameError("bad_card", 'A card is a string such as "QH" or "TS".')
    return seq, {"card": card}


# --- the pipeline ---------------------------------------------------------------------------------

def lock_match(match_id: int) -> Match:
    """The match row, locked until the transaction ends: every write to a match starts here."""
    match = reads.match_with_seats(match_id, lock=True)
    if match is None:
        raise MatchNotFound()
    return match


def _turn_due(match_id: int, seq: int) -> tuple[Match, Seat] | None:
    """The locked match and the seat to act if the turn at ``seq`` is still to be played, else None.

    Tasks and sweeps call this: a redelivered task, or a timer and a sweep racing for one turn, find
    ``seq`` moved on and play nothing.
    """
    match = reads.match_with_seats(match_id, lock=True)
    if match is None or match.seq != seq or match.status != Match.Status.ACTIVE or match.turn is None:
        return None
    return match, reads.seats_of(match)[match.turn]


def _advance(match: Match, state: engine.MatchState, action: Any, made_by: str, user: Any,
             log: list[Action], fields: set[str]) -> engine.MatchState:
    """Apply ``action`` to ``state`` (the replay of the locked ``match``) and add its log row to ``log``;
    the row's cached fields change in memory and their names go to ``fields``. Nothing is written yet:
    ``_store`` writes one or several actions at once."""
    new_state = engine.apply(state, action)
    data = action.to_json()
    log.append(Action(match=match, seq=state.version, seat=data["seat"], bid=data.get("bid"),
                      card=data.get("card", ""), made_by=made_by, user=user))
    match.seq = new_state.version
    match.turn = new_state.turn
    fields.update(("seq", "turn", "updated_at"))
    if match.move_seconds:
        fields.update(deadlines.after_action(match, new_state, made_by, data["seat"]))
    if new_state.is_finished:
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        fields.update(("status", "finished_at"))
    return new_state


def _store(match: Match, before: engine.MatchState, after: engine.MatchState, log: list[Action],
           fields: set[str]) -> None:
    """Write the actions that led from ``before`` to ``after`` (one insert) and the row (one update), and
    queue the effects: one notice for all of them."""
    Action.objects.bulk_create(log)
    match.save(update_fields=sorted(fields))
    effects.match_advanced(match, after, since=before.version)


def _append(match: Match, state: engine.MatchState, action: Any, made_by: str, user: Any) -> engine.MatchState:
    """Apply one action, log it, and queue the effects."""
    log: list[Action] = []
    fields: set[str] = set()
    new_state = _advance(match, state, action, made_by, user, log, fields)
    _store(match, state, new_state, log, fields)
    return new_state


def _bot_action(match: Match, state: engine.MatchState, seat: int, level: str, bot_seed: str) -> Any:
    """The bot's action for ``seat``, decided from that seat's view only.

    A bot bug must not stall the match forever (a retry would decide the same): it is logged and the
    plain random bot, which only picks from ``view.legal``, moves instead.
    """
    view = engine.player_view(state, seat)
    try:
        action = engine.bots.decide(level, view, bot_seed)
        engine.apply(state, action)  # check it before any write, so nothing is half-stored
        return action
    except Exception:
        log.exception("bot %r failed or made an illegal move in match %s at %s", level, match.pk, bot_seed)
        return engine.bots.decide("random", view, bot_seed)


def _hand_to_bot(seat: Seat, level: str, *extra_fields: str) -> None:
    """Put a person's seat on autopilot: from now on the bot of ``level`` plays it."""
    seat.autopilot = True
    seat.bot = level
    seat.save(update_fields=["autopilot", "bot", *extra_fields])


# --- commands -------------------------------------------------------------------------------------

def create_match(
    *, seats: list[SeatSpec], seed: str | None = None, created_by: Any = None,
    move_seconds: int | None = None, rated: bool = False,
) -> Match:
    """A new match with four seats, a fresh random seed unless one is given (``move_seconds``: per-turn
    deadlines for correspondence tables; ``rated``: OpenSkill update at the end)."""
    if len(seats) != 4:
        raise GameError("bad_seats", "A match has exactly four seats.")
    seed = check_seed(seed) if seed is not None else engine.new_seed()
    state = engine.new_match(seed)
    bot_names = list(settings.CALLBREAK_BOT_NAMES)
    with transaction.atomic():
        match = Match.objects.create(
            seed=seed,
            seed_commitment=state.seed_commitment,
            bot_seed=secrets.token_hex(16),
            seq=state.version,
            turn=state.turn,
            created_by=created_by,
            move_seconds=move_seconds,
            rated=rated,
        )
        for index, spec in enumerate(seats):
            if spec.user is not None:
                Seat.objects.create(
                    match=match, index=index, kind=Seat.Kind.HUMAN, user=spec.user, name=spec.user.get_username()
                )
            else:
                level = check_bot_level(spec.bot)
                Seat.objects.create(
                    match=match, index=index, kind=Seat.Kind.BOT, bot=level, name=bot_names[index % len(bot_names)]
                )
        if move_seconds:
            match.save(update_fields=deadlines.set_deadline(match, state))
        effects.match_advanced(match, state)
    return match


def create_bot_match(user: User, *, bot: str | None = None, seed: str | None = None) -> Match:
    """The caller at seat 0 against three bots of one level (the first dealer is the seed's choice)."""
    level = check_bot_level(bot)
    return create_match(
        seats=[SeatSpec(user=user), SeatSpec(bot=level), SeatSpec(bot=level), SeatSpec(bot=level)],
        seed=seed,
        created_by=user,
    )


def submit_action(*, user: User, match_id: int, payload: object) -> tuple[Match, engine.MatchState]:
    """A person's bid or card. Stale/duplicate ``seq`` -> StaleSeq (409); illegal -> GameError (400)."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = reads.seat_for_user(match, user)
        if seat is None:
            raise MatchNotFound()  # before looking at the body: a stranger learns nothing
        seq, fields = parse_action_payload(payload)
        if match.status == Match.Status.ABORTED:
            raise GameError("aborted", "The match was aborted.")
        if match.seq != seq:
            raise StaleSeq(match.seq, seq)
        if seat.autopilot:
            raise GameError("autopilot", "A bot is playing this seat.")
        try:
            action = engine.action_from_json({"seat": seat.index, **fields})
            new_state = _append(match, reads.match_state(match), action, Action.MadeBy.PLAYER, user)
        except engine.EngineError as err:
            raise GameError(err.code, str(err)) from None
    return match, new_state


def bot_chain_seconds() -> float:
    """How long consecutive bot moves may run in one transaction before they are committed and shown.

    Quick bots answer a person's card in one commit (one lock, one insert, one notice); a slow one (the
    strong bot's bids) still shows its moves one by one. With ``BOT_DELAY_SECONDS`` each move is a task
    of its own, so it is one move per transaction.
    """
    if settings.BOT_DELAY_SECONDS > 0:
        return 0.0
    return float(settings.BOT_CHAIN_SECONDS)


def play_bot_turn(match_id: int, seq: int) -> int:
    """Play the bot move due at ``seq``, and the bot moves after it while they take less than
    ``bot_chain_seconds`` in all; returns how many were played. Idempotent: an old ``seq`` or a person's
    turn plays nothing. Each move is decided from its seat's view and seeded by its own ``seq``, so the
    moves are the same however they are grouped into transactions."""
    with transaction.atomic():
        due = _turn_due(match_id, seq)
        if due is None:
            return 0
        match, seat = due
        if not seat.played_by_bot:
            return 0
        before = state = reads.match_state(match)
        log: list[Action] = []
        fields: set[str] = set()
        started, budget = time.monotonic(), bot_chain_seconds()
        while True:
            action = _bot_action(match, state, seat.index, seat.bot or DEFAULT_BOT, f"{match.bot_seed}:{state.version}")
            made_by = Action.MadeBy.BOT if seat.kind == Seat.Kind.BOT else Action.MadeBy.AUTOPILOT
            state = _advance(match, state, action, made_by, None, log, fields)
            if state.turn is None or time.monotonic() - started >= budget:
                break
            seat = reads.seats_of(match)[state.turn]
            if not seat.played_by_bot:
                break
        _store(match, before, state, log, fields)
    return len(log)


def play_expired_turn(match_id: int, seq: int) -> bool:
    """The deadline of the turn at ``seq`` passed: the autopilot bot plays that one action. After
    ``AUTOPILOT_HANDOVER_AFTER`` such actions in a row the seat goes to the bot."""
    with transaction.atomic():
        due = _turn_due(match_id, seq)
        if due is None:
            return False
        match, seat = due
        if match.deadline is None or match.deadline > timezone.now() or seat.played_by_bot:
            return False
        state = reads.match_state(match)
        action = _bot_action(match, state, seat.index, deadlines.AUTOPILOT_BOT, f"{match.bot_seed}:{seq}:autopilot")
        seat.missed_in_row += 1
        handed = seat.missed_in_row >= deadlines.handover_after()
        if handed:
            _hand_to_bot(seat, deadlines.AUTOPILOT_BOT, "missed_in_row")
        else:
            seat.save(update_fields=["missed_in_row"])
        _append(match, state, action, Action.MadeBy.AUTOPILOT, None)
        if handed:  # the seat changed too: sockets read the match again
            effects.seats_changed(match, bot_to_act=False)
        if seat.user_id is not None:
            effects.notice(seat.user_id, match.pk, seq, "handed_over" if handed else "autopilot")
    return True


def send_reminder(match_id: int, seq: int) -> bool:
    """A quarter of the turn's time is left: remind the player once (``remind_at`` is cleared)."""
    with transaction.atomic():
        due = _turn_due(match_id, seq)
        if due is None:
            return False
        match, seat = due
        if match.remind_at is None or match.remind_at > timezone.now():
            return False
        match.remind_at = None
        match.save(update_fields=["remind_at"])
        if seat.user_id is not None and not seat.played_by_bot:
            effects.notice(seat.user_id, match.pk, seq, "reminder")
    return True


def resign(user: Any, match_id: int) -> Match:
    """The player gives the seat to the bot for the rest of the match (the match goes on)."""
    with transaction.atomic():
        match = lock_match(match_id)
        seat = reads.seat_for_user(match, user)
        if seat is None:
            raise MatchNotFound()
        if match.status != Match.Status.ACTIVE:
            raise GameError("match_over", "The match is over.")
        if seat.resigned:
            return match
        seat.resigned = True
        _hand_to_bot(seat, deadlines.AUTOPILOT_BOT, "resigned")
        my_turn = match.turn == seat.index
        if my_turn:
            match.deadline = None
            match.remind_at = None
            match.save(update_fields=["deadline", "remind_at", "updated_at"])
        effects.seats_changed(match, bot_to_act=my_turn)
    return match


def hand_seats_to_bots(user: User, *, bot: str | None = None) -> list[int]:
    """Put the user's seats in running matches on autopilot; bots move where it is their turn."""
    level = check_bot_level(bot)
    touched: list[int] = []
    with transaction.atomic():
        match_ids = Seat.objects.filter(
            user=user, kind=Seat.Kind.HUMAN, autopilot=False, match__status=Match.Status.ACTIVE
        ).values_list("match_id", flat=True)
        for match_id in sorted(set(match_ids)):
            match = lock_match(match_id)
            for seat in reads.seats_of(match):
                if seat.user_id == user.pk and seat.kind == Seat.Kind.HUMAN and not seat.autopilot:
                    _hand_to_bot(seat, level)
                    effects.seats_changed(match, bot_to_act=match.turn == seat.index)
            touched.append(match.pk)
    return touched


def abort_match(match: Match) -> bool:
    """Admin: stop a running match. Nobody is rated; the log stays as it was."""
    with transaction.atomic():
        locked = lock_match(match.pk)
        if locked.status != Match.Status.ACTIVE:
            return False
        locked.status = Match.Status.ABORTED
        locked.deadline = None
        locked.remind_at = None
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "deadline", "remind_at", "finished_at", "updated_at"])
        effects.seats_changed(locked, bot_to_act=False)
    return True
