"""Reads of matches: which a person may see, whose turn is due where (beat's sweeps), the bot levels a
person picks from, and who has a match page open. Loading a match and its state is ``store``'s job; what a
client is shown of one, ``presenters``'.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import BooleanField, Case, Count, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.utils import timezone

from engine.bots import BOT_NAMES, DEFAULT_BOT, PLAYER_FACING_LEVELS
from games.errors import MatchNotFound
from games.limits import ascii_int

from . import store
from .models import ChatMessage, Match, Mute, Presence, Seat


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


# A socket renews its presence every couple of minutes (``consumers.PRESENCE_RENEW_SECONDS``); one not renewed
# for this long no longer counts as "on the page": a web process that died without closing its sockets must
# not silence someone's email (beat's sweep deletes such rows).
PRESENCE_MAX_AGE = timedelta(minutes=10)


def on_match_page(user_id: int, match_id: int) -> bool:
    """Whether the person has the match's page open (then no email or push is sent about it)."""
    since = timezone.now() - PRESENCE_MAX_AGE
    return Presence.objects.filter(user_id=user_id, match_id=match_id, seen_at__gte=since).exists()


def matches_playing(user_ids: list[int]) -> dict[int, int]:
    """Active matches each user plays in now (seats not handed to the autopilot), in one query: a bot account's
    cap counts them."""
    counts = dict(Seat.objects.filter(user_id__in=user_ids, match__status=Match.Status.ACTIVE, autopilot=False)
                  .order_by().values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    return {uid: counts.get(uid, 0) for uid in user_ids}


def muted_by(user_id: int) -> set[int]:
    """The people whose emotes and chat messages ``user_id`` does not see."""
    return set(Mute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))


def people_playing_now() -> int:
    """People with a match page open now (for "who is here")."""
    since = timezone.now() - PRESENCE_MAX_AGE
    return Presence.objects.filter(seen_at__gte=since).values("user_id").distinct().count()


# --- chat: free text among the people of a private table's match ----------------------------------------

#: The messages a page is sent when it (re)connects or resyncs: the newest ones, oldest first.
CHAT_HISTORY = 50


def chat_people(match: Match) -> dict[int, int]:
    """Seat -> user id of the people who may read the match's chat: people's seats, not bot accounts' (a
    program has nothing to read; a house bot's seat has no user). Empty when the match has no chat."""
    if not match.chat or match.status == Match.Status.ABORTED:
        return {}
    people = {s.index: s.user_id for s in store.seats_of(match)
              if s.kind == Seat.Kind.HUMAN and s.user_id is not None and not s.bot_account}
    return people if len(people) >= 2 else {}  # alone with bots: nobody to talk to


def chat_open_to(match: Match, seat: Seat) -> bool:
    """Whether the person at ``seat`` reads this match's chat (and may write, unless they resigned)."""
    return chat_people(match).get(seat.index) == seat.user_id


def chat_json(message: ChatMessage, name: str) -> dict[str, object]:
    """A message as every page of its match is sent it (``name``: its author's seat name)."""
    return {"id": message.pk, "seat": message.seat, "name": name, "text": message.text,
            "at": message.created_at.isoformat()}


def recent_chat(match: Match, user_id: int, limit: int = CHAT_HISTORY) -> list[dict[str, object]]:
    """The newest ``limit`` messages of the match, oldest first, without those of people ``user_id`` muted."""
    names = {s.index: s.name for s in store.seats_of(match)}
    rows = list(ChatMessage.objects.filter(match_id=match.pk)
                .exclude(author_id__in=Mute.objects.filter(user_id=user_id).values("muted_id"))
                .order_by("-id")[:limit])
    return [chat_json(row, names.get(row.seat, "")) for row in reversed(rows)]
