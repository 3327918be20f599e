"""Arena tournaments: an arena (``Tournament``), who joined it (``Entry``), the matches it seated (``ArenaMatch``)
and each person's result at one (``Result``). Points are integer twelfths (``scoring.UNIT``), so shared places
stay exact."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

MIN_MINUTES, MAX_MINUTES = 15, 120


class Tournament(models.Model):
    """An arena: from ``starts_at`` for ``minutes``, whoever joined is seated again and again, four at a time, at
    the live pace. When the time is up no new match starts; once the running ones are counted it is ``closed_at``."""

    class Pool(models.TextChoices):
        PEOPLE = "people", "People"
        BOTS = "bots", "Bot accounts"

    name = models.CharField(max_length=80)
    pool = models.CharField(max_length=8, choices=Pool.choices, default=Pool.PEOPLE,
                            help_text="`people`, or `bots`: an arena of bot accounts only.")
    starts_at = models.DateTimeField(db_index=True)
    minutes = models.PositiveSmallIntegerField(
        default=30, validators=[MinValueValidator(MIN_MINUTES), MaxValueValidator(MAX_MINUTES)],
        help_text=f"How long new matches start: {MIN_MINUTES} to {MAX_MINUTES} minutes.")
    move_seconds = models.PositiveIntegerField(
        default=15, validators=[MinValueValidator(5), MaxValueValidator(120)],
        help_text="The live clock: seconds a move (each seat also has the live bank, LIVE_BANK_SECONDS a deal).")
    rated = models.BooleanField(default=True)
    rating_limit = models.PositiveIntegerField(null=True, blank=True,
                                               help_text="Optional: only people rated at most this may join.")
    schedule = models.CharField(max_length=32, blank=True, default="",
                                help_text="The beat schedule that made it (TOURNAMENT_SCHEDULE), or empty.")
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Set once the time is up and every match it started is counted.")

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(minutes__gte=MIN_MINUTES, minutes__lte=MAX_MINUTES),
                                   name="tournament_minutes_in_range"),
            models.UniqueConstraint(fields=["schedule", "starts_at"], condition=~models.Q(schedule=""),
                                    name="one_scheduled_tournament_per_slot"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_at:%Y-%m-%d %H:%M})"

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    def phase(self, now: datetime) -> str:
        """``upcoming``, ``running`` (matches start), ``finishing`` (time up, matches still running) or
        ``finished``."""
        if self.closed_at is not None:
            return "finished"
        if now < self.starts_at:
            return "upcoming"
        return "running" if now < self.ends_at else "finishing"


class Entry(models.Model):
    """A person in an arena: ``active`` (seated whenever free), ``paused`` (not seated until they come back) or
    ``withdrawn`` (for good). ``match`` is the arena's match they play now: one at a time, by construction (the
    pairing run seats only entries without one, locked)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        PAUSED = "paused", "Paused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    points = models.IntegerField(default=0, help_text="Twelfths of a point (exact shares of tied places).")
    matches = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0, help_text="Top-two finishes in a row.")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                              help_text="The arena match played now, if any.")
    free_since = models.DateTimeField(null=True, blank=True, help_text="Free to be seated since (the wait).")
    last_four = models.CharField(max_length=80, blank=True, default="",
                                 help_text="The people of the last match (ids): never the same four twice in a row.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-points", "joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_arena")]
        indexes = [models.Index(fields=["tournament", "status", "free_since"], name="arena_entry_free_idx")]

    def __str__(self) -> str:
        return f"Entry {self.pk} ({self.status})"


class ArenaMatch(models.Model):
    """A match an arena started; ``counted_at`` once its results are in the standings (or it was aborted)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()
    counted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["tournament", "counted_at"], name="arena_match_uncounted_idx")]

    def __str__(self) -> str:
        return f"Arena match {self.match_id}"


class Result(models.Model):
    """One person's finish at one arena match: the place among the people (tied places share the better one) and
    the points it gave (twelfths; doubled on a streak)."""

    game = models.ForeignKey(ArenaMatch, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    doubled = models.BooleanField(default=False)

    class Meta:
        ordering = ["game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "entry"], name="one_result_per_entry_and_match")]

    def __str__(self) -> str:
        return f"Result {self.pk}"
