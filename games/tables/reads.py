"""Reads of tables: what a user may see (a private table exists only for its members and for whoever has
its invitation code; to anyone else it is a 404), a room code as typed, the lobby, and the JSON of a table."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from games.matches.models import Seat
from games.matches.reads import get_match_for_user
from games.platform.errors import GameError, TableNotFound
from games.web.bounds import ascii_int

from .models import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH, Table, TableSeat

DAY = 86400
MOVE_SECONDS_CHOICES = (60, DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY)


def table_pk(table_id: object) -> int:
    pk = ascii_int(str(table_id))
    if pk is None:
        raise TableNotFound()
    return pk


def is_member(table: Table, user: Any) -> bool:
    return user.is_authenticated and table.seats.filter(user=user).exists()


def is_invited(table: Table, user: Any) -> bool:
    return user.is_authenticated and table.seats.filter(invited=user).exists()


def can_see(table: Table, user: Any, code: str | None = None) -> bool:
    """Public tables, private ones with their code, and the tables one sits at or is invited to."""
    return (
        table.visibility == Table.Visibility.PUBLIC
        or (code is not None and code == table.invite_code)
        or is_member(table, user)
        or is_invited(table, user)
    )


def audience(table_id: int) -> Literal["public"] | list[int] | None:
    """Who may hear that a table changed: everyone (public), its members (private), nobody (gone)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    if table.visibility == Table.Visibility.PUBLIC:
        return "public"
    seats = table.seats.filter(Q(user__isnull=False) | Q(invited__isnull=False))
    return sorted({uid for pair in seats.values_list("user_id", "invited_id") for uid in pair if uid is not None})


def visible_table(user: Any, table_id: object, code: str | None = None) -> Table:
    table = with_seats(Table.objects.filter(pk=table_pk(table_id))).first()
    if table is None or not can_see(table, user, code):
        raise TableNotFound()
    return table


def table_by_code(code: str) -> Table:
    table = with_seats(Table.objects.filter(invite_code=code)).first()
    if table is None:
        raise TableNotFound()
    return table


# What people put between the groups of a code they read out or copy: spaces and dashes of every kind, dots.
_CODE_SEPARATORS = re.compile(r"[\s\-_.\u00b7\u2010-\u2015\u2212\u30fb]+")
_CODE = re.compile(f"[{ROOM_CODE_ALPHABET}]{{{ROOM_CODE_LENGTH}}}")


class NoSuchCode(GameError):
    """No open table has this room code (none ever had, or its table started or closed): both look the same."""

    status = 404

    def __init__(self) -> None:
        super().__init__("no_such_code", "No open table has this code; check it with the host.")


def room_code(text: object) -> str:
    """The room code someone typed, as stored: any case, full-width letters (NFKC), spaces and dashes taken;
    400 ``bad_code`` when it cannot be one (a room code never has 0, O, 1, I or L)."""
    typed = _CODE_SEPARATORS.sub("", unicodedata.normalize("NFKC", text)).upper() if isinstance(text, str) else ""
    if not _CODE.fullmatch(typed):
        raise GameError("bad_code", f"A room code is {ROOM_CODE_LENGTH} letters and digits, such as ABC 234 "
                                    "(no 0, O, 1, I or L).")
    return typed


def open_table_by_room_code(text: object) -> Table:
    """The open table with this room code (``room_code`` reads the typed text), else ``NoSuchCode``."""
    table = with_seats(Table.objects.filter(room_code=room_code(text), status=Table.Status.OPEN)).first()
    if table is None:
        raise NoSuchCode()
    return table


def with_seats(tables: QuerySet[Table]) -> QuerySet[Table]:
    """Tables with their host and seated people, so ``table_json`` of any number of them costs three queries."""
    return tables.select_related("host").prefetch_related(
        Prefetch("seats", queryset=TableSeat.objects.select_related("user__bot_account", "invited")
                 .order_by("index")))


def lobby_page(user: Any, *, limit: int, before: int | None = None) -> list[Table]:
    """A page of the lobby, newest first: open public tables and the open tables the user sits at (private
    ones included); ``before``: only tables older than that id (the next page's cursor)."""
    tables = (Table.objects.filter(status=Table.Status.OPEN)
              .filter(Q(visibility=Table.Visibility.PUBLIC) | Q(pk__in=TableSeat.objects.filter(user=user)
                                                                .values("table_id"))))
    if before is not None:
        tables = tables.filter(pk__lt=before)
    return list(with_seats(tables.order_by("-id"))[:limit])


def open_seats_held(user: Any) -> int:
    """Seats ``user`` holds at tables not started yet (a bot account's cap counts them)."""
    return open_seats_held_by([user.pk])[user.pk]


