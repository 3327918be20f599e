"""Quick match: open a seek, cancel it, and the pairing run that seats the waiting people (and, in the bots'
pool, the bot accounts of the bot ladder).

The pairing run locks the waiting seeks it takes (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL), so two
runs at once share them out and never seat a person twice; a cancel locks its seek too (waiting for a run that
holds it), so a cancelled seek is never seated and a seated one is never cancelled. One waiting seek per person
is a constraint of the database.

The two pools never meet: people seek in ``people``, bot accounts only in ``bots`` (the bot ladder: always
rated, any bots paired regardless of rating, the empty seats filled after ``QUICK_MATCH_BOT_POOL_AFTER`` seconds
with the ladder's house bots, whose ratings are the fixed yardstick: ``ratings.reads.YARDSTICKS``). An account
changing kind while it waits is no exception: the upgrade to a bot account cancels its waiting seek (in the
upgrade's transaction, waiting for a pairing run that holds it), and the pairing run drops a seek whose account
is no longer of its pool's kind (a bot account made or removed behind the upgrade's back).

A person plays at most ``QUICK_MATCH_MAX_LIVE_MATCHES`` live quick matches at once, as a bot account plays at
most ``BOT_MAX_ACTIVE_MATCHES`` matches: a seek past it is refused (409 ``too_many_matches``), and a waiting seek
of someone at the cap waits on until one of their matches ends.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.dispatch import receiver
from django.utils import timezone

from games.accounts import reads as account_reads
from games.bots.commands import upgrading
from games.matches.commands import SeatSpec, bots_at_cap, check_bot_match_cap
from games.platform import outbox
from games.platform.errors import Forbidden, GameError, TableConflict
from games.presence import reads as presence_reads
from games.ratings.reads import YARDSTICKS
from games.tables import reads as table_reads
from games.tables.commands import start_full_table
from games.tables.reads import DAY

from . import reads
from .events import HereCounted, SeekOpened, SeeksMatched
from .models import Seek

#: Seeks one pairing run takes (the oldest first, locked until it commits): a crowd's seeks are shared out
#: among the runs going at once (each skips the others' rows), and no one waits for a long transaction that
#: starts dozens of matches (``bench/load.py --quick``).
PAIRING_BATCH = 48


def bots_after(pool: str = Seek.Pool.PEOPLE) -> float:
    """Seconds a seek of ``pool`` waits before house bots fill the seats nobody came for."""
    if pool == Seek.Pool.BOTS:
        return float(settings.QUICK_MATCH_BOT_POOL_AFTER)
    return float(settings.QUICK_MATCH_BOTS_AFTER)


def ladder_house_bots() -> tuple[str, ...]:
    """The house bots the bots' pool draws its empty seats from (``BOT_LADDER_HOUSE_BOTS``, the yardsticks)."""
    names = tuple(name for name in settings.BOT_LADDER_HOUSE_BOTS if name in YARDSTICKS)
    return names or tuple(YARDSTICKS)


def window(waited: float) -> float:
    """How far apart (in rating) rated people may be to share a table, after the oldest waited ``waited`` s."""
    return float(settings.QUICK_MATCH_WINDOW) + float(settings.QUICK_MATCH_WINDOW_GROWTH) * max(waited, 0.0)


def move_seconds(pace: str) -> int:
    return int(settings.LIVE_MOVE_SECONDS) if pace == Seek.Pace.LIVE else DAY


def live_cap() -> int:
    """Live quick matches a person plays at once, at most (``QUICK_MATCH_MAX_LIVE_MATCHES``): each seats three
    bots or strangers on a short clock, and nobody follows more than a few such tables at once."""
    return int(settings.QUICK_MATCH_MAX_LIVE_MATCHES)


def people_at_live_cap(user_ids: list[int]) -> set[int]:
    """Which of these people play their cap of live quick matches now (``bots_at_cap``'s twin for people, in one
    query: the pairing run asks it of every live seek of the people's pool)."""
    cap, playing = live_cap(), reads.live_matches_playing(user_ids)
    return {uid for uid in user_ids if playing[uid] >= cap}


def check_live_match_cap(user: Any) -> None:
    """409 ``too_many_matches`` (with the ``limit``) when the person plays their cap of live quick matches now: a
    new one would pass it (a bot account's cap answers the same)."""
    if people_at_live_cap([user.pk]):
        cap = live_cap()
        raise TableConflict("too_many_matches", f"You play at most {cap} live quick matches at once; finish one "
                                                "first.", limit=cap)


