"""Reads of matches: which a user may see, their state (the engine's replay of the log), whose turn it is,
and the JSON a seat may be shown.

Everything sent to a client is built here from ``engine.player_view`` (never the raw state), plus
site fields (``id``, ``seq``, seat names and kinds).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection
from django.db.models import BooleanField, Case, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.transaction import TransactionManagementError
from django.utils import timezone

import engine
from engine.bots import BOT_NAMES, DEFAULT_BOT
from games.errors import MatchNotFound
from games.limits import ascii_int

from .models import Action, Match, Seat

# The bot levels a person picks from by name; the others (random, heuristic...) serve tests and tables.
PLAYER_FACING_LEVELS = ("easy", "normal", "hard")


def offered_bot_levels() -> list[str]:
    """The player-facing levels besides the default one, for the new-match picker (labels in the template)."""
    names = [n for n in PLAYER_FACING_LEVELS if n in BOT_NAMES] or list(BOT_NAMES)
    return [n for n in names if n != DEFAULT_BOT]


def table_bot_levels() -> list[str]:
    """The levels a host may seat at a table, the default first."""
    return [DEFAULT_BOT, *offered_bot_levels()]


def bot_plays(prefix: str = "") -> Q:
    """The seats a bot plays: bot seats and people's seats on autopilot (``prefix``: e.g. ``"seats__"``)."""
    return Q(**{f"{prefix}kind": Seat.Kind.BOT}) | Q(**{f"{prefix}autopilot": True})


# The fields of a match row that change as it is played (``refresh_from_db(fields=...)`` keeps seats).
ROW_FIELDS = ["seq", "turn", "status", "deadline", "remind_at", "finished_at", "updated_at", "rated_at"]


def seats_of(match: Match) -> list[Seat]:
    """The four seats in order; free when the match was loaded by ``match_with_seats``, as every write and
    view does, so a request reads them once."""
    return sorted(match.seats.all(), key=lambda seat: seat.index)


def match_with_seats(match_id: int, *, lock: bool = False) -> Match | None:
    """The match and its four seats in one statement (``lock``: the match row is locked until the
    transaction ends); ``seats_of`` and ``match.seats.all()`` then read the seats without a query.

    Every action, bot move and socket read starts here, so it is one round trip and its SQL is written
    once (``_MatchRows``): the ORM compiling a three-table ``select_related`` and building its rows cost
    about 2 ms of CPU a call, most of what a bot move costs the database side.
    """
    if not 0 < match_id < 2**63:  # not an id: nothing to find (SQLite cannot even bind it)
        return None
    if lock and connection.get_autocommit():
        raise TransactionManagementError("match_with_seats(lock=True) locks until the transaction ends: "
                                         "call it inside transaction.atomic().")
    rows = _MatchRows.get(lock)
    with connection.cursor() as cursor:
        cursor.execute(rows.sql, [match_id])
        fetched = cursor.fetchall()
    if not fetched:  # seats are created with their match, in its transaction: no seats, no match
        return None
    match = rows.match(fetched[0])
    seats = [rows.seat(row, match) for row in fetched]
    # what ``prefetch_related("seats")`` would store, and where the related manager looks for it
    cached = match.seats.all()
    cached.__dict__.update(_result_cache=seats, _prefetch_done=True)
    match.__dict__["_prefetched_objects_cache"] = {"seats": cached}
    return match


