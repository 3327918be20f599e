"""The match: its seed, its four seats and its append-only action log; state is the engine's replay.

``Match.seq`` and ``Match.turn`` are copies of what the replay says, kept on the row so that lists
("awaiting my move") and the optimistic ``seq`` check need no replay; tests check they agree.
"""

from django.conf import settings
from django.db import models


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    seed = models.CharField(max_length=200, help_text="Secret until the match is finished.")
    seed_commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed, shown from the start.")
    bot_seed = models.CharField(
        max_length=64, help_text="Randomness for bot decisions; separate from the deal seed."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    seq = models.PositiveIntegerField(default=0, help_text="Number of actions so far (the engine's version).")
    turn = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat to act; empty when over.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Correspondence play (issue 6): a time per move; the current turn's deadline lives here so a
    # beat sweep finds expired turns after any restart. Matches against bots have no time limit.
    move_seconds = models.PositiveIntegerField(null=True, blank=True, help_text="Time per move; empty: no limit.")
    deadline = models.DateTimeField(null=True, blank=True, db_index=True, help_text="When the current turn expires.")
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True, help_text="Reminder due (1/4 time left).")
    rated = models.BooleanField(default=False)
    rated_at = models.DateTimeField(null=True, blank=True, help_text="Set once ratings were updated (idempotence).")
    chat = models.BooleanField(
        default=False, help_text="Free-text chat among its people: set when a private table's host and the people "
                                 "who joined by its invitation start it (never a quick match or a public table).")
    offline = models.BooleanField(
        default=False, help_text="Played with no connection in the installed app and uploaded as its replay "
                                 "(verified by the engine; never rated).")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.status}, seq {self.seq})"

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    """One of the four places at a match: a person or a bot.

    A person's seat may be put on ``autopilot`` (account deactivated, later: missed deadlines);
    a bot then plays it at ``bot`` level and the actions are recorded as made by autopilot.
    """

    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        BOT = "bot", "Bot"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot = models.CharField(max_length=32, blank=True, help_text="Bot level playing this seat, if any.")
    name = models.CharField(max_length=150)
    autopilot = models.BooleanField(default=False)
    missed_in_row = models.PositiveSmallIntegerField(default=0, help_text="Expired turns in a row.")
    resigned = models.BooleanField(default=False)
    bot_account = models.BooleanField(default=False, help_text="A bot account (a program) sits here: it is told "
                                                                 "its turns by the bot event stream.")
    bank_seconds = models.PositiveIntegerField(
        default=0, help_text="Live pace: seconds of this deal's time bank left, spent once a move outlasts the clock.")

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="unique_seat_index"),
            models.CheckConstraint(condition=models.Q(index__lte=3), name="seat_index_0_3"),
            models.CheckConstraint(
                condition=models.Q(kind="bot", user__isnull=True) | models.Q(kind="human", user__isnull=False),
                name="seat_kind_matches_user",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index}: {self.name}"

    @property
    def played_by_bot(self) -> bool:
        return self.kind == self.Kind.BOT or self.autopilot


class Action(models.Model):
    """One bid or card, in order. Rows are never updated or deleted while the match exists."""

    class MadeBy(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        AUTOPILOT = "autopilot", "Autopilot"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text="0-based position in the log.")
    seat = models.PositiveSmallIntegerField()
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    card = models.CharField(max_length=2, blank=True)
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.CharField(max_length=16, choices=MadeBy.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="unique_action_seq"),
            models.CheckConstraint(
                condition=(models.Q(bid__isnull=False, card="") | models.Q(bid__isnull=True) & ~models.Q(card="")),
                name="action_is_bid_xor_card",
            ),
        ]

    def __str__(self) -> str:
        what = f"bid {self.bid}" if self.bid is not None else f"card {self.card}"
        return f"#{self.seq} seat {self.seat} {what}"

    def to_engine_json(self) -> dict[str, object]:
        if self.bid is not None:
            return {"seat": self.seat, "bid": self.bid}
        return {"seat": self.seat, "card": self.card}

