"""Reads of friends: the friends list (who is online now and what they play), who I block, and a person's
standing with me (for a profile's buttons)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.accounts.models import Block
from games.matches.models import Match, Seat
from games.platform import rating_scale
from games.presence import reads as presence_reads
from games.ratings.models import Rating
from games.watching import reads as watching_reads

from .models import Follow


def friends_json(user: User) -> dict[str, Any]:
    """Everyone I follow, online ones first (then by name): whether they follow me back, are online now, their
    shown rating, and the running matches they play (each with a watch link when it may be watched). A handful
    of queries however long the list."""
    follows = list(Follow.objects.filter(follower=user).select_related("followed"))
    ids = [f.followed_id for f in follows]
    online = presence_reads.online_ids(ids)
    back = set(Follow.objects.filter(follower_id__in=ids, followed=user).values_list("follower_id", flat=True))
    ratings = {r.user_id: r for r in Rating.objects.filter(user_id__in=ids)}
    playing: dict[int, list[dict[str, Any]]] = {uid: [] for uid in ids}
    seats = (Seat.objects.filter(user_id__in=ids, kind=Seat.Kind.HUMAN, autopilot=False,
                                 match__status=Match.Status.ACTIVE, match__offline=False)
             .select_related("match").order_by("-match__updated_at"))
    for seat in seats:
        if seat.user_id is None:
            continue
        private = watching_reads.is_private(seat.match)
        playing[seat.user_id].append({"match_id": seat.match_id, "live": seat.match.move_seconds is not None
                                      and seat.match.move_seconds <= 60,
                                      "watch_url": None if private else f"/watch/{seat.match_id}/"})
    rows = []
    for f in follows:
        rating = ratings.get(f.followed_id)
        rows.append({
            "username": f.followed.get_username(),
            "online": f.followed_id in online,
            "follows_you": f.followed_id in back,
            "rating": rating_scale.shown_text(rating.mu, rating.sigma) if rating is not None else None,
            "playing": playing[f.followed_id][:3],
            "since": f.created_at.isoformat(),
        })
    rows.sort(key=lambda r: (not r["online"], not r["playing"], str(r["username"]).lower()))
    blocked = list(Block.objects.filter(blocker=user).select_related("blocked").order_by("blocked__username"))
    return {"friends": rows, "blocked": [b.blocked.get_username() for b in blocked]}


def standing(user: User, other: User) -> dict[str, bool]:
    """Whether I follow ``other``, they follow me, I block them (a profile's Follow / Block buttons)."""
    if not user.is_authenticated or user.pk == other.pk:
        return {"following": False, "follows_you": False, "blocking": False}
    return {
        "following": Follow.objects.filter(follower=user, followed=other).exists(),
        "follows_you": Follow.objects.filter(follower=other, followed=user).exists(),
        "blocking": Block.objects.filter(blocker=user, blocked=other).exists(),
    }
