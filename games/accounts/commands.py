"""Commands on accounts: sign-up, API tokens, settings, deactivation.

Revoking credentials emits ``CredentialsRevoked`` (their sockets close once the revocation commits);
deactivating an account also emits ``AccountDeactivated`` (bots take its seats). Explicit commands, called
by the API, the pages and the admin alike: no chain of signals.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.platform import outbox, passwords
from games.platform.errors import GameError, TableConflict
from games.platform.groups import account_group, token_group

from . import reads, usernames
from .events import AccountDeactivated, CredentialsRevoked
from .models import ApiToken, Guest, Profile, UsernameKey

log = logging.getLogger(__name__)

# Marked for translation here; the sign-up and keep forms translate it where they show it.
USERNAME_TAKEN = gettext_noop("That username is taken, or looks too much like one that is.")


def sign_up(*, username: str, password: str, email: str = "") -> Any:
    """A new account (the caller has validated the password). Its name must follow the rules of
    ``games.accounts.usernames`` and must not look like another account's (``username_taken``, also when two
    people ask for look-alike names at once: the unique key decides)."""
    try:
        name = usernames.validate(username)
    except ValidationError as err:
        raise GameError("bad_username", " ".join(err.messages)) from None
    encoded = passwords.hash_password(password)  # before the transaction: no connection held while it hashes
    with transaction.atomic():
        if reads.username_taken(name):
            raise GameError("username_taken", USERNAME_TAKEN)
        user = get_user_model()(username=name, email=get_user_model().objects.normalize_email(email))
        user.password = encoded
        user.save()  # its username key is made on save (``hooks``); a look-alike taken meanwhile gets none
        if not UsernameKey.objects.filter(user=user).exists():
            raise GameError("username_taken", USERNAME_TAKEN)
    return user


def remember_username_key(user: User) -> bool:
    """Keep a user's username key up to date (every save of a user that may have renamed it). A name that
    looks like another account's gets no key (False), and a warning in the log."""
    key = usernames.key(user.get_username())
    try:
        with transaction.atomic():
            UsernameKey.objects.update_or_create(user=user, defaults={"key": key})
    except IntegrityError:
        UsernameKey.objects.filter(user=user).delete()
        log.warning("username %r of user %s looks like another account's (key %r)", user.get_username(), user.pk, key)
        return False
    return True


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def issue_token(user: User, client: str = "") -> tuple[ApiToken, str]:
    """A new API token for one client of ``user`` and its key (shown once: only its digest is stored). A user
    keeps at most ``API_TOKENS_PER_USER``: the oldest beyond that are revoked, and expired ones go now."""
    key = secrets.token_hex(20)
    with transaction.atomic():
        token = ApiToken.objects.create(
            digest=token_digest(key), user=user, client=client[:120],
            expires_at=timezone.now() + timedelta(days=settings.API_TOKEN_TTL_DAYS))
        keep = list(ApiToken.objects.filter(user=user, expires_at__gt=timezone.now())
                    .order_by("-created_at", "-digest").values_list("digest", flat=True)[:settings.API_TOKENS_PER_USER])
        _revoke(ApiToken.objects.filter(user=user).exclude(digest__in=keep), "token revoked")
    return token, key


def _revoke(tokens: Any, reason: str) -> int:
    """Delete ``tokens`` (a queryset) in one statement; their sockets close once this commits."""
    digests = list(tokens.values_list("digest", flat=True))
    if not digests:
        return 0
    ApiToken.objects.filter(digest__in=digests).delete()
    outbox.emit(CredentialsRevoked(tuple(token_group(d) for d in digests), reason))
    return len(digests)


def revoke_token(token: ApiToken) -> None:
    """Revoke one client's token; its open sockets close once this commits."""
    with transaction.atomic():
        _revoke(ApiToken.objects.filter(digest=token.digest), "token revoked")


def revoke_token_of(user: User, token_id: str) -> bool:
    """A person revokes one of their own tokens by its public id (``reads.token_id``); False if none is theirs."""
    if not token_id or len(token_id) != reads.TOKEN_ID_LENGTH or not all(c in "0123456789abcdef" for c in token_id):
        return False
    with transaction.atomic():
        return _revoke(ApiToken.objects.filter(user=user, digest__startswith=token_id), "token revoked") > 0


def password_changed(user: User) -> None:
    """A new password: every API token of the account is revoked and every socket of it closes (its other
    browser sessions end by Django's session hash; a socket's re-check sees that too)."""
    with transaction.atomic():
        _revoke(ApiToken.objects.filter(user=user), "password changed")
        outbox.emit(CredentialsRevoked((account_group(user.pk),), "password changed"))


