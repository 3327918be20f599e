"""Writes to tables among people: create, join, leave, fill with bots, start, expire.

Every write locks the table row; lobby listeners are told once it commits (``TableChanged``).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from engine.bots import LEVELS
from games.accounts import reads as account_reads
from games.matches.commands import SeatSpec, check_bot_level, check_bot_match_cap, create_match
from games.matches.deadlines import is_live
from games.matches.models import Match, Seat
from games.matches.write import FINISHED, MatchWrite, match_write
from games.platform import outbox
from games.platform.errors import Forbidden, GameError, MatchNotFound, NotFound, NotHost, TableConflict, TableNotFound

from . import reads
from .events import BotInvited, RematchAsked, RematchChanged, TableChanged
from .models import Table, TableSeat, new_room_code
from .reads import DAY, MOVE_SECONDS_CHOICES

# A rated match seats people and the bot levels that have ratings of their own: never `random` (three of
# them would hand out rating points for nothing) nor an engine kind under another name.
RATED_BOT_LEVELS = tuple(sorted(LEVELS))


def check_rated_bot(table: Table, level: str, rated_bots: Collection[str] = RATED_BOT_LEVELS) -> None:
    if table.rated and level not in rated_bots:
        levels = ", ".join(sorted(rated_bots))
        raise GameError("unrated_bot", f"A rated table seats the rated bot levels only ({levels}); "
                                       f"`{level}` may play at unrated tables.", levels=sorted(rated_bots))


ROOM_CODE_TRIES = 8
def _new_table(**fields: Any) -> Table:
    """``Table.objects.create``, and an open private table gets a room code. Codes are unique among open tables
    (a constraint, which two tables made at once cannot both pass); a clash (as likely as the open tables' count
    in 887 million) is dealt again. Runs inside the caller's transaction (a savepoint per try)."""
    private = fields.get("visibility") == Table.Visibility.PRIVATE
    if not private or fields.get("status", Table.Status.OPEN) != Table.Status.OPEN:
        return Table.objects.create(**fields)
    for _ in range(ROOM_CODE_TRIES - 1):
        try:
            with transaction.atomic():
                return Table.objects.create(room_code=new_room_code(), **fields)
        except IntegrityError:
            continue
    return Table.objects.create(room_code=new_room_code(), **fields)


def create_table(host: Any, *, visibility: str = Table.Visibility.PUBLIC, move_seconds: int = DAY,
                 rated: bool = True) -> Table:
    """A table with the host at seat 0 and three empty seats."""
    if visibility not in Table.Visibility.values:
        raise GameError("bad_visibility", "Visibility is `public` or `private`.")
    if move_seconds not in MOVE_SECONDS_CHOICES:
        raise GameError("bad_time", f"Time per move is one of {', '.join(map(str, MOVE_SECONDS_CHOICES))} seconds.")
    if rated:
        account_reads.check_may_play_rated(host)  # 403 guest_unrated
    public = visibility == Table.Visibility.PUBLIC
    cap = settings.OPEN_PUBLIC_TABLES_PER_USER if public else settings.OPEN_PRIVATE_TABLES_PER_USER
    if reads.open_tables_hosted(host, visibility) >= cap:
        raise TableConflict("too_many_tables", f"You host {cap} open {visibility} tables already: start or leave "
                                               "one first.", limit=cap)
    with transaction.atomic():
        table = _new_table(
            host=host, visibility=visibility, move_seconds=move_seconds, rated=bool(rated),
            expires_at=timezone.now() + timedelta(seconds=settings.TABLE_EXPIRY_SECONDS),
        )
        for index in range(4):
            TableSeat.objects.create(table=table, index=index, user=host if index == 0 else None)
        outbox.emit(TableChanged(table.pk))
    return table


def _locked(table_id: object) -> Table:
    pk = reads.table_pk(table_id)
    table = Table.objects.select_for_update().filter(pk=pk).first()
    if table is None:
        raise TableNotFound()
    return table


