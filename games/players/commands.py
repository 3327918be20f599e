"""Writes about people: accounts and API tokens, settings, deactivation, presence on match pages, and
the OpenSkill update of a finished rated match.

Seats are ranked by final total (ties share a rank). A person is rated as themselves even if a bot
finished their seat; each bot level is its own identity. ``Match.rated_at`` is set in the same
transaction as the updates, under the match row lock, so a task run twice rates once.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections import defaultdict
from datetime import timedelta
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.bots import LEVELS
from games import effects, passwords
from games.errors import GameError, MatchNotFound
from games.groups import account_group
from games.matches import commands as match_commands
from games.matches import reads as match_reads
from games.matches.models import Match, Seat

from . import reads, usernames
from .models import ApiToken, Presence, Profile, Rating, RatingChange, UsernameKey

log = logging.getLogger(__name__)

USERNAME_TAKEN = "That username is taken, or looks too much like one that is."


def sign_up(*, username: str, password: str, email: str = "") -> Any:
    """A new account (the caller has validated the password). Its name must follow the rules of
    ``games.players.usernames`` and must not look like another account's (``username_taken``, also when two
    people ask for look-alike names at once: the unique key decides)."""
    try:
        name = usernames.validate(username)
    except ValidationError as err:
        raise GameError("bad_username", " ".join(err.messages)) from None
    key = usernames.key(name)
    encoded = passwords.hash_password(password)  # before the transaction: no connection held while it hashes
    with transaction.atomic():
        if reads.username_taken(name):
            raise GameError("username_taken", USERNAME_TAKEN)
        user = get_user_model()(username=name, email=get_user_model().objects.normalize_email(email))
        user.password = encoded
        user._username_key_by_sign_up = True  # type: ignore[attr-defined]  # the receiver leaves the key to us
        user.save()
        try:
            with transaction.atomic():
                UsernameKey.objects.create(user=user, key=key)
        except IntegrityError:
            raise GameError("username_taken", USERNAME_TAKEN) from None
    return user


def remember_username_key(user: User) -> None:
    """Keep a user's username key up to date (a user made or renamed outside sign-up: admin, shell). A name
    that looks like another account's gets no key, and a warning in the log."""
    key = usernames.key(user.get_username())
    try:
        with transaction.atomic():
            UsernameKey.objects.update_or_create(user=user, defaults={"key": key})
    except IntegrityError:
        UsernameKey.objects.filter(user=user).delete()
        log.warning("username %r of user %s looks like another account's (key %r)", user.get_username(), user.pk, key)


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def issue_token(user: User, client: str = "") -> tuple[ApiToken, str]:
    """A new API token for one client of ``user`` and its key (shown once: only its digest is stored). A user
    keeps at most ``API_TOKENS_PER_USER``: the oldest beyond that are revoked, and expired ones go now."""
    key = secrets.token_hex(20)
    with transaction.atomic():
        for expired in ApiToken.objects.filter(user=user, expires_at__lte=timezone.now()):
            expired.delete()
        token = ApiToken.objects.create(
            digest=token_digest(key), user=user, client=client[:120],
            expires_at=timezone.now() + timedelta(days=settings.API_TOKEN_TTL_DAYS))
        keep = list(ApiToken.objects.filter(user=user).order_by("-created_at", "-digest")
                    .values_list("digest", flat=True)[:settings.API_TOKENS_PER_USER])
        for old in ApiToken.objects.filter(user=user).exclude(digest__in=keep):
            old.delete()  # one by one: each closes its sockets
    return token, key


def revoke_token(token: ApiToken) -> None:
    """Revoke one client's token; its open sockets close once this commits (the ``post_delete`` receiver)."""
    with transaction.atomic():
        ApiToken.objects.filter(digest=token.digest).delete()


def touch_token(token: ApiToken) -> None:
    """A token in use: move its expiry on (at most once per ``API_TOKEN_REFRESH_SECONDS``)."""
    now = timezone.now()
    ttl = timedelta(days=settings.API_TOKEN_TTL_DAYS)
    if token.expires_at - now < ttl - timedelta(seconds=settings.API_TOKEN_REFRESH_SECONDS):
        token.expires_at = now + ttl
        ApiToken.objects.filter(digest=token.digest).update(expires_at=token.expires_at)