class _MatchRows:
    """The statement of ``match_with_seats`` for this database, and how to turn its rows into models: the
    columns' converters, as the ORM applies them (SQLite's dates come back as text)."""

    _built: dict[tuple[str, bool], _MatchRows] = {}

    @classmethod
    def get(cls, lock: bool) -> _MatchRows:
        key = (connection.alias, lock)
        if key not in cls._built:
            cls._built[key] = cls(lock)
        return cls._built[key]

    def __init__(self, lock: bool) -> None:
        q = connection.ops.quote_name
        seat_table, match_table = Seat._meta.db_table, Match._meta.db_table
        self.seat_fields = list(Seat._meta.concrete_fields)
        self.match_fields = list(Match._meta.concrete_fields)
        columns = [f"{q(seat_table)}.{q(f.column)}" for f in self.seat_fields]
        columns += [f"{q(match_table)}.{q(f.column)}" for f in self.match_fields]
        match_fk = Seat._meta.get_field("match").column
        self.sql = (f"SELECT {', '.join(columns)} FROM {q(seat_table)} INNER JOIN {q(match_table)} "
                    f"ON {q(match_table)}.{q(Match._meta.pk.column)} = {q(seat_table)}.{q(match_fk)} "
                    f"WHERE {q(seat_table)}.{q(match_fk)} = %s ORDER BY {q(seat_table)}.{q('index')}")
        if lock and connection.features.has_select_for_update:
            self.sql += " FOR UPDATE"
            if connection.features.has_select_for_update_of:
                self.sql += f" OF {q(match_table)}"
        self.seat_names = [f.attname for f in self.seat_fields]
        self.match_names = [f.attname for f in self.match_fields]
        self.seat_converters = self._converters(Seat, self.seat_fields)
        self.match_converters = self._converters(Match, self.match_fields)

    @staticmethod
    def _converters(model: type[Any], fields: list[Any]) -> list[tuple[Any, list[Any]]]:
        found = []
        for field in fields:
            col = field.get_col(model._meta.db_table)
            found.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
        return found

    def _convert(self, values: tuple[Any, ...], converters: list[tuple[Any, list[Any]]]) -> list[Any]:
        out = []
        for value, (col, funcs) in zip(values, converters, strict=True):
            for func in funcs:
                value = func(value, col, connection)
            out.append(value)
        return out

    def match(self, row: tuple[Any, ...]) -> Match:
        values = self._convert(row[len(self.seat_fields):], self.match_converters)
        return Match.from_db(connection.alias, self.match_names, values)

    def seat(self, row: tuple[Any, ...], match: Match) -> Seat:
        seat = Seat.from_db(connection.alias, self.seat_names,
                            self._convert(row[:len(self.seat_fields)], self.seat_converters))
        seat.match = match
        return seat


def bot_is_to_act(match: Match, turn: int | None) -> bool:
    """Whether the seat at ``turn`` is played by a bot (so a bot move is due)."""
    return turn is not None and any(seat.index == turn and seat.played_by_bot for seat in seats_of(match))


def waiting_on_a_bot() -> list[tuple[int, int]]:
    """``(match_id, seq)`` of every running match whose turn is a bot's (beat's recovery sweep)."""
    due = Match.objects.filter(bot_plays("seats__"), seats__index=F("turn"), status=Match.Status.ACTIVE,
                               turn__isnull=False)
    return list(due.values_list("pk", "seq").distinct())


def expired_turns(now: datetime) -> list[tuple[int, int]]:
    return list(Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now).values_list("pk", "seq"))


def due_reminders(now: datetime) -> list[tuple[int, int]]:
    return list(Match.objects.filter(status=Match.Status.ACTIVE, remind_at__lte=now, deadline__gt=now)
                .values_list("pk", "seq"))


def unrated_finished(limit: int = 100) -> list[int]:
    """Rated matches that finished but were never rated (a rating task lost with a worker)."""
    return list(Match.objects.filter(status=Match.Status.FINISHED, rated=True, rated_at__isnull=True)
                .values_list("pk", flat=True)[:limit])


def engine_actions(match: Match, upto: int | None = None, since: int = 0) -> list[Any]:
    """The stored log as engine actions, in order: those from ``since`` (before ``upto`` if given).

    Written in SQL like ``match_with_seats``: every action and bot move in a process that has not seen the
    previous ones reads them here, and the ORM's query building cost three times the query.
    """
    q = connection.ops.quote_name
    sql = (f"SELECT {q('seat')}, {q('bid')}, {q('card')} FROM {q(Action._meta.db_table)} "
           f"WHERE {q(Action._meta.get_field('match').column)} = %s AND {q('seq')} >= %s")
    params: list[int] = [match.pk, since]
    if upto is not None:
        sql += f" AND {q('seq')} < %s"
        params.append(upto)
    with connection.cursor() as cursor:
        cursor.execute(sql + f" ORDER BY {q('seq')}", params)
        rows = cursor.fetchall()
    return [engine.Bid(seat, bid) if bid is not None else engine.Play(seat, card) for seat, bid, card in rows]