def _open(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise TableConflict("table_not_open", f"The table is {table.status}.")


def join_table(user: Any, table_id: object, *, seat: int | None = None, code: str | None = None) -> Table:
    """Take an empty seat (the given one, else the first); a private table needs its invitation code."""
    with transaction.atomic():
        table = _locked(table_id)
        if not reads.can_see(table, user, code):
            raise TableNotFound()
        _open(table)
        if table.seats.filter(user=user).exists():
            raise TableConflict("already_seated", "You already sit at this table.")
        if table.rated:
            account_reads.check_may_play_rated(user)  # 403 guest_unrated: a guest joins unrated tables only
        check_bot_match_cap(user, waiting=reads.open_seats_held(user))
        seats = list(table.seats.select_for_update().order_by("index"))
        # 403 blocked: nobody sits with someone who blocked them (or whom they blocked), by any door
        account_reads.check_not_blocked(user, _people_at(table, seats))
        target: TableSeat | None
        invited = next((s for s in seats if s.invited_id == user.pk), None)
        if invited is not None and seat in (None, invited.index):
            target = invited  # a person invited to a seat (a friend's challenge) takes that one
            target.invited = None
        elif seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
                raise GameError("bad_seat", "A seat is 0, 1, 2 or 3.")
            target = seats[seat]
            if not target.is_empty:
                raise TableConflict("seat_taken", "That seat is taken.")
        else:
            target = next((s for s in seats if s.is_empty), None)
            if target is None:
                raise TableConflict("table_full", "The table is full.")
        target.user, target.bot = user, ""
        target.save(update_fields=["user", "bot", "invited"])
        outbox.emit(TableChanged(table.pk))
    return table


def _people_at(table: Table, seats: list[TableSeat]) -> set[int]:
    """The people a newcomer would sit with: the host, everyone seated, everyone invited."""
    return {table.host_id} | {s.user_id for s in seats if s.user_id} | {s.invited_id for s in seats if s.invited_id}


def join_by_room_code(user: Any, code: object) -> Table:
    """The room code read out by the host: the first empty seat at its open table (as ``join_table`` with the
    invitation), or the table as it is for someone who sits there already. 400 ``bad_code`` for text that
    cannot be a code, 404 ``no_such_code`` when no open table has it."""
    table = reads.open_table_by_room_code(code)
    if reads.is_member(table, user):
        return table
    return join_table(user, table.pk, code=table.invite_code)


def leave_table(user: Any, table_id: object) -> Table:
    """Leave before the start; the seat is free again. A host who leaves passes the table on (or closes it)."""
    with transaction.atomic():
        table = _locked(table_id)
        mine = table.seats.filter(user=user).first()
        if mine is None:
            raise TableNotFound() if not reads.can_see(table, user) else GameError("not_seated", "You do not sit here.")
        _open(table)
        mine.user = None
        mine.save(update_fields=["user"])
        left = (user.pk,)
        if table.host_id == user.pk:
            heir_id = table.seats.filter(user__isnull=False).order_by("index").values_list("user_id", flat=True).first()
            if heir_id is None:
                table.status = Table.Status.CLOSED
                table.save(update_fields=["status"])
            else:
                table.host_id = heir_id
                table.save(update_fields=["host"])
        outbox.emit(TableChanged(table.pk, left))
    return table


def _host_only(table: Table, user: Any) -> None:
    if not reads.is_member(table, user) and not reads.can_see(table, user):
        raise TableNotFound()
    if table.host_id != user.pk:
        raise NotHost()


def fill_bots(user: Any, table_id: object, *, bot: str | None = None, seats: list[int] | None = None) -> Table:
    """The host puts bots of one level in the empty seats (or only in ``seats``)."""
    level = check_bot_level(bot)
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        _open(table)
        check_rated_bot(table, level)
        qs = table.seats.select_for_update().filter(user__isnull=True, bot="", invited__isnull=True)
        if seats is not None:
            if not isinstance(seats, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in seats):
                raise GameError("bad_seat", "`seats` is a list of seat numbers.")
            qs = qs.filter(index__in=seats)
        qs.update(bot=level)
        outbox.emit(TableChanged(table.pk))
    return table


def clear_seat(user: Any, table_id: object, index: int) -> Table:
    """The host removes a bot from a seat before the start."""
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        _open(table)
        invited = tuple(table.seats.filter(index=index, invited__isnull=False).values_list("invited_id", flat=True))
        table.seats.filter(index=index, user__isnull=True).update(bot="", invited=None)
        outbox.emit(TableChanged(table.pk, invited))
    return table


def invite_bot(user: Any, table_id: object, index: object, username: object) -> Table:
    """The host invites a bot account, by name, to an empty seat; the seat waits for its answer
    (``answer_invitation``) and the bot is told (an ``invited`` bot event)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 3:
        raise GameError("bad_seat", "A seat is 0, 1, 2 or 3.")
    if not isinstance(username, str) or not username.strip():
        raise GameError("bad_username", "Name the bot account to invite.")
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        _open(table)
        bot = get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
        if bot is None or not account_reads.is_bot_account(bot):
            raise NotFound("No bot account of that name.")
        _invite(table, index, bot)
        outbox.emit(BotInvited(table.pk, bot.pk, index))
    return table


def _invite(table: Table, index: int, guest: Any) -> None:
    """``guest`` is invited to the empty seat ``index`` of a locked open table: 409 when it sits there or is
    invited already, or the seat is taken; 403 ``blocked`` when it and anyone at the table blocked one another."""
    if table.seats.filter(Q(user=guest) | Q(invited=guest)).exists():
        raise TableConflict("already_seated", "That player sits at this table or is invited already.")
    seats = list(table.seats.select_for_update().order_by("index"))
    account_reads.check_not_blocked(guest, _people_at(table, seats))
    seat = seats[index]
    if not seat.is_empty:
        raise TableConflict("seat_taken", "That seat is taken.")
    seat.invited = guest
    seat.save(update_fields=["invited"])
    outbox.emit(TableChanged(table.pk))


def invite_person(user: Any, table_id: object, index: int, guest: Any) -> Table:
    """The host invites a person to an empty seat of an open table (a friend's challenge): the table becomes
    visible to them and they take that seat by joining it (``join_table``), or leave it (``answer_invitation``
    with ``accept=False``). 403 ``blocked`` at any block between them and anyone at the table."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 3:
        raise GameError("bad_seat", "A seat is 0, 1, 2 or 3.")
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        _open(table)
        if not guest.is_active:
            raise NotFound("No such player.")
        _invite(table, index, guest)
    return table


def withdraw_invitation(table_id: int, guest: Any) -> None:
    """``guest``'s invitation to an open table is withdrawn (one of them blocked the other): the seat is empty
    again and the guest no longer sees the table."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.status == Table.Status.OPEN and table.seats.filter(invited=guest).update(invited=None):
            outbox.emit(TableChanged(table.pk, (guest.pk,)))


def answer_invitation(user: Any, table_id: object, *, accept: bool) -> Table:
    """A bot account takes (``accept``) or frees the seat it was invited to. Accepting counts against its cap
    of matches at once (409 ``too_many_matches``)."""
    with transaction.atomic():
        table = _locked(table_id)
        seat = table.seats.select_for_update().filter(invited=user).first()
        if seat is None:
            raise NotFound("No invitation of yours at this table.")
        _open(table)
        if accept:
            if table.rated:
                account_reads.check_may_play_rated(user)
            check_bot_match_cap(user, waiting=reads.open_seats_held(user))
            others = [s for s in table.seats.all() if s.pk != seat.pk]
            account_reads.check_not_blocked(user, _people_at(table, others))
            seat.user = user
        seat.invited = None
        seat.save(update_fields=["user", "invited"])
        outbox.emit(TableChanged(table.pk, () if accept else (user.pk,)))
    return table


def start_table(user: Any, table_id: object) -> Match:
    """The host starts the match once all four seats are taken; the table then points to it."""
    with transaction.atomic():
        table = _locked(table_id)
        _host_only(table, user)
        _open(table)
        seats = list(table.seats.select_related("user").order_by("index"))
        if any(s.user_id is None and not s.bot for s in seats):
            raise TableConflict("seats_empty", "Fill every seat (people or bots) before starting; an invited bot "
                                               "account must accept first.")
        for s in seats:
            if not s.user_id:
                check_rated_bot(table, s.bot)
        if account_reads.blocked_pairs({s.user_id for s in seats if s.user_id}):  # blocked after they sat down
            raise Forbidden("blocked", account_reads.BLOCKED)
        specs = [SeatSpec(user=s.user) if s.user_id else SeatSpec(bot=s.bot) for s in seats]
        # a private table's people are its host and those who came by its invitation: they may chat
        match = create_match(seats=specs, created_by=user, move_seconds=table.move_seconds, rated=table.rated,
                             chat=table.visibility == Table.Visibility.PRIVATE)
        table.status = Table.Status.STARTED
        table.match = match
        table.save(update_fields=["status", "match"])
        outbox.emit(TableChanged(table.pk))
    return match


def expire_tables(now: Any = None) -> int:
    """Open public tables nobody started in time expire, and pending rematches past their time are called off
    (beat's sweep)."""
    now = now or timezone.now()
    ids = list(Table.objects.filter(status=Table.Status.OPEN, visibility=Table.Visibility.PUBLIC,
                                    expires_at__lte=now).values_list("pk", flat=True))
    if ids:
        Table.objects.filter(pk__in=ids, status=Table.Status.OPEN).update(status=Table.Status.EXPIRED)
        for pk in ids:
            outbox.emit(TableChanged(pk))
    return len(ids) + expire_rematches(now)


#: How long a live match's rematch waits for its people's yes; a correspondence one waits a move's time.
LIVE_REMATCH_SECONDS = 60


def _rematch_expiry(move_seconds: int) -> Any:
    wait = LIVE_REMATCH_SECONDS if is_live(move_seconds) else move_seconds
    return timezone.now() + timedelta(seconds=wait)


def _check_rematch_seats(old: Table, seats: list[Seat]) -> None:
    """What starting the rematch requires, asked again (a rated table's rules may have changed, an account may be
    closed, a bot account may be at its cap): a rated one seats rated bot levels only (the ladder's, among bot
    accounts: its house bots too)."""
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[s.user_id for s in seats if s.user_id])}
    if account_reads.blocked_pairs(set(users)):  # one blocked another since: no rematch together
        raise Forbidden("blocked", account_reads.BLOCKED)
    for seat in seats:
        if seat.user_id is None:
            if old.rated:
                ladder = all(s.bot_account for s in seats if s.user_id is not None)
                allowed = set(RATED_BOT_LEVELS) | (set(settings.BOT_LADDER_HOUSE_BOTS) if ladder else set())
                check_rated_bot(old, seat.bot, allowed)
            continue
        user = users.get(seat.user_id)
        if user is None or not user.is_active:
            raise TableConflict("player_gone", f"{seat.name}'s account is closed: start a new table instead.")
        if old.rated:
            account_reads.check_may_play_rated(user)  # 403 guest_unrated
        if seat.bot_account:
            check_bot_match_cap(user, waiting=reads.open_seats_held(user))


def _start_rematch(table: Table, old_match: Match, seats: list[Seat]) -> Match:
    """Every person said yes: the same seats at the same pace, rating and chat as the old match."""
    _check_rematch_seats(table, seats)
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[s.user_id for s in seats if s.user_id])}
    specs = [SeatSpec(user=users[s.user_id]) if s.user_id else SeatSpec(bot=s.bot) for s in seats]
    match = create_match(seats=specs, created_by=table.host, move_seconds=table.move_seconds, rated=table.rated,
                         chat=old_match.chat)
    table.status, table.match, table.expires_at = Table.Status.STARTED, match, None
    table.save(update_fields=["status", "match", "expires_at"])
    return match


