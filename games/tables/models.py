"""Tables among people: who sits where before the match starts, then a pointer to the match."""

import secrets

from django.conf import settings
from django.db import models


def _invite_code() -> str:
    return secrets.token_urlsafe(9)


class Table(models.Model):
    """A table among people before (and pointing to) its match: who sits where, the time per move."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        PRIVATE = "private", "Private"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        STARTED = "started", "Started"
        EXPIRED = "expired", "Expired"
        CLOSED = "closed", "Closed"

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables")
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_code = models.CharField(max_length=32, unique=True, default=_invite_code)
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
