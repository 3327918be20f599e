"""Tables among people: who sits where before the match starts, then a pointer to the match."""

import secrets

from django.conf import settings
from django.db import models


def _invite_code() -> str:
    return secrets.token_urlsafe(9)


# A room code is read out and typed on phones: six characters from 31 that no font confuses (no 0/O, 1/I/L),
# 31**6 (about 887 million) codes, so a guess at a table among a few thousand open ones almost never lands and
# a clash at creation is rare (retried: ``commands``); the API's ``join_code`` rate limit keeps guessing slow.
ROOM_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ROOM_CODE_LENGTH = 6


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


class Table(models.Model):
    """A table among people before (and pointing to) its match: who sits where, the time per move."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        PRIVATE = "private", "Private"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        # a one-tap rematch waiting for its people's yes (``commands.ask_rematch``): never in the lobby, never joined
        PENDING = "pending", "Rematch asked"
        STARTED = "started", "Started"
        EXPIRED = "expired", "Expired"
        CLOSED = "closed", "Closed"

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_code = models.CharField(max_length=32, unique=True, default=_invite_code)
    room_code = models.CharField(
        max_length=ROOM_CODE_LENGTH, null=True, blank=True, editable=False,
        help_text="A private table's short code to read out (unique among open tables; kept after, for the record).",
    )
    move_seconds = models.PositiveIntegerField(help_text="Time per move in seconds (60 = live, 86400 = a day).")
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    match = models.OneToOneField("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="table")
    rematch_of = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_table",
        help_text="The finished match whose players this table invites again.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # only open tables hold their code: a started or closed table's code may be dealt again
            models.UniqueConstraint(fields=["room_code"], condition=models.Q(status="open", room_code__isnull=False),
                                    name="unique_open_room_code"),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.visibility}, {self.status})"


class TableSeat(models.Model):
    """A place at a table: empty, a person, or a bot of some level."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="table_seats"
    )
    bot = models.CharField(max_length=32, blank=True)
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="table_invitations",
        help_text="A bot account the host invited to this seat, until it accepts (then it sits here) or declines.",
    )
    agreed = models.BooleanField(
        default=False, help_text="A pending rematch: this seat's person said yes (bots and bot accounts need not).")

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="unique_table_seat_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user_per_table"
            ),
            models.CheckConstraint(condition=models.Q(index__lte=3), name="table_seat_index_0_3"),
        ]

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot and self.invited_id is None