def ask_rematch(user: Any, match_id: int) -> tuple[Table, bool]:
    """The one-tap rematch of a finished match played at a table (quick matches included): the same seats (bots
    at their levels, bot accounts), pace, rating and chat. Asking is saying yes: with no other person at the
    table the match starts at once; otherwise the rematch waits (``pending``) for every person's yes
    (``answer_rematch``), each of them told. The old match's row is locked and a match has one rematch row
    (``Table.rematch_of`` is unique), so a double tap, or two people tapping at once, make one rematch: the second
    tap is a yes to it. A rematch said no to or timed out may be asked again (the same row, asked anew). Returns
    the rematch's table and whether this call asked it (else it was asked already)."""
    with match_write(match_id) as write:  # the old match locked: two taps at once take turns here
        match = write.match
        mine = write.seat_of(user)
        if mine is None:
            raise MatchNotFound()
        write.require(*FINISHED, unfinished="The match is not finished; a rematch is offered at its end.")
        old = Table.objects.filter(match=match).first()
        if old is None:
            raise GameError("no_table", "This match was not played at a table among people; start a new match.")
        table = Table.objects.select_for_update().filter(rematch_of=match).first()
        status = reads.rematch_status(table)
        if table is not None and status in ("pending", "started"):
            if status == "pending" and not table.seats.filter(index=mine.index, agreed=True).exists():
                _agree(write, table, mine)
            return table, False
        _check_rematch_seats(old, write.seats)
        people = set(reads.rematch_people_ids(write.seats))
        fields = {"host": user, "visibility": old.visibility, "move_seconds": old.move_seconds, "rated": old.rated,
                  "status": Table.Status.PENDING, "match": None, "expires_at": _rematch_expiry(old.move_seconds)}
        if table is None:
            table = Table.objects.create(rematch_of=match, **fields)
        else:  # said no to or timed out before: asked anew
            for name, value in fields.items():
                setattr(table, name, value)
            table.save(update_fields=list(fields))
            table.seats.all().delete()
        for seat in write.seats:
            human = seat.kind == Seat.Kind.HUMAN
            TableSeat.objects.create(table=table, index=seat.index, user_id=seat.user_id if human else None,
                                     bot="" if human else seat.bot,
                                     agreed=human and (seat.user_id == user.pk or seat.user_id not in people))
        if people - {user.pk}:
            for uid in sorted(people - {user.pk}):
                write.emit(RematchAsked(uid, match.pk, match.seq))
        else:
            _start_rematch(table, match, write.seats)
        write.emit(RematchChanged(table.pk, match.pk))
    return table, True