def update_settings(user: User, *, email_notifications: bool | None = None) -> dict[str, Any]:
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        if email_notifications is not None:
            profile.email_notifications = email_notifications
            profile.save(update_fields=["email_notifications"])
    return reads.settings_json(user)


def deactivate_user(user: User) -> None:
    """Deactivate an account: no log-in, no API token, and bots take over its running matches."""
    with transaction.atomic():
        if user.is_active:
            user.is_active = False
            user.save(update_fields=["is_active"])  # the post_save receiver calls user_deactivated
        else:
            user_deactivated(user)


def user_deactivated(user: User) -> None:
    """An account was deactivated (anywhere: admin form, admin action, shell): bots take its seats in
    running matches, its API tokens are revoked and every socket of it closes."""
    with transaction.atomic():
        effects.close_sockets(account_group(user.pk), "deactivated")  # first: nothing more reaches them
        match_commands.hand_seats_to_bots(user)
        for token in ApiToken.objects.filter(user=user):
            token.delete()


def presence_join(user_id: int, match_id: int, channel_name: str) -> None:
    """A match socket opened: while it is open the user gets no email about that match."""
    Presence.objects.update_or_create(channel_name=channel_name, defaults={"user_id": user_id, "match_id": match_id})


def presence_leave(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def forget_stale_presence() -> int:
    return Presence.objects.filter(connected_at__lt=timezone.now() - reads.PRESENCE_MAX_AGE).delete()[0]


def drop_expired_tokens(limit: int = 1000) -> int:
    """Expired API tokens of people who do not log in again (a log-in drops its user's own): beat's sweep
    deletes them, at most ``limit`` a run, each closing whatever socket still holds it."""
    digests = list(ApiToken.objects.filter(expires_at__lte=timezone.now()).values_list("digest", flat=True)[:limit])
    with transaction.atomic():
        for token in ApiToken.objects.filter(digest__in=digests):
            token.delete()  # one by one, as at a log-in: each closes its sockets
    return len(digests)


def _identity(seat: Seat) -> Rating:
    defaults = {"mu": reads.MODEL.mu, "sigma": reads.MODEL.sigma}
    if seat.kind == Seat.Kind.HUMAN:
        rating, _ = Rating.objects.get_or_create(user_id=seat.user_id, defaults=defaults)
    else:
        rating, _ = Rating.objects.get_or_create(bot=seat.bot or "normal", user=None, defaults=defaults)
    return rating


def rate_match(match_id: int) -> bool:
    """Update every identity at a finished rated match once; False if there is nothing to do."""
    with transaction.atomic():
        try:
            match = match_commands.lock_match(match_id)
        except MatchNotFound:
            return False
        if not match.rated or match.status != Match.Status.FINISHED or match.rated_at is not None:
            return False
        seats = match_reads.seats_of(match)
        unrated = sorted({s.bot for s in seats if s.kind == Seat.Kind.BOT and s.bot not in LEVELS})
        if unrated:  # tables refuse these at rated matches; one made otherwise is not rated at all
            log.warning("match %s is not rated: bot levels %s have no ratings", match.pk, unrated)
            match.rated = False
            match.save(update_fields=["rated"])
            return False
        state = match_reads.match_state(match)
        ranks = reads.ranks_by_totals(state.totals)
        ids = [_identity(seat).pk for seat in seats]
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
            RatingChange.objects.create(
                rating=rating, match=match, rank=min(o[2] for o in outs),
                mu_before=rating.mu, sigma_before=rating.sigma, mu_after=mu, sigma_after=sigma,
            )
            rating.mu, rating.sigma, rating.games = mu, sigma, rating.games + 1
            rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        match.rated_at = timezone.now()
        match.save(update_fields=["rated_at"])
        effects.seats_changed(match, bot_to_act=False)  # the end screens show the rating change
    return True
