"""Reads of accounts: a live API token, whether a username is taken (or looks like a taken one), settings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Max, Q
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from games.platform.errors import Forbidden

from . import usernames
from .models import ApiToken, Block, BotAccount, Guest, Profile, UsernameKey


def live_token(digest: str) -> ApiToken | None:
    """The unexpired token with this digest, of an active user (with the user), or None."""
    token = ApiToken.objects.select_related("user").filter(digest=digest).first()
    if token is None or token.expires_at <= timezone.now() or not token.user.is_active:
        return None
    return token


# A token's public id: the start of its digest (the digest of a random key: it tells nothing about the key).
TOKEN_ID_LENGTH = 16


def token_id(token: ApiToken) -> str:
    return token.digest[:TOKEN_ID_LENGTH]


def tokens_json(user: User, current: ApiToken | None = None) -> list[dict[str, Any]]:
    """The person's live API tokens, newest first: which client asked for each, when, until when unused;
    ``current`` marks the one this request came with."""
    rows = ApiToken.objects.filter(user=user, expires_at__gt=timezone.now()).order_by("-created_at", "-digest")
    return [{"id": token_id(t), "client": t.client, "created_at": t.created_at.isoformat(),
             "expires_at": t.expires_at.isoformat(), "current": current is not None and t.digest == current.digest}
            for t in rows]


def username_taken(name: str, except_user_id: int | None = None) -> bool:
    """Whether an account's name is ``name`` or looks like it (same key, see ``games.accounts.usernames``);
    ``except_user_id``: the account being renamed, whose own name does not count."""
    keys = UsernameKey.objects.filter(key=usernames.key(name))
    names = get_user_model().objects.filter(username__iexact=name)
    if except_user_id is not None:
        keys, names = keys.exclude(user_id=except_user_id), names.exclude(pk=except_user_id)
    return keys.exists() or names.exists()


# The table's options and their defaults: the card speed, a forced card (the only legal one) played for the
# player, short sounds and a vibration on the player's turn (both wait for a first tap: browsers' autoplay rules),
# and "tap twice to play" (a first tap raises a card, a second plays it: against misclicks on phones).
CARD_SPEEDS = ("slow", "normal", "fast", "instant")
TABLE_DEFAULTS: dict[str, Any] = {"card_speed": "normal", "auto_play": True, "sound": True, "vibration": True,
                                  "tap_twice": False}


def table_options(profile: Profile | None) -> dict[str, Any]:
    """The stored options over the defaults (keys no longer known are left out)."""
    stored = profile.table_options if profile is not None and isinstance(profile.table_options, dict) else {}
    return {k: stored.get(k, v) for k, v in TABLE_DEFAULTS.items()}


def settings_json(user: User) -> dict[str, Any]:
    profile = Profile.objects.filter(user=user).first()
    return {"email_notifications": profile is None or profile.email_notifications, **table_options(profile)}


def wants_email(user_id: int) -> bool:
    profile = Profile.objects.filter(user_id=user_id).first()
    return profile is None or profile.email_notifications


def is_bot_account(user: Any) -> bool:
    """Whether ``user`` (a user or its id) is a bot account."""
    user_id = getattr(user, "pk", user)
    return user_id is not None and BotAccount.objects.filter(user_id=user_id).exists()


def bot_account_ids(user_ids: list[int] | tuple[int, ...] | set[int]) -> set[int]:
    """Which of ``user_ids`` are bot accounts (one query)."""
    if not user_ids:
        return set()
    return set(BotAccount.objects.filter(user_id__in=list(user_ids)).values_list("user_id", flat=True))


# --- guests (*Play now, name later*) ---------------------------------------------------------------------

GUEST_UNRATED = "Guests play unrated: keep your games (name and password) to play rated."
GUEST_NO_CHAT = "Guests may react but not chat: keep your games (name and password) to chat."


def is_guest(user: Any) -> bool:
    """Whether ``user`` (a user or its id) is a guest account (not yet kept)."""
    user_id = getattr(user, "pk", user)
    return user_id is not None and Guest.objects.filter(user_id=user_id, removed_at__isnull=True).exists()


def check_may_play_rated(user: Any) -> None:
    """403 ``guest_unrated`` for a guest: a guest has no rating and never appears on a leaderboard."""
    if is_guest(user):
        raise Forbidden("guest_unrated", GUEST_UNRATED)


def idle_guest_ids(before: datetime, limit: int = 200) -> list[int]:
    """Guests (not removed yet) whose last activity is before ``before``: the latest of their joining, their
    last log-in and the last change of any match they sit at (a guest's session stays signed in, so play is
    the activity that counts)."""
    activity = Greatest(
        Coalesce("user__last_login", "user__date_joined"), "user__date_joined",
        Coalesce(Max("user__seats__match__updated_at"), "user__date_joined"))
    return list(Guest.objects.filter(removed_at__isnull=True).annotate(active_at=activity)
                .filter(active_at__lt=before).order_by("active_at").values_list("user_id", flat=True)[:limit])


# --- blocks: the doors below friends (tables, table talk, quick match) ask here ---------------------------

BLOCKED = "You cannot play or talk with this person."


def blocked_pairs(user_ids: set[int] | list[int] | tuple[int, ...]) -> set[frozenset[int]]:
    """Every pair among ``user_ids`` with a block either way (one query): such two never share a table."""
    ids = list({uid for uid in user_ids if uid is not None})
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
    return {frozenset(pair) for pair in rows}


def is_blocked_between(a: Any, b: Any) -> bool:
    """Whether either of two users (or ids) blocked the other."""
    a_id, b_id = getattr(a, "pk", a), getattr(b, "pk", b)
    if a_id is None or b_id is None or a_id == b_id:
        return False
    return Block.objects.filter(Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)).exists()


def check_not_blocked(user: Any, others: list[Any] | set[Any] | tuple[Any, ...]) -> None:
    """403 ``blocked`` when ``user`` and any of ``others`` (users or ids) blocked one another. The answer does not
    say who blocked whom: the blocker is not pointed out to the one blocked."""
    user_id = getattr(user, "pk", user)
    ids = {getattr(o, "pk", o) for o in others} - {None, user_id}
    if user_id is None or not ids:
        return
    if Block.objects.filter(Q(blocker_id=user_id, blocked_id__in=ids) | Q(blocked_id=user_id, blocker_id__in=ids)
                            ).exists():
        raise Forbidden("blocked", BLOCKED)
