"""Commands on matches: create one, a person's action, bot moves, expired turns, reminders, resigning,
seats handed to bots, aborting, and the names seats show.

Every change to an existing match goes through ``games.matches.write.match_write`` (lock, checks, log,
row, events); a task's command that finds its turn gone by (an old ``seq``, a finished match) does nothing,
so a redelivered task or a timer racing a sweep is harmless.
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
from engine.bots import AUTOPILOT_LEVEL, BOT_NAMES, DEFAULT_BOT
from games.accounts import reads as account_reads
from games.platform.errors import GameError, MatchNotFound, TableConflict

from . import deadlines, reads, store
from .botturns import ways as bot_ways
from .events import ReminderDue, TurnAutoplayed
from .models import Action, Match, Seat
from .write import ACTIVE, MatchWrite, match_write

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


# --- creating -------------------------------------------------------------------------------------

def create_match(
    *, seats: list[SeatSpec], seed: str | None = None, created_by: Any = None,
    move_seconds: int | None = None, rated: bool = False, chat: bool = False,
) -> Match:
    """A new match with four seats, a fresh random seed unless one is given (``move_seconds``: per-turn
    deadlines for correspondence tables; ``rated``: OpenSkill update at the end; ``chat``: free-text chat
    among its people, for a private table's match)."""
    if len(seats) != 4:
        raise GameError("bad_seats", "A match has exactly four seats.")
    seed = check_seed(seed) if seed is not None else engine.new_seed()
    state = engine.new_match(seed)
    bot_names = list(settings.CALLBREAK_BOT_NAMES)
    programs = account_reads.bot_account_ids({spec.user.pk for spec in seats if spec.user is not None})
    bank = deadlines.deal_bank(move_seconds)
    with transaction.atomic():
        match = Match.objects.create(
            seed=seed, seed_commitment=state.seed_commitment, bot_seed=secrets.token_hex(16), seq=state.version,
            turn=state.turn, created_by=created_by, move_seconds=move_seconds, rated=rated, chat=chat,
        )
        for index, spec in enumerate(seats):
            if spec.user is not None:
                Seat.objects.create(match=match, index=index, kind=Seat.Kind.HUMAN, user=spec.user,
                                    name=spec.user.get_username(), bot_account=spec.user.pk in programs,
                                    bank_seconds=bank)
            else:
                Seat.objects.create(match=match, index=index, kind=Seat.Kind.BOT, bot=check_bot_level(spec.bot),
                                    name=bot_names[index % len(bot_names)])
        loaded = store.load(match.pk)  # with its seats, as every write sees a match
        assert loaded is not None
        write = MatchWrite(loaded, started=state)
        if deadlines.is_timed(move_seconds, write.seats):
            write.set_turn_deadline()
        write.flush()
    return loaded


def check_bot_match_cap(user: Any, *, waiting: int = 0) -> None:
    """A bot account plays at most ``BOT_MAX_ACTIVE_MATCHES`` matches at once (``waiting``: seats it holds at
    tables not started yet count too): 409 ``too_many_matches`` past it. People have no such cap."""
    if not account_reads.is_bot_account(user):
        return
    cap = int(settings.BOT_MAX_ACTIVE_MATCHES)
    if reads.matches_playing([user.pk])[user.pk] + waiting >= cap:
        raise TableConflict("too_many_matches", f"A bot account plays at most {cap} matches at once; finish one "
                                                "first.", limit=cap)


def bots_at_cap(user_ids: list[int], waiting: dict[int, int]) -> set[int]:
    """Which of these bot accounts are at their cap of matches at once (``check_bot_match_cap`` for many, in one
    query: the pairing run asks it of every waiting bot; ``waiting``: seats each holds at open tables)."""
    cap = int(settings.BOT_MAX_ACTIVE_MATCHES)
    playing = reads.matches_playing(user_ids)
    return {uid for uid in user_ids if playing[uid] + waiting.get(uid, 0) >= cap}


def create_bot_match(user: User, *, bot: str | None = None, seed: str | None = None) -> Match:
    """The caller at seat 0 against three bots of one level (the first dealer is the seed's choice)."""
    level = check_bot_level(bot)
    check_bot_match_cap(user)
    return create_match(
        seats=[SeatSpec(user=user), SeatSpec(bot=level), SeatSpec(bot=level), SeatSpec(bot=level)],
        seed=seed,
        created_by=user,
    )


# --- a person's action ------------------------------------------------------------------------------

def submit_action(*, user: User, match_id: int, payload: object) -> tuple[Match, engine.MatchState]:
    """A person's bid or card. Stale/duplicate ``seq`` -> StaleSeq (409); illegal -> GameError (400)."""
    with match_write(match_id) as write:
        seat = write.seat_of(user)
        if seat is None:
            raise MatchNotFound()  # before looking at the body: a stranger learns nothing
        seq, fields = parse_action_payload(payload)
        write.require(Match.Status.ACTIVE, Match.Status.FINISHED)  # a finished match refuses by its seq
        write.check_seq(seq)
        if seat.autopilot:
            raise GameError("autopilot", "A bot is playing this seat.")
        try:
            new_state = write.apply(engine.action_from_json({"seat": seat.index, **fields}), Action.MadeBy.PLAYER,
                                    user)
        except engine.EngineError as err:
            raise GameError(err.code, str(err)) from None
    return write.match, new_state


# --- tasks' commands: each does nothing when its turn has gone by -------------------------------------

def play_bot_turn(match_id: int, seq: int) -> int:
    """Play the bot move due at ``seq``, and the bot moves after it while they take less than
    ``botturns.ways.chain_seconds`` in all; returns how many were played. Idempotent: an old ``seq`` or a
    person's turn plays nothing. Each move is decided from its seat's view and seeded by its own ``seq``, so
    the moves are the same however they are grouped into transactions."""
    try:
        with match_write(match_id, expect_seq=seq, require=ACTIVE) as write:
            match, played = write.match, 0
            started, budget = time.monotonic(), bot_ways.chain_seconds()
            while True:
                state = write.state
                seat = write.seats[state.turn] if state.turn is not None else None
                if seat is None or not seat.played_by_bot:
                    break
                action = _bot_action(match, state, seat.index, seat.bot or DEFAULT_BOT,
                                     f"{match.bot_seed}:{state.version}")
                write.apply(action, Action.MadeBy.BOT if seat.kind == Seat.Kind.BOT else Action.MadeBy.AUTOPILOT)
                played += 1
                if time.monotonic() - started >= budget:
                    break
    except GameError:  # gone, finished, or moved on
        return 0
    return played


def play_expired_turn(match_id: int, seq: int) -> bool:
    """The deadline of the turn at ``seq`` passed: the autopilot bot plays that one action. After
    ``AUTOPILOT_HANDOVER_AFTER`` such actions in a row the seat goes to the bot."""
    try:
        with match_write(match_id, expect_seq=seq, require=ACTIVE) as write:
            match, state = write.match, write.state
            seat = write.seats[state.turn] if state.turn is not None else None
            if seat is None or match.deadline is None or match.deadline > timezone.now() or seat.played_by_bot:
                return False
            action = _bot_action(match, state, seat.index, AUTOPILOT_LEVEL, f"{match.bot_seed}:{seq}:autopilot")
            seat.missed_in_row += 1
            write.save_seat(seat, "missed_in_row")
            handed = seat.missed_in_row >= deadlines.handover_after()
            if handed:
                write.hand_to_bot(seat, AUTOPILOT_LEVEL)
            write.apply(action, Action.MadeBy.AUTOPILOT)
            if handed:  # the seat changed too: sockets read the match again
                write.seats_changed()
            if seat.user_id is not None:
                write.emit(TurnAutoplayed(seat.user_id, match.pk, seq, handed_over=handed))
    except GameError:
        return False
    return True


def send_reminder(match_id: int, seq: int) -> bool:
    """A quarter of the turn's time is left: remind the player once (``remind_at`` is cleared)."""
    try:
        with match_write(match_id, expect_seq=seq, require=ACTIVE) as write:
            match = write.match
            if match.remind_at is None or match.remind_at > timezone.now():
                return False
            write.set(remind_at=None)
            seat = write.seats[match.turn] if match.turn is not None else None
            if seat is not None and seat.user_id is not None and not seat.played_by_bot and not seat.bot_account:
                write.emit(ReminderDue(seat.user_id, match.pk, seq))
    except GameError:
        return False
    return True


# --- seats ------------------------------------------------------------------------------------------

def resign(user: Any, match_id: int) -> Match:
    """The player gives the seat to the bot for the rest of the match (the match goes on)."""
    with match_write(match_id) as write:
        seat = write.seat_of(user)
        if seat is None:
            raise MatchNotFound()
        write.require(Match.Status.ACTIVE)
        if seat.resigned:
            return write.match
        seat.resigned = True
        write.save_seat(seat, "resigned")
        write.hand_to_bot(seat, AUTOPILOT_LEVEL)
        my_turn = write.match.turn == seat.index
        if my_turn:
            write.set(deadline=None, remind_at=None)
        write.seats_changed(bot_to_act=my_turn)
    return write.match


def hand_seats_to_bots(user_id: int, *, bot: str | None = None) -> list[int]:
    """Put the person's seats in running matches on autopilot; bots move where it is their turn."""
    level = check_bot_level(bot)
    touched: list[int] = []
    match_ids = sorted(set(Seat.objects.filter(
        user_id=user_id, kind=Seat.Kind.HUMAN, autopilot=False, match__status=Match.Status.ACTIVE
    ).values_list("match_id", flat=True)))
    with transaction.atomic():
        for match_id in match_ids:  # in id order: two of these at once cannot deadlock
            try:
                with match_write(match_id, require=ACTIVE) as write:
                    for seat in write.seats:
                        if seat.user_id == user_id and seat.kind == Seat.Kind.HUMAN and not seat.autopilot:
                            write.hand_to_bot(seat, level)
                            write.seats_changed(bot_to_act=write.match.turn == seat.index)
            except GameError:  # finished meanwhile
                continue
            touched.append(match_id)
    return touched


def abort_match(match: Match) -> bool:
    """Admin: stop a running match. Nobody is rated; the log stays as it was."""
    try:
        with match_write(match.pk, require=ACTIVE) as write:
            write.set(status=Match.Status.ABORTED, deadline=None, remind_at=None, finished_at=timezone.now())
            write.seats_changed()
    except GameError:
        return False
    return True


def rename_seats(user_id: int, name: str) -> int:
    """Show ``name`` for a person's seats in every match (a removed guest's read "Guest"); the logs and replays
    are the same (a replay names its players, its verification does not depend on them). The count renamed."""
    with transaction.atomic():
        return Seat.objects.filter(user_id=user_id, kind=Seat.Kind.HUMAN).exclude(name=name).update(name=name)