def _agree(write: MatchWrite, table: Table, seat: Seat) -> None:
    """``seat``'s person said yes; the last yes starts the rematch."""
    table.seats.filter(index=seat.index).update(agreed=True)
    waiting = [s for s in reads.rematch_people(write.seats)
               if not table.seats.filter(index=s.index, agreed=True).exists()]
    if not waiting:
        _start_rematch(table, write.match, write.seats)
    write.emit(RematchChanged(table.pk, write.match.pk))


def answer_rematch(user: Any, match_id: int, *, yes: bool) -> Table:
    """A person of the old match answers its pending rematch: yes (the last one starts it) or no (it is called
    off and the others are told). 404 ``no_rematch`` when nobody asked, 409 ``rematch_cancelled`` once it is off
    (said no to, timed out), 409 ``already_answered`` for a second answer (or once it started)."""
    with match_write(match_id) as write:
        mine = write.seat_of(user)
        if mine is None:
            raise MatchNotFound()
        write.require(*FINISHED, unfinished="The match is not finished; a rematch is offered at its end.")
        if mine.bot_account:
            raise Forbidden("not_seated", "A bot account's seat needs no answer: it stays.")
        table = Table.objects.select_for_update().filter(rematch_of=write.match).first()
        status = reads.rematch_status(table)
        if table is None or status == "none":
            raise NotFound("Nobody asked for a rematch of this match.")
        if status == "cancelled":
            raise TableConflict("rematch_cancelled", "This rematch was called off; ask for a new one.")
        if status == "started" or table.seats.filter(index=mine.index, agreed=True).exists():
            raise TableConflict("already_answered", "You answered already.", match_id=table.match_id)
        if yes:
            _agree(write, table, mine)
        else:
            _call_off(write, table, reason="declined", by=mine.name)
    return table


