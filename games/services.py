"""Writes. Every change to a match goes through here.

A write locks the match row (``select_for_update``), checks the client's expected ``seq``, applies
the action through the engine, appends it to the log and updates the row's cached fields, then —
only once the transaction has committed — tells the Channels group (ids and seq only) and enqueues
the next bot move.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import engine
from engine.bots import BOT_NAMES, DEFAULT_BOT

from . import selectors
from .errors import GameError, MatchNotFound, StaleSeq
from .models import Action, Match, Seat

log = logging.getLogger(__name__)


def group_name(match_id: int) -> str:
    return f"match-{match_id}"


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
            from .correspondence import set_deadline

            match.save(update_fields=set_deadline(match, state))
        _after_commit(match, state)
    return match


def create_bot_match(user: AbstractBaseUser, *, bot: str | None = None, seed: str | None = None) -> Match:
    """The caller at seat 0 against three bots of one level (the first dealer is the seed's choice)."""
    level = check_bot_level(bot)
    return create_match(
        seats=[SeatSpec(user=user), SeatSpec(bot=level), SeatSpec(bot=level), SeatSpec(bot=level)],
        seed=seed,
        created_by=user,
    )


def _locked_match(match_id: int) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound()
    return match


def _store(match: Match, state: engine.MatchState, action: Any, made_by: str, user: Any) -> engine.MatchState:
    """Apply ``action`` to ``state`` (which must be the replay of the locked ``match``) and log it."""
    new_state = engine.apply(state, action)
    data = action.to_json()
    Action.objects.create(
        match=match,
        seq=state.version,
        seat=data["seat"],
        bid=data.get("bid"),
        card=data.get("card", ""),
        made_by=made_by,
        user=user,
    )
    match.seq = new_state.version
    match.turn = new_state.turn
    fields = ["seq", "turn", "updated_at"]
    if match.move_seconds:
        from .correspondence import on_stored

        fields += on_stored(match, new_state, made_by, data["seat"])
    if new_state.is_finished:
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    match.save(update_fields=fields)
    _after_commit(match, new_state)
    return new_state


def _after_commit(match: Match, state: engine.MatchState) -> None:
    """Once committed: tell the group, and enqueue a bot move if a bot is to act."""
    match_id, seq = match.pk, state.version
    bot_to_act = (
        not state.is_finished
        and state.turn is not None
        and match.seats.filter(Q(kind=Seat.Kind.BOT) | Q(autopilot=True), index=state.turn).exists()
    )

    def run() -> None:
        notify(match_id, seq)
        if bot_to_act:
            from .tasks import enqueue_bot_move

            enqueue_bot_move(match_id, seq)
        if match.move_seconds or match.rated:
            from .notifications import after_action  # your-turn notice, turn timers, ratings

            after_action(match_id, seq)

    # robust: the action is committed whatever happens here; a failed notify or enqueue is logged
    # and recovered by clients refetching and by beat's sweep, never turned into an error response.
    transaction.on_commit(run, robust=True)


def notify(match_id: int, seq: int, event: str = "match.updated") -> None:
    """Group message with ids and seq only; each consumer fetches its own seat's view.

    ``match.updated``: a new action made ``seq``. ``match.changed``: same ``seq``, but something
    else in the views changed (a seat handed to a bot), so consumers resend.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(match_id), {"type": event, "match_id": match_id, "seq": seq}
        )
    except Exception:  # a lost notification is recovered by clients refetching; never fail a write
        log.exception("could not notify match %s seq %s", match_id, seq)


def parse_action_payload(payload: object) -> tuple[int, dict[str, Any]]:
    """Check the shape of ``{"seq": n, "bid": b}`` / ``{"seq": n, "card": "QH"}``; engine checks the rest."""
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


def submit_action(*, user: AbstractBaseUser, match_id: int, payload: object) -> tuple[Match, engine.MatchState]:
    """A person's bid or card. Stale/duplicate ``seq`` -> StaleSeq (409); illegal -> GameError (400)."""
    seq, fields = parse_action_payload(payload)
    with transaction.atomic():
        match = _locked_match(match_id)
        seat = selectors.seat_for_user(match, user)
        if seat is None:
            raise MatchNotFound()
        if match.status == Match.Status.ABORTED:
            raise GameError("aborted", "The match was aborted.")
        if match.seq != seq:
            raise StaleSeq(match.seq, seq)
        if seat.autopilot:
            raise GameError("autopilot", "A bot is playing this seat.")
        try:
            action = engine.action_from_json({"seat": seat.index, **fields})
            state = selectors.match_state(match)
            new_state = _store(match, state, action, Action.MadeBy.PLAYER, user)
        except engine.EngineError as err:
            raise GameError(err.code, str(err)) from None
    return match, new_state


def play_bot_turn(match_id: int, seq: int) -> bool:
    """Play the bot move due at ``seq``. Idempotent: an old ``seq`` or a human's turn plays nothing."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.seq != seq or match.status != Match.Status.ACTIVE or match.turn is None:
            return False
        seat = match.seats.get(index=match.turn)
        if not seat.played_by_bot:
            return False
        state = selectors.match_state(match)
        view = engine.player_view(state, seat.index)  # the bot sees its own seat's view only
        level = seat.bot or DEFAULT_BOT
        bot_seed = f"{match.bot_seed}:{seq}"
        made_by = Action.MadeBy.BOT if seat.kind == Seat.Kind.BOT else Action.MadeBy.AUTOPILOT
        try:
            action = engine.bots.decide(level, view, bot_seed)
            engine.apply(state, action)  # check it before any write, so nothing is half-stored
        except Exception:
            # A bot bug must not stall the match forever (a retry would decide the same): log it
            # and let the plain random bot, which only picks from view.legal, move instead.
            log.exception("bot %r failed or made an illegal move in match %s at seq %s", level, match_id, seq)
            action = engine.bots.decide("random", view, bot_seed)
        _store(match, state, action, made_by, None)
    return True


def hand_seats_to_bots(user: AbstractBaseUser, *, bot: str | None = None) -> list[int]:
    """Put the user's seats in running matches on autopilot; bots move where it is their turn."""
    level = check_bot_level(bot)
    touched: list[int] = []
    with transaction.atomic():
        seats = Seat.objects.select_related("match").filter(
            user=user, kind=Seat.Kind.HUMAN, autopilot=False, match__status=Match.Status.ACTIVE
        )
        for seat in seats:
            match = _locked_match(seat.match_id)
            seat.autopilot = True
            seat.bot = level
            seat.save(update_fields=["autopilot", "bot"])
            touched.append(match.pk)

            def kick(match_id: int = match.pk, seq: int = match.seq, bot_to_act: bool = match.turn == seat.index
                     ) -> None:
                from .tasks import enqueue_bot_move

                notify(match_id, seq, event="match.changed")  # the seats changed, not the log
                if bot_to_act:
                    enqueue_bot_move(match_id, seq)

            transaction.on_commit(kick, robust=True)
    return touched


def deactivate_user(user: AbstractBaseUser) -> None:
    """Deactivate an account: no log-in, no API token, and bots take over its running matches."""
    from rest_framework.authtoken.models import Token

    with transaction.atomic():
        if user.is_active:
            user.is_active = False
            user.save(update_fields=["is_active"])  # the post_save signal hands the seats to bots
        else:
            hand_seats_to_bots(user)
        Token.objects.filter(user=user).delete()
