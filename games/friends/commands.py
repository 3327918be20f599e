"""Commands of friends: follow, unfollow, block, unblock, challenge."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from games.accounts import reads as account_reads
from games.accounts.models import Block
from games.notices.events import NoticeDue
from games.notices.models import Notice
from games.platform import outbox
from games.platform.errors import Forbidden, GameError, PlayerNotFound, TableConflict
from games.tables import commands as table_commands
from games.tables.models import Table
from games.tables.reads import MOVE_SECONDS_CHOICES

from .models import Follow

LIVE = 60


def person(username: object) -> User:
    """An active person's account by name (any case): 404 for none, a bot account or a removed guest."""
    if not isinstance(username, str) or not username.strip() or len(username) > 150:
        raise PlayerNotFound()
    user = get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
    if user is None or account_reads.is_bot_account(user):
        raise PlayerNotFound()
    return user


def _not_me(user: User, other: User) -> None:
    if other.pk == user.pk:
        raise GameError("yourself", "That is you.")


def follow(user: User, username: object) -> User:
    """Follow someone (again: nothing changes). 403 ``blocked`` between two who blocked one another; 409
    ``too_many_follows`` past ``FOLLOWS_PER_USER``."""
    other = person(username)
    _not_me(user, other)
    account_reads.check_not_blocked(user, [other])
    if Follow.objects.filter(follower=user).count() >= settings.FOLLOWS_PER_USER:
        raise TableConflict("too_many_follows", f"You follow {settings.FOLLOWS_PER_USER} people already.",
                            limit=settings.FOLLOWS_PER_USER)
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(follower=user, followed=other)
    except IntegrityError:  # the same follow at the same moment from another tab
        pass
    return other


def unfollow(user: User, username: object) -> User:
    other = person(username)
    Follow.objects.filter(follower=user, followed=other).delete()
    return other


def block(user: User, username: object) -> User:
    """Block someone: follows either way end; from now on neither may invite, challenge, chat with or sit at a
    table with the other (the doors ask ``accounts.reads.check_not_blocked``). Their open invitations to one
    another's tables are withdrawn."""
    other = person(username)
    _not_me(user, other)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(follower=user, followed=other).delete()
        Follow.objects.filter(follower=other, followed=user).delete()
    for table_id in Table.objects.filter(status=Table.Status.OPEN, seats__invited=other, host=user).values_list(
            "pk", flat=True):
        table_commands.withdraw_invitation(table_id, other)
    for table_id in Table.objects.filter(status=Table.Status.OPEN, seats__invited=user, host=other).values_list(
            "pk", flat=True):
        table_commands.withdraw_invitation(table_id, user)
    return other


def unblock(user: User, username: object) -> User:
    other = person(username)
    Block.objects.filter(blocker=user, blocked=other).delete()
    return other


def challenge(user: User, username: object, *, move_seconds: int = LIVE, rated: bool = False) -> Table:
    """Challenge a person: a private table with me at seat 0 and them invited to seat 1, told by a notice (their
    tabs, an email, a push). They join it from the notice (or decline); I fill the other seats (bots or
    people) and start, as at any table. 403 ``blocked`` between two who blocked one another; 403
    ``guest_challenge`` for a guest on either side (a guest has no friends list to answer from)."""
    other = person(username)
    _not_me(user, other)
    account_reads.check_not_blocked(user, [other])
    if account_reads.is_guest(user) or account_reads.is_guest(other):
        raise Forbidden("guest_challenge", "Guests cannot challenge or be challenged: keep your games first.")
    if move_seconds not in MOVE_SECONDS_CHOICES:
        raise GameError("bad_time", f"Time per move is one of {', '.join(map(str, MOVE_SECONDS_CHOICES))} seconds.")
    with transaction.atomic():
        table = table_commands.create_table(user, visibility=Table.Visibility.PRIVATE, move_seconds=move_seconds,
                                            rated=rated)
        table_commands.invite_person(user, table.pk, 1, other)
        outbox.emit(NoticeDue(other.pk, None, 0, Notice.Kind.CHALLENGE, table.pk))
    return table

