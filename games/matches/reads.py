"""Reads of matches: which a person may see, whose turn is due where (beat's sweeps), the bot levels a
person picks from, and how many matches a person plays at once. Loading a match and its state is ``store``'s
job; what a client is shown of one, ``presenters``'.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import BooleanField, Case, Count, F, OuterRef, Q, QuerySet, Subquery, Value, When

from engine.bots import BOT_NAMES, DEFAULT_BOT, PLAYER_FACING_LEVELS
from games.platform.errors import MatchNotFound
from games.web.bounds import ascii_int

from . import store
from .models import Match, Seat


def offered_bot_levels() -> list[str]:
    """The player-facing levels besides the default one, for the new-match picker (labels in the template)."""
    names = [n for n in PLAYER_FACING_LEVELS if n in BOT_NAMES] or list(BOT_NAMES)
    return [n for n in names if n != DEFAULT_BOT]


def table_bot_levels() -> list[str]:
    """The levels a host may seat at a table, the default first."""
    return [DEFAULT_BOT, *offered_bot_levels()]


def match_with_seats(match_id: int) -> Match | None:
    """The match and its seats, unlocked (a read; writes go through ``games.matches.write``)."""
    return store.load(match_id)


def bot_plays(prefix: str = "") -> Q:
    """The seats a bot plays: bot seats and people's seats on autopilot (``prefix``: e.g. ``"seats__"``)."""
    return Q(**{f"{prefix}kind": Seat.Kind.BOT}) | Q(**{f"{prefix}autopilot": True})


def current_seq(match_id: int, *, default: int) -> int:
    """The match's ``seq`` now (``default`` when there is no such match)."""
    seq = Match.objects.filter(pk=match_id).values_list("seq", flat=True).first()
    return default if seq is None else seq


def waiting_on_a_bot(settled_before: datetime | None = None, since: datetime | None = None) -> list[tuple[int, int]]:
    """``(match_id, seq)`` of every running match whose turn is a bot's (beat's recovery sweeps), last written
    before ``settled_before`` and from ``since`` on, if given. A match whose row is locked is left out: a write is
    under way there (a bot deciding), and whatever it leaves due is found by a later sweep.

    One query, locking only the rows it returns for its moment. With ``since`` a few minutes back it costs about
    2 ms among 20,000 running matches of 120,000 (the running ones by the ``status`` index, the few written lately
    joined to their turn's seat by ``(match, index)``); without, a scan of the seats (about 50 ms there)."""
    due = Match.objects.filter(bot_plays("seats__"), seats__index=F("turn"), status=Match.Status.ACTIVE,
                               turn__isnull=False)
    if settled_before is not None:
        due = due.filter(updated_at__lt=settled_before)
    if since is not None:
        due = due.filter(updated_at__gte=since)
    with transaction.atomic():  # one seat per match joins (the turn's): no duplicates to remove
        return list(due.order_by().select_for_update(skip_locked=True, of=("self",)).values_list("pk", "seq"))


def expired_turns(now: datetime) -> list[tuple[int, int]]:
    return list(Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now).values_list("pk", "seq"))


def due_reminders(now: datetime) -> list[tuple[int, int]]:
    return list(Match.objects.filter(status=Match.Status.ACTIVE, remind_at__lte=now, deadline__gt=now)
                .values_list("pk", "seq"))


def deactivated_people_seated(limit: int = 100) -> list[int]:
    """Deactivated accounts that still hold a seat of their own in a running match (deactivated outside
    ``deactivate_user``, say in a shell, or its hand-over lost): beat's sweep hands those seats to bots."""
    return list(Seat.objects.filter(match__status=Match.Status.ACTIVE, kind=Seat.Kind.HUMAN, autopilot=False,
                                    user__is_active=False)
                .order_by("user_id").values_list("user_id", flat=True).distinct()[:limit])


def seat_for_user(match: Match, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in store.seats_of(match) if s.kind == Seat.Kind.HUMAN and s.user_id == user.pk), None)


def get_match_for_user(user: User, match_id: object) -> tuple[Match, Seat]:
    """The match and the user's seat, or MatchNotFound (also for a match the user is not in)."""
    pk = ascii_int(str(match_id))
    if pk is None:
        raise MatchNotFound()
    match = store.load(pk)
    if match is None:
        raise MatchNotFound()
    seat = seat_for_user(match, user)
    if seat is None:
        raise MatchNotFound()
    return match, seat


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


def matches_playing(user_ids: list[int]) -> dict[int, int]:
    """Active matches each user plays in now (seats not handed to the autopilot), in one query: a bot account's
    cap counts them."""
    counts = dict(Seat.objects.filter(user_id__in=user_ids, match__status=Match.Status.ACTIVE, autopilot=False)
                  .order_by().values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    return {uid: counts.get(uid, 0) for uid in user_ids}
