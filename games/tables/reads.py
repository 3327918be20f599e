"""Reads of tables: what a user may see (a private table exists only for its members and for whoever has
its invitation code; to anyone else it is a 404), the lobby, and the JSON of a table."""

from __future__ import annotations

from typing import Any, Literal

from django.db.models import Count, Prefetch, Q, QuerySet

from games.errors import TableNotFound
from games.limits import ascii_int

from .models import Table, TableSeat

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


def open_public_tables_hosted(user: Any) -> int:
    return Table.objects.filter(host=user, status=Table.Status.OPEN, visibility=Table.Visibility.PUBLIC).count()


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
        "match_id": table.match_id if member else None,
        "created_at": table.created_at.isoformat(),
        "expires_at": table.expires_at.isoformat() if table.expires_at else None,
    }
