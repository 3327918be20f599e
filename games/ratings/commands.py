"""The OpenSkill update of a finished rated match.

Seats are ranked by final total (ties share a rank). A person is rated as themselves even if a bot
finished their seat; each bot level is its own identity, and so is each of the bot ladder's house bots
(``reads.YARDSTICKS``), whose rating is frozen: it counts the match but keeps its mu and sigma.
``Match.rated_at`` is set by the same match write as the updates (``match_write``, under the match row lock), so
a task run twice rates once.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import cast

from django.utils import timezone

from engine.bots import AUTOPILOT_LEVEL, LEVELS
from games.matches.models import Seat
from games.matches.write import FINISHED, match_write
from games.platform.errors import GameError

from . import reads
from .models import Rating, RatingChange

log = logging.getLogger(__name__)


#: The house bots a rated match may seat: the people's levels and the bot ladder's yardsticks.
RATED_HOUSE_BOTS = frozenset(LEVELS) | frozenset(reads.YARDSTICKS)


def _identity(seat: Seat) -> Rating:
    defaults = {"mu": reads.MODEL.mu, "sigma": reads.MODEL.sigma}
    if seat.kind == Seat.Kind.HUMAN:
        rating, _ = Rating.objects.get_or_create(user_id=seat.user_id, defaults=defaults)
    else:
        bot = seat.bot or AUTOPILOT_LEVEL
        if bot in reads.YARDSTICKS:
            mu, sigma = reads.YARDSTICKS[bot]
            defaults = {"mu": mu, "sigma": sigma}
        rating, _ = Rating.objects.get_or_create(bot=bot, user=None, defaults=defaults)
    return rating


def rate_match(match_id: int) -> bool:
    """Update every identity at a finished rated match once; False if there is nothing to do."""
    try:
        with match_write(match_id, require=FINISHED) as write:
            match = write.match
            if not match.rated or match.rated_at is not None:
                return False
            unrated = sorted({s.bot for s in write.seats
                              if s.kind == Seat.Kind.BOT and s.bot not in RATED_HOUSE_BOTS})
            if unrated:  # tables refuse these at rated matches; one made otherwise is not rated at all
                log.warning("match %s is not rated: bot levels %s have no ratings", match.pk, unrated)
                write.set(rated=False)
                return False
            ranks = reads.ranks_by_totals(write.state.totals)
            ids = [_identity(seat).pk for seat in write.seats]
            # lock in one order (pk) so two matches sharing a bot identity cannot deadlock
            locked = {r.pk: r for r in Rating.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
            teams = [[reads.MODEL.rating(mu=locked[i].mu, sigma=locked[i].sigma)] for i in ids]
            rated = reads.MODEL.rate(teams, ranks=cast(list[float], ranks))  # ints are ranks too
            # A bot level may sit twice at one table: it gets the mean of its seats' results.
            results: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
            for rid, team, rank in zip(ids, rated, ranks, strict=True):
                results[rid].append((team[0].mu, team[0].sigma, rank))
            for rid, outs in results.items():
                rating = locked[rid]
                mu = sum(o[0] for o in outs) / len(outs)
                sigma = sum(o[1] for o in outs) / len(outs)
                if rating.user_id is None and rating.bot in reads.YARDSTICKS:  # the ladder's fixed yardstick
                    mu, sigma = rating.mu, rating.sigma
                RatingChange.objects.create(
                    rating=rating, match=match, rank=min(o[2] for o in outs),
                    mu_before=rating.mu, sigma_before=rating.sigma, mu_after=mu, sigma_after=sigma,
                )
                rating.mu, rating.sigma, rating.games = mu, sigma, rating.games + 1
                rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
            write.set(rated_at=timezone.now())
            write.seats_changed()  # the end screens show the rating change
    except GameError:  # no such match, or not finished
        return False
    return True
