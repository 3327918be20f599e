"""Reads of quick match: a seek as the API shows it, a person's skill, the bot levels' skills, the live quick
matches each person plays."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count, F

from engine.bots import LEVELS
from games.matches.models import Match
from games.platform.errors import GameError
from games.ratings.models import Rating

from .models import Seek

RATED_BOT_LEVELS = tuple(sorted(LEVELS))  # the levels a rated match may seat
# OpenSkill's starting mu (games.ratings.reads.MODEL): an unrated person's skill.
START_MU = 25.0
# A bot level nobody has rated yet is placed here (OpenSkill mu; a new person starts at 25): the levels in order.
BOT_LEVEL_PRIOR = {"easy": START_MU - 5, "normal": START_MU, "hard": START_MU + 5}


class SeekNotFound(GameError):
    status = 404

    def __init__(self) -> None:
        super().__init__("not_found", "No such quick-match request.")


def seek_json(seek: Seek) -> dict[str, Any]:
    wait = settings.QUICK_MATCH_BOT_POOL_AFTER if seek.pool == Seek.Pool.BOTS else settings.QUICK_MATCH_BOTS_AFTER
    return {"id": seek.pk, "status": seek.status, "pool": seek.pool, "pace": seek.pace, "rated": seek.rated,
            "match_id": seek.match_id, "waiting_since": seek.waiting_since.isoformat(), "bots_after": wait}


def own_seek(user: Any, seek_id: int) -> Seek:
    """The person's own seek; anyone else's is 404, as if it did not exist."""
    seek = Seek.objects.filter(pk=seek_id, user_id=user.pk).first()
    if seek is None:
        raise SeekNotFound()
    return seek


def skill_of(user_id: int) -> float:
    """The person's rating (mu: the estimate of skill, not the leaderboard's cautious mu - 3 sigma, which a new
    person's uncertainty would put far below where they play)."""
    mu = Rating.objects.filter(user_id=user_id).values_list("mu", flat=True).first()
    return float(mu) if mu is not None else float(START_MU)


def bot_level_skills() -> dict[str, float]:
    """Each rated bot level's skill: its own rating when it has played rated matches, else its prior."""
    skills = {level: float(BOT_LEVEL_PRIOR.get(level, START_MU)) for level in RATED_BOT_LEVELS}
    for level, mu, games in Rating.objects.filter(bot__in=RATED_BOT_LEVELS).values_list("bot", "mu", "games"):
        if games:
            skills[level] = float(mu)
    return skills


def nearest_bot_level(skill: float) -> str:
    """The rated bot level whose skill is nearest ``skill`` (the lower on a tie)."""
    skills = bot_level_skills()
    return min(sorted(skills, key=lambda level: skills[level]), key=lambda level: abs(skills[level] - skill))



def people_waiting() -> int:
    """People waiting for a table (the bots' pool is not counted: its bot accounts are programs)."""
    return Seek.objects.filter(status=Seek.Status.WAITING, pool=Seek.Pool.PEOPLE).count()


def live_matches_playing(user_ids: list[int]) -> dict[int, int]:
    """Live quick matches each person plays now, in one query: running matches their live seeks were seated at,
    their seat there not handed to the autopilot (as a bot account's cap counts ``matches_playing``)."""
    counts = dict(Seek.objects.filter(user_id__in=user_ids, status=Seek.Status.MATCHED, pace=Seek.Pace.LIVE,
                                      match__status=Match.Status.ACTIVE, match__seats__user_id=F("user_id"),
                                      match__seats__autopilot=False)
                  .order_by().values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    return {uid: counts.get(uid, 0) for uid in user_ids}