def _check_may_seek(user: Any, *, pace: str, rated: bool, pool: str) -> None:
    """The account's kind decides its pool, and each pool's cap holds."""
    is_bot = account_reads.is_bot_account(user)
    if pool == Seek.Pool.BOTS:
        if not is_bot:
            raise Forbidden("not_a_bot", "The bots' pool is for bot accounts (POST /api/bot/account/upgrade/).")
        if not rated:
            raise GameError("ladder_is_rated", "The bots' pool is the bot ladder: every match there is rated.")
        check_bot_match_cap(user, waiting=table_reads.open_seats_held(user))
    elif is_bot:
        raise Forbidden("bots_pool_only", 'A bot account seeks in the bots\' pool only: {"pool": "bots"}.')
    else:
        if rated:
            account_reads.check_may_play_rated(user)  # 403 guest_unrated: a guest seeks unrated
        if pace == Seek.Pace.LIVE:
            check_live_match_cap(user)


def open_seek(user: Any, *, pace: str = Seek.Pace.LIVE, rated: bool = True, pool: str = Seek.Pool.PEOPLE) -> Seek:
    """A new waiting seek; 409 ``already_seeking`` (with its ``id``) while the person has one waiting. People seek
    in ``people``, bot accounts in ``bots`` only (403 ``not_a_bot`` / ``bots_pool_only``), always rated there
    (400 ``ladder_is_rated``), a guest unrated only (403 ``guest_unrated``), within their cap of matches at once
    (409 ``too_many_matches``; for people, live quick matches). The account's row is locked first (``FOR NO KEY
    UPDATE``, as the upgrade locks it), so an upgrade to a bot account at the same moment comes either before (this
    seek is refused) or after (it cancels this seek)."""
    if pace not in Seek.Pace.values:
        raise GameError("bad_pace", "The pace is `live` or `correspondence`.")
    if pool not in Seek.Pool.values:
        raise GameError("bad_pool", "The pool is `people` or `bots`.")
    if not user.is_active:
        raise GameError("inactive", "This account is deactivated.")
    try:
        with transaction.atomic():
            get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
            _check_may_seek(user, pace=pace, rated=rated, pool=pool)
            seek = Seek.objects.create(user=user, pool=pool, pace=pace, rated=bool(rated),
                                       skill=reads.skill_of(user.pk), waiting_since=timezone.now())
            outbox.emit(SeekOpened(seek.pk, bots_after(pool)))
    except IntegrityError:
        waiting = Seek.objects.filter(user_id=user.pk, status=Seek.Status.WAITING).values_list("pk", flat=True).first()
        raise TableConflict("already_seeking", "You are waiting for a table already: cancel that first.",
                            id=waiting) from None
    return seek


def cancel_seek(user: Any, seek_id: int) -> Seek:
    """Stop waiting. A seek already seated stays ``matched`` (its match is under way); cancelling twice is fine."""
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id, user_id=user.pk).first()
        if seek is None:
            raise reads.SeekNotFound()
        if seek.status == Seek.Status.WAITING:
            seek.status, seek.ended_at = Seek.Status.CANCELLED, timezone.now()
            seek.save(update_fields=["status", "ended_at"])
    tell_who_is_here()
    return seek


@receiver(upgrading, dispatch_uid="quickmatch.cancel_seeks_of_a_new_bot")
def cancel_seeks_of_a_new_bot(sender: Any, user: Any, **kwargs: Any) -> None:
    """An account becoming a bot account stops waiting (``bots.commands.upgrading``, inside the upgrade's
    transaction: a refused upgrade keeps the seek). Its seek is locked first, so a pairing run holding it is
    waited for: the seek is then seated (the upgrade marks that seat a bot account's) or still waiting, and
    cancelled. Connected when this module is imported (``GamesConfig.ready`` imports the tasks, which import it)."""
    waiting = list(Seek.objects.select_for_update().filter(user_id=user.pk, status=Seek.Status.WAITING)
                   .values_list("pk", flat=True))
    if waiting:
        Seek.objects.filter(pk__in=waiting).update(status=Seek.Status.CANCELLED, ended_at=timezone.now())


def _seat(group: list[Seek], users: dict[int, Any], now: datetime) -> int:
    """Start a match for the people of ``group`` (bots in the other seats, at the level nearest their skill; in
    the bots' pool, the ladder's house bots drawn at random), seated in a random order; their seeks are
    ``matched``."""
    chance = random.SystemRandom()
    people = [SeatSpec(user=users[s.user_id]) for s in group]
    first = group[0]
    if first.pool == Seek.Pool.BOTS:
        house = ladder_house_bots()
        seats = people + [SeatSpec(bot=chance.choice(house)) for _ in range(4 - len(people))]
        rated_bots: tuple[str, ...] | None = tuple(YARDSTICKS)
    else:
        level = reads.nearest_bot_level(sum(s.skill for s in group) / len(group))
        seats = people + [SeatSpec(bot=level) for _ in range(4 - len(people))]
        rated_bots = None
    chance.shuffle(seats)
    match = start_full_table(users[first.user_id], seats, move_seconds=move_seconds(first.pace), rated=first.rated,
                             rated_bots=rated_bots)
    Seek.objects.filter(pk__in=[s.pk for s in group]).update(status=Seek.Status.MATCHED, match=match, ended_at=now)
    outbox.emit(SeeksMatched(match.pk, tuple(s.user_id for s in group)))
    return match.pk