class StateCache:
    """The newest known state of recently used matches, in this process (a bounded LRU).

    Only committed states enter (``games.effects`` remembers them on commit) and the log is
    append-only, so a cached state of version ``v`` is the replay of the match's first ``v`` actions: a
    read needs only the actions after it (none, usually). Keyed by the match id and its ``bot_seed``
    (random per match), so a reused id (a test database rolled back) never matches an old entry.
    The API, the sockets and the bot task of one process share it; other processes catch up from
    their own entry with one small query.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[tuple[int, str], engine.MatchState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match: Match) -> engine.MatchState | None:
        with self._lock:
            state = self._data.get((match.pk, match.bot_seed))
            if state is not None:
                self._data.move_to_end((match.pk, match.bot_seed))
            return state

    def put(self, match: Match, state: engine.MatchState) -> None:
        key = (match.pk, match.bot_seed)
        with self._lock:
            known = self._data.get(key)
            if known is None or known.version <= state.version:
                self._data[key] = state
                self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


STATES = StateCache(int(getattr(settings, "MATCH_STATE_CACHE_SIZE", 2000)))


def match_state(match: Match, upto: int | None = None) -> engine.MatchState:
    """The current state (or the state after ``upto`` actions): the engine's replay of the log.

    The current state starts from this process's cached one and applies only the actions stored
    since; a state is the same however it was reached, because the engine is deterministic.
    """
    if upto is not None and upto != match.seq:
        return engine.replay(match.seed, engine_actions(match, upto))
    cached = STATES.get(match)
    if cached is not None and cached.version == match.seq:
        return cached
    if cached is not None and cached.version < match.seq:
        state = cached
        for action in engine_actions(match, upto=match.seq, since=cached.version):
            state = engine.apply(state, action)
    else:
        state = engine.replay(match.seed, engine_actions(match, upto=match.seq))
    if state.version == match.seq:
        STATES.put(match, state)
    return state


def remember_state(match: Match, state: engine.MatchState) -> None:
    """A committed state of ``match`` (``games.effects`` calls this on commit)."""
    STATES.put(match, state)


def match_states(matches: list[Match]) -> dict[int, engine.MatchState]:
    """The states of many matches from one query for all their logs (pages listing many matches)."""
    logs: dict[int, list[Any]] = {m.pk: [] for m in matches}
    rows = Action.objects.filter(match__in=list(logs)).order_by("match_id", "seq").values_list(
        "match_id", "seat", "bid", "card")
    for match_id, seat, bid, card in rows:
        logs[match_id].append(engine.Bid(seat, bid) if bid is not None else engine.Play(seat, card))
    return {m.pk: engine.replay(m.seed, logs[m.pk]) for m in matches}


def seat_for_user(match: Match, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in seats_of(match) if s.kind == Seat.Kind.HUMAN and s.user_id == user.pk), None)


def get_match_for_user(user: User, match_id: object) -> tuple[Match, Seat]:
    """The match and the user's seat, or MatchNotFound (also for a match the user is not in)."""
    pk = ascii_int(str(match_id))
    if pk is None:
        raise MatchNotFound()
    match = match_with_seats(pk)
    if match is None:
        raise MatchNotFound()
    seat = seat_for_user(match, user)
    if seat is None:
        raise MatchNotFound()
    return match, seat


def seats_json(match: Match, for_seat: int | None) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.index,
            "name": s.name,
            "kind": s.kind,
            "bot": s.bot or None,
            "autopilot": s.autopilot,
            "you": s.index == for_seat,
        }
        for s in seats_of(match)
    ]


def match_view(match: Match, seat: int, state: engine.MatchState | None = None) -> dict[str, Any]:
    """What ``seat`` may see of ``match``: the engine's player view plus site fields."""
    if state is None:
        state = match_state(match)
    data: dict[str, Any] = engine.player_view(state, seat).to_json()
    data.update(
        {
            "id": match.pk,
            "seq": state.version,
            "status": match.status if match.status == Match.Status.ABORTED
            else Match.Status.FINISHED if state.is_finished else Match.Status.ACTIVE,
            "your_turn": state.turn == seat,
            "seats": seats_json(match, seat),
            "created_at": match.created_at.isoformat() if match.created_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at and state.is_finished else None,
            **timing_json(match),
            **(end_json(match, seat) if state.is_finished else {"table_id": None, "rematch_table_id": None,
                                                                 "rating": None}),
        }
    )
    return data


