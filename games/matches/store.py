"""Loading and locking matches, and the states they are in: the SQL every read and write of a match starts
with, and this process's cache of states.

``load``/``lock`` read a match and its four seats in one statement (``lock`` also locks the row until the
transaction ends: only ``games.matches.write`` calls it); ``state`` is the engine's replay of the log,
starting from the newest state this process has seen (``remember``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.transaction import TransactionManagementError

import engine

from .models import Action, Match, Seat

# The fields of a match row that change as it is played (``refresh_from_db(fields=...)`` keeps the seats).
ROW_FIELDS = ["seq", "turn", "status", "deadline", "remind_at", "finished_at", "updated_at", "rated_at"]


def seats_of(match: Match) -> list[Seat]:
    """The four seats in order; free when the match was loaded by ``load``, as every write and
    view does, so a request reads them once."""
    return sorted(match.seats.all(), key=lambda seat: seat.index)


def load(match_id: int, *, lock: bool = False) -> Match | None:
    """The match and its four seats in one statement (``lock``: the match row is locked until the
    transaction ends); ``seats_of`` and ``match.seats.all()`` then read the seats without a query.

    Every action, bot move and socket read starts here, so it is one round trip and its SQL is written
    once (``_MatchRows``): the ORM compiling a three-table ``select_related`` and building its rows cost
    about 2 ms of CPU a call, most of what a bot move costs the database side.
    """
    if not 0 < match_id < 2**63:  # not an id: nothing to find (SQLite cannot even bind it)
        return None
    if lock and connection.get_autocommit():
        raise TransactionManagementError("store.load(lock=True) locks until the transaction ends: "
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
    """The statement of ``load`` for this database, and how to turn its rows into models: the
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


def engine_actions(match: Match, upto: int | None = None, since: int = 0) -> list[Any]:
    """The stored log as engine actions, in order: those from ``since`` (before ``upto`` if given).

    Written in SQL like ``load``: every action and bot move in a process that has not seen the
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


def save(match: Match, fields: set[str], actions: list[Action]) -> None:
    """Write a match write's new ``actions`` and the row's changed ``fields`` (with ``updated_at``).

    One statement on PostgreSQL (the insert in a ``WITH`` before the update), two elsewhere; in SQL like
    ``load``: the ORM's ``bulk_create`` and ``save(update_fields=...)`` spent more CPU building the two
    statements than the database spent running them, on every action and every bot move.
    """
    q = connection.ops.quote_name
    statements: list[tuple[str, list[Any]]] = []
    if actions:
        columns = [f for f in Action._meta.concrete_fields if not f.primary_key]
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        values: list[Any] = []
        for action in actions:
            values += [f.get_db_prep_save(f.pre_save(action, True), connection) for f in columns]
        statements.append((f"INSERT INTO {q(Action._meta.db_table)} ({', '.join(q(f.column) for f in columns)}) "
                           f"VALUES {', '.join([row] * len(actions))}", values))
    if fields:
        by_name = {n: f for f in Match._meta.concrete_fields for n in (f.name, f.attname)}
        changed = [by_name[name] for name in sorted(fields | {"updated_at"})]
        values = [f.get_db_prep_save(f.pre_save(match, False), connection) for f in changed]
        statements.append((f"UPDATE {q(Match._meta.db_table)} SET "
                            f"{', '.join(f'{q(f.column)} = %s' for f in changed)} "
                            f"WHERE {q('id')} = %s", [*values, match.pk]))
    if len(statements) == 2 and connection.vendor == "postgresql":
        (insert, first), (update, second) = statements
        statements = [(f"WITH new_actions AS ({insert}) {update}", first + second)]
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


class StateCache:
    """The newest known state of recently used matches, in this process (a bounded LRU).

    Only committed states enter (``remember``, on commit) and the log is
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
        key = (match.pk, match.bot_seed)
        with self._lock:
            state = self._data.get(key)
            if state is not None:
                self._data.move_to_end(key)
            return state

    def put(self, match_id: int, bot_seed: str, state: engine.MatchState) -> None:
        key = (match_id, bot_seed)
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


STATES = StateCache(settings.MATCH_STATE_CACHE_SIZE)


def state_of(match: Match, upto: int | None = None) -> engine.MatchState:
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
        remember(match.pk, match.bot_seed, state)
    return state


def remember(match_id: int, bot_seed: str, state: engine.MatchState) -> None:
    """A committed state of a match (``bot_seed`` tells a reused id apart): the next read of it in this
    process starts there. The one way into the cache: a replay of the stored log (``state_of``), a write
    once committed (``games.matches.reactions``), a socket that applied committed actions."""
    STATES.put(match_id, bot_seed, state)


def newest(match: Match) -> engine.MatchState | None:
    """The newest state of ``match`` this process has seen (perhaps newer than ``match.seq``), or None."""
    return STATES.get(match)


def caught_up(match: Match, state: engine.MatchState) -> engine.MatchState:
    """``state``, just committed by a write of ``match``, or the newest state of the match if this process has
    seen a newer one already (the bots answered in this process: eager mode, ``make run``, tests); then the row
    is read again too, so the row and the state agree. Bots answering on a worker cost no query here."""
    newer = newest(match)
    if newer is None or newer.version <= state.version:
        return state
    match.refresh_from_db(fields=ROW_FIELDS)
    return state_of(match)


def states_of(matches: list[Match]) -> dict[int, engine.MatchState]:
    """The states of many matches from one query for all their logs (pages listing many matches)."""
    logs: dict[int, list[Any]] = {m.pk: [] for m in matches}
    rows = Action.objects.filter(match__in=list(logs)).order_by("match_id", "seq").values_list(
        "match_id", "seat", "bid", "card")
    for match_id, seat, bid, card in rows:
        logs[match_id].append(engine.Bid(seat, bid) if bid is not None else engine.Play(seat, card))
    return {m.pk: engine.replay(m.seed, logs[m.pk]) for m in matches}