def pair(now: datetime | None = None) -> list[int]:
    """Seat the waiting people: four of one pool and pace (and, when rated, within the oldest one's window)
    share a match; once the oldest has waited ``bots_after(pool)`` seconds bots take the seats nobody came for.
    In the bots' pool any four bot accounts share a match (the ladder is small: everyone meets everyone). Someone
    at their cap (a bot account's matches at once, a person's live quick matches) waits on: seated once one of
    their matches ends. Dropped (``cancelled``): seeks of deactivated accounts, and a seek whose account is no
    longer of its pool's kind (the pools never share a table). Returns the new matches' ids."""
    now = now or timezone.now()
    made: list[int] = []
    with transaction.atomic():
        seeks = list(Seek.objects.select_for_update(skip_locked=True, of=("self",))
                     .filter(status=Seek.Status.WAITING).order_by("waiting_since", "id")[:PAIRING_BATCH])
        if not seeks:
            return made
        users = {u.pk: u for u in get_user_model().objects.filter(pk__in={s.user_id for s in seeks})}
        programs = account_reads.bot_account_ids(set(users))
        bots = [s.user_id for s in seeks if s.pool == Seek.Pool.BOTS]
        live = [s.user_id for s in seeks if s.pool == Seek.Pool.PEOPLE and s.pace == Seek.Pace.LIVE]
        full = bots_at_cap(bots, table_reads.open_seats_held_by(bots)) if bots else set()
        full |= people_at_live_cap(live) if live else set()
        pools: dict[tuple[str, str, bool], list[Seek]] = defaultdict(list)
        for seek in seeks:
            user = users.get(seek.user_id)
            if user is None or not user.is_active or (seek.user_id in programs) != (seek.pool == Seek.Pool.BOTS):
                seek.status, seek.ended_at = Seek.Status.CANCELLED, now
                seek.save(update_fields=["status", "ended_at"])
            elif seek.user_id in full:
                continue  # at its cap (a match accepted meanwhile): seated once one of its matches ends
            else:
                pools[(seek.pool, seek.pace, seek.rated)].append(seek)
        blocked = account_reads.blocked_pairs(set(users))
        for (pool_name, _, rated), pool in pools.items():
            wait = bots_after(pool_name)
            while pool:
                anchor = pool[0]
                waited = (now - anchor.waiting_since).total_seconds()
                others = pool[1:]
                if rated and pool_name == Seek.Pool.PEOPLE:
                    width = window(waited)
                    others = [s for s in others if abs(s.skill - anchor.skill) <= width]
                group = [anchor]
                for seek in others:  # never two who blocked one another at one table
                    if len(group) == 4:
                        break
                    if not any(frozenset((seek.user_id, s.user_id)) in blocked for s in group):
                        group.append(seek)
                if len(group) == 4 or waited >= wait:
                    made.append(_seat(group, users, now))
                    taken = {s.pk for s in group}
                    pool[:] = [s for s in pool if s.pk not in taken]
                else:
                    pool.pop(0)  # waits on; the later ones may still make a table among themselves
    return made


def who_is_here() -> dict[str, int]:
    """How many people are playing now (a match page open) and waiting for a table."""
    return {"playing": presence_reads.people_playing_now(), "waiting": reads.people_waiting()}


HERE_KEY, HERE_TOLD_KEY = "quickmatch:here", "quickmatch:here-told"


def tell_who_is_here() -> dict[str, int] | None:
    """Count who is here; when the counts changed since last told, every home and lobby page hears them
    (``HereCounted``). The pairing run calls this, so the counts follow within a sweep; at most once every
    ``QUICK_MATCH_HERE_SECONDS`` (a crowd pressing *Play online* sets off hundreds of runs a second, and each
    message goes to every open page: the flood made the sockets drop their ``matched`` messages)."""
    every = int(settings.QUICK_MATCH_HERE_SECONDS)
    if every > 0 and not cache.add(HERE_TOLD_KEY, 1, timeout=every):
        return None
    here = who_is_here()
    if cache.get(HERE_KEY) != here:
        cache.set(HERE_KEY, here, timeout=3600)
        outbox.emit(HereCounted(here["playing"], here["waiting"]))
    return here