def view_after_action(match: Match, seat: int, state: engine.MatchState) -> dict[str, Any]:
    """The answer to a person's action: the view after it, or the newest one if bots have answered in
    this process already (eager mode: ``make run``, tests); bots answering on a worker reach the page
    through its socket, so the answer costs no query."""
    newest = STATES.get(match)
    if newest is not None and newest.version > state.version:
        match.refresh_from_db(fields=ROW_FIELDS)
        return match_view(match, seat)
    return match_view(match, seat, state)


def _related_pk(match: Match, name: str) -> int | None:
    try:
        return int(getattr(match, name).pk)
    except ObjectDoesNotExist:
        return None


def end_json(match: Match, seat: int) -> dict[str, Any]:
    """What the end screen needs: the table the match came from and its rematch (for a rematch among
    people), and the viewer's rating change once the rating task has run (conservative μ − 3σ)."""
    rating = None
    user_id = seats_of(match)[seat].user_id
    if match.rated and match.rated_at is not None and user_id is not None:
        change = match.rating_changes.filter(rating__user_id=user_id).first()
        if change is not None:
            before = change.mu_before - 3 * change.sigma_before
            after = change.conservative_after
            rating = {"before": round(before, 2), "after": round(after, 2), "change": round(after - before, 2)}
    return {"table_id": _related_pk(match, "table"), "rematch_table_id": _related_pk(match, "rematch_table"),
            "rating": rating}


def timing_json(match: Match) -> dict[str, Any]:
    """Correspondence fields: time per move, the current turn's deadline and seconds left, rated."""
    left = None
    if match.deadline is not None and match.status == Match.Status.ACTIVE:
        left = max(0, int((match.deadline - timezone.now()).total_seconds()))
    return {
        "move_seconds": match.move_seconds,
        "deadline": match.deadline.isoformat() if match.deadline and match.status == Match.Status.ACTIVE else None,
        "seconds_left": left,
        "rated": match.rated,
    }


def matches_for_user(user: User) -> QuerySet[Match]:
    """The user's matches, those awaiting the user's move first, then active, then finished."""
    my_seat = Seat.objects.filter(match=OuterRef("pk"), user=user, kind=Seat.Kind.HUMAN).values("index")[:1]
    return (
        Match.objects.filter(seats__user=user, seats__kind=Seat.Kind.HUMAN)
        .annotate(my_seat=Subquery(my_seat))
        .annotate(
            awaiting_me=Case(
                When(status=Match.Status.ACTIVE, turn=F("my_seat"), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
            is_active=Case(
                When(status=Match.Status.ACTIVE, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
        )
        .order_by("-awaiting_me", F("deadline").asc(nulls_last=True), "-is_active", "-updated_at", "-id")
        .distinct()
        .prefetch_related("seats")
    )


def match_summary(match: Match, my_seat: int | None = None) -> dict[str, Any]:
    """A list row: no hands, no seed; from the row's cached fields (tests check them against replay)."""
    if my_seat is None:
        my_seat = getattr(match, "my_seat", None)
    return {
        "id": match.pk,
        "status": match.status,
        "seq": match.seq,
        "turn": match.turn,
        "you": my_seat,
        "your_turn": match.status == Match.Status.ACTIVE and match.turn is not None and match.turn == my_seat,
        "seed_commitment": match.seed_commitment,
        "seats": seats_json(match, my_seat),
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        **timing_json(match),
    }


def replay_document(match: Match) -> dict[str, Any]:
    """The ``callbreak-replay/1`` document of a finished match."""
    state = match_state(match)
    players = [
        {
            "seat": s.index,
            "name": s.name,
            "kind": s.kind,
            "bot": (s.bot or None) if s.played_by_bot else None,
        }
        for s in seats_of(match)
    ]
    return engine.export_replay(state, players, str(match.pk))