def touch_token(token: ApiToken) -> None:
    """A token in use: move its expiry on (at most once per ``API_TOKEN_REFRESH_SECONDS``)."""
    now = timezone.now()
    ttl = timedelta(days=settings.API_TOKEN_TTL_DAYS)
    if token.expires_at - now < ttl - timedelta(seconds=settings.API_TOKEN_REFRESH_SECONDS):
        token.expires_at = now + ttl
        ApiToken.objects.filter(digest=token.digest).update(expires_at=token.expires_at)


def drop_expired_tokens(limit: int = 1000) -> int:
    """Expired API tokens of people who do not log in again (a log-in drops its user's own): beat's sweep
    deletes them, at most ``limit`` a run, closing whatever socket still holds one."""
    digests = list(ApiToken.objects.filter(expires_at__lte=timezone.now()).values_list("digest", flat=True)[:limit])
    with transaction.atomic():
        return _revoke(ApiToken.objects.filter(digest__in=digests), "token expired")


def update_settings(user: User, *, email_notifications: bool | None = None,
                    table: dict[str, Any] | None = None) -> dict[str, Any]:
    """Change the given settings; ``table`` holds only known table options (``reads.TABLE_DEFAULTS``),
    already checked by the caller."""
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        fields = []
        if email_notifications is not None:
            profile.email_notifications = email_notifications
            fields.append("email_notifications")
        if table:
            profile.table_options = {**reads.table_options(profile),
                                     **{k: v for k, v in table.items() if k in reads.TABLE_DEFAULTS}}
            fields.append("table_options")
        if fields:
            profile.save(update_fields=fields)
    return reads.settings_json(user)


def deactivate_user(user: User) -> None:
    """Deactivate an account: no log-in, no API token, every socket of it closes, and bots take over its
    running matches (once this commits)."""
    with transaction.atomic():
        if user.is_active:
            user.is_active = False
            user.save(update_fields=["is_active"])
        outbox.emit(CredentialsRevoked((account_group(user.pk),), "deactivated"))  # first: nothing more reaches them
        _revoke(ApiToken.objects.filter(user=user), "deactivated")
        outbox.emit(AccountDeactivated(user.pk))


# A new email address is kept only once its owner opens the link sent to it: a signed token (``django.core.signing``,
# the site's SECRET_KEY) naming the account, the new address and the address it replaces, good for
# ``EMAIL_CHANGE_MAX_AGE`` seconds and once (after the change, the address it replaces no longer matches).
EMAIL_CHANGE_SALT = "games.accounts.email-change"
EMAIL_CHANGE_MAX_AGE = 3 * 24 * 3600
LINK_EXPIRED = gettext_noop("This link has expired: ask for a new one on the settings page.")
LINK_BAD = gettext_noop("This link is not valid: ask for a new one on the settings page.")
LINK_USED = gettext_noop("This link was used already, or your email address changed since it was sent.")


def email_change_token(user: User, email: str) -> str:
    """The token of the link that makes ``email`` the address of ``user`` (nothing is stored until it is opened)."""
    new = get_user_model().objects.normalize_email(email)
    return signing.dumps({"u": user.pk, "e": new, "o": user.email}, salt=EMAIL_CHANGE_SALT, compress=True)


def email_change_of(token: str, *, lock: bool = False) -> tuple[Any, str]:
    """The account and new address a link's token names, if it is still good (``GameError`` otherwise);
    ``lock``: the account's row is locked (inside a transaction)."""
    try:
        data = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=EMAIL_CHANGE_MAX_AGE)
    except signing.SignatureExpired:
        raise GameError("link_expired", LINK_EXPIRED) from None
    except signing.BadSignature:
        raise GameError("bad_link", LINK_BAD) from None
    if not isinstance(data, dict) or not {"u", "e", "o"} <= data.keys():
        raise GameError("bad_link", LINK_BAD)
    users = get_user_model().objects.filter(pk=data["u"], is_active=True)
    user = (users.select_for_update() if lock else users).first()
    if user is None or user.email != data["o"]:
        raise GameError("link_used", LINK_USED)
    return user, str(data["e"])


def confirm_email_change(token: str) -> Any:
    """Keep the new address a link's token names (``GameError`` for an expired, forged or used link)."""
    with transaction.atomic():
        user, email = email_change_of(token, lock=True)
        user.email = email
        user.save(update_fields=["email"])
    return user


# --- guests (*Play now, name later*) ---------------------------------------------------------------------