def open_seats_held_by(user_ids: list[int]) -> dict[int, int]:
    """``open_seats_held`` of many users, in one query."""
    counts = dict(TableSeat.objects.filter(user_id__in=user_ids, table__status=Table.Status.OPEN)
                  .order_by().values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    return {uid: counts.get(uid, 0) for uid in user_ids}


def open_tables_hosted(user: Any, visibility: str) -> int:
    return Table.objects.filter(host=user, status=Table.Status.OPEN, visibility=visibility).count()


def _seats(table: Table) -> list[TableSeat]:
    """The table's seats in order, with their people: prefetched by ``with_seats``, or read now."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return list(table.seats.all())
    return list(table.seats.select_related("user__bot_account", "invited").order_by("index"))


def table_json(table: Table, user: Any, code: str | None = None) -> dict[str, Any]:
    all_seats = _seats(table)
    member = user.is_authenticated and any(s.user_id == user.pk for s in all_seats)
    seats = []
    for s in all_seats:
        kind = "human" if s.user_id else ("bot" if s.bot else ("invited" if s.invited_id else "empty"))
        seats.append({"seat": s.index, "kind": kind, "name": s.user.get_username() if s.user is not None else None,
                      "bot": s.bot or None, "you": bool(user.is_authenticated and s.user_id == user.pk),
                      "bot_account": s.user is not None and hasattr(s.user, "bot_account"),
                      "invited": s.invited.get_username() if s.invited is not None else None,
                      "invited_you": bool(user.is_authenticated and s.invited_id == user.pk)})
    insider = member or (code is not None and code == table.invite_code)
    return {
        "id": table.pk,
        "host": table.host.get_username(),
        "you_host": table.host_id == getattr(user, "pk", None),
        "visibility": table.visibility,
        "move_seconds": table.move_seconds,
        "rated": table.rated,
        "status": table.status,
        "seats": seats,
        "member": member,
        "invite_code": table.invite_code if insider else None,
        "room_code": table.room_code if insider and table.status == Table.Status.OPEN else None,
        "match_id": table.match_id if member else None,
        "created_at": table.created_at.isoformat(),
        "expires_at": table.expires_at.isoformat() if table.expires_at else None,
    }


# --- one-tap rematches ----------------------------------------------------------------------------------

def rematch_people(seats: list[Seat]) -> list[Seat]:
    """The seats of a match whose yes a rematch waits for: its people (bots and bot accounts simply stay)."""
    return [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None and not s.bot_account]


def rematch_people_ids(seats: list[Seat]) -> list[int]:
    return [s.user_id for s in rematch_people(seats) if s.user_id is not None]


def seated_match(user: Any, match_id: object) -> int:
    """The id of a match ``user`` has a seat at (404 ``not_found`` otherwise: a stranger learns nothing)."""
    match, _ = get_match_for_user(user, match_id)
    return int(match.pk)


def rematch_of(match_id: int) -> Table | None:
    return Table.objects.filter(rematch_of_id=match_id).first()


def rematch_status(table: Table | None, now: Any = None) -> str:
    """``none`` (nobody asked), ``pending``, ``started`` or ``cancelled`` (said no, timed out, or a set-up table
    of old); a pending rematch past its time reads as cancelled before the sweep closes it."""
    if table is None:
        return "none"
    if table.status == Table.Status.PENDING:
        expired = table.expires_at is not None and table.expires_at <= (now or timezone.now())
        return "cancelled" if expired else "pending"
    return "started" if table.status == Table.Status.STARTED and table.match_id else "cancelled"


def rematch_json(match_id: int, table: Table | None, user: Any = None, *, reason: str = "", by: str = ""
                 ) -> dict[str, Any]:
    """What the end dialog shows of the rematch of match ``match_id``: its status, who asked, whose yes it waits
    for, the new match once started. ``user``: adds whether they still have to answer (the socket's message,
    the same for everyone, leaves it out: each page knows its seat)."""
    status = rematch_status(table)
    seats = list(Seat.objects.filter(match_id=match_id).order_by("index"))
    agreed: set[int] = set()
    if table is not None and status == "pending":
        agreed = set(table.seats.filter(agreed=True).values_list("index", flat=True))
    waiting = [{"seat": s.index, "name": s.name} for s in rematch_people(seats) if s.index not in agreed]
    host_seat = next((s for s in seats if table is not None and s.user_id == table.host_id), None)
    data: dict[str, Any] = {
        "type": "rematch",
        "match_id": match_id,
        "status": status,
        "asked_by": host_seat.name if host_seat is not None and status != "none" else None,
        "asked_by_seat": host_seat.index if host_seat is not None and status != "none" else None,
        "waiting": waiting if status == "pending" else [],
        "new_match_id": table.match_id if table is not None and status == "started" else None,
        "expires_at": table.expires_at.isoformat() if table is not None and table.expires_at
        and status == "pending" else None,
        "reason": reason or None,
        "by": by or None,
    }
    if user is not None:
        mine = next((s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id == user.pk), None)
        data["you_to_answer"] = status == "pending" and mine is not None and any(
            w["seat"] == mine.index for w in waiting)
    return data