def _call_off(write: MatchWrite, table: Table, *, reason: str, by: str) -> None:
    """The pending rematch is off (``by`` said no, or left); its people are told why."""
    table.status, table.expires_at = Table.Status.CLOSED, None
    table.save(update_fields=["status", "expires_at"])
    write.emit(RematchChanged(table.pk, write.match.pk, reason=reason, by=by))


def leave_rematch(user: Any, match_id: int) -> bool:
    """A person left the end screen of a live match (the page closed or went elsewhere): a pending rematch would
    seat them absent, so it is called off and the others are told (``left``). A correspondence rematch waits on,
    since its people come back when told. True when this call called it off; anything else changes nothing."""
    with match_write(match_id) as write:
        mine = write.seat_of(user)
        if mine is None:
            raise MatchNotFound()
        if write.match.status not in FINISHED or mine.bot_account or not is_live(write.match.move_seconds):
            return False
        table = Table.objects.select_for_update().filter(rematch_of=write.match).first()
        if reads.rematch_status(table) != "pending":
            return False
        assert table is not None
        _call_off(write, table, reason="left", by=mine.name)
    return True


def expire_rematches(now: Any = None) -> int:
    """Pending rematches past their time are called off and their people told (beat's sweep)."""
    now = now or timezone.now()
    rows = list(Table.objects.filter(status=Table.Status.PENDING, expires_at__lte=now)
                .values_list("pk", "rematch_of_id"))
    for pk, match_id in rows:
        if Table.objects.filter(pk=pk, status=Table.Status.PENDING, expires_at__lte=now).update(
                status=Table.Status.CLOSED, expires_at=None):
            outbox.emit(RematchChanged(pk, match_id, reason="timeout"))
    return len(rows)


def start_full_table(host: Any, seats: list[SeatSpec], *, move_seconds: int, rated: bool,
                     rated_bots: Collection[str] | None = None) -> Match:
    """A private table whose four seats are taken already, started at once (quick match seats its people here):
    its match is a table's match like any other, so its end offers the rematch, but it has no chat: its people were
    seated by the pairing run, not invited by each other. ``rated_bots``: the house bots a rated one may seat (the
    bot ladder's own; the people's levels by default). Runs inside the caller's transaction."""
    with transaction.atomic():
        table = Table.objects.create(host=host, visibility=Table.Visibility.PRIVATE, move_seconds=move_seconds,
                                     rated=rated, status=Table.Status.STARTED)
        for index, spec in enumerate(seats):
            if spec.user is None:
                check_rated_bot(table, check_bot_level(spec.bot), rated_bots or RATED_BOT_LEVELS)
            TableSeat.objects.create(table=table, index=index, user=spec.user, bot="" if spec.user else spec.bot or "")
        match = create_match(seats=seats, created_by=host, move_seconds=move_seconds, rated=rated)
        table.match = match
        table.save(update_fields=["match"])
    return match