# A guest's generated name: an adjective, an animal and digits, Latin letters (one script, any page language),
# within the username rule (``usernames.validate``).
GUEST_ADJECTIVES = ("Brave", "Bright", "Calm", "Clever", "Swift", "Happy", "Jolly", "Kind", "Lucky", "Merry",
                    "Noble", "Sunny", "Wise", "Gentle", "Bold", "Quick", "Keen", "Proud", "Witty", "Cosmic")
GUEST_ANIMALS = ("Tiger", "Panda", "Falcon", "Otter", "Yak", "Peacock", "Elephant", "Rhino", "Crane", "Lynx",
                 "Koala", "Dolphin", "Heron", "Fox", "Owl", "Robin", "Badger", "Leopard", "Myna", "Parrot")
GUEST_SEAT_NAME = "Guest"  # a removed guest's seats in past matches


def guest_name() -> str:
    return (secrets.choice(GUEST_ADJECTIVES) + secrets.choice(GUEST_ANIMALS)
            + str(secrets.randbelow(9000) + 1000))


def create_guest() -> Any:
    """A guest account: a generated name no account has (or looks like), no usable password (the caller signs
    it in by the session). 503 ``guest_names_busy`` in the unlikely case that no free name turns up."""
    for _attempt in range(20):
        name = usernames.validate(guest_name())
        with transaction.atomic():
            if reads.username_taken(name):
                continue
            user = get_user_model()(username=name)
            user.set_unusable_password()
            user.save()  # the username key comes with it (``hooks``); a look-alike made meanwhile gets none
            if not UsernameKey.objects.filter(user=user).exists():
                transaction.set_rollback(True)
                continue
            Guest.objects.create(user=user)
            return user
    raise GuestNamesBusy()


class GuestNamesBusy(GameError):
    status = 503

    def __init__(self) -> None:
        super().__init__("guest_names_busy", "No free guest name turned up; try again.")


def keep_guest(user: User, *, username: str, password: str, email: str = "") -> User:
    """*Keep my games*: the guest becomes a full account, the same user row (every match, option and notice
    stays), named by the sign-up's rules (its own generated name may stay) with a password (checked by the
    caller, as at sign-up). 409 ``not_a_guest`` for an account that is no guest."""
    encoded = passwords.hash_password(password)  # before the transaction: no connection held while it hashes
    with transaction.atomic():
        guest = Guest.objects.select_for_update().select_related("user").filter(
            user=user, removed_at__isnull=True).first()
        if guest is None:
            raise TableConflict("not_a_guest", "This account is kept already.")
        account = guest.user
        name = username
        if username != account.get_username():
            try:
                name = usernames.validate(username)
            except ValidationError as err:
                raise GameError("bad_username", " ".join(err.messages)) from None
            if reads.username_taken(name, except_user_id=account.pk):
                raise GameError("username_taken", USERNAME_TAKEN)
        account.username, account.password = name, encoded
        account.email = get_user_model().objects.normalize_email(email)
        account.save(update_fields=["username", "password", "email"])
        if not UsernameKey.objects.filter(user=account).exists():  # a look-alike taken meanwhile
            raise GameError("username_taken", USERNAME_TAKEN)
        guest.delete()
    return account


def remove_guest(user_id: int) -> str:
    """Remove an idle guest (beat's sweep, ``reads.idle_guest_ids``): deleted with everything of it when it sat
    at no match (``"deleted"``); else its matches' seats must stay (their logs and replays), so the account is
    deactivated (bots take running seats) and anonymised: no name but ``guest~<id>`` (which no one can choose),
    no email, no password, no settings (``"anonymised"``). The seats' shown name is the matches' to change (the
    sweep renames them "Guest" first). ``""``: no such guest (kept or removed meanwhile)."""
    with transaction.atomic():
        guest = Guest.objects.select_for_update().select_related("user").filter(
            user_id=user_id, removed_at__isnull=True).first()
        if guest is None:
            return ""
        user = guest.user
        try:
            with transaction.atomic():
                user.delete()
            return "deleted"
        except ProtectedError:  # seats at matches (``Seat.user`` protects them)
            pass
        user.username, user.email, user.first_name, user.last_name = f"guest~{user.pk}", "", "", ""
        user.set_unusable_password()
        user.save(update_fields=["username", "email", "first_name", "last_name", "password"])
        Profile.objects.filter(user=user).delete()
        guest.removed_at = timezone.now()
        guest.save(update_fields=["removed_at"])
        deactivate_user(user)
    return "anonymised"
