"""People: settings, notices, open match pages (presence) and OpenSkill ratings."""

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """Per-user settings."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    email_notifications = models.BooleanField(default=True, help_text="Email for your turn and reminders.")


class Notice(models.Model):
    """A notification to a user about a match; unique per (user, match, seq, kind) so nothing is sent twice."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        REMINDER = "reminder", "Reminder"
        AUTOPILOT = "autopilot", "Autopilot moved"
        HANDED_OVER = "handed_over", "Seat given to the bot"
        REMATCH = "rematch", "Invited to a rematch"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="notices")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    emailed = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "match", "seq", "kind"], name="unique_notice"),
        ]


class Presence(models.Model):
    """An open WebSocket on a match page: while one exists the user gets no email for that match."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)


class Rating(models.Model):
    """An OpenSkill identity: a person, or one bot level (each level is rated on its own)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="rating"
    )
    bot = models.CharField(max_length=32, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot"], condition=~models.Q(bot=""), name="one_rating_per_bot_level"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot="") | models.Q(user__isnull=True) & ~models.Q(bot=""),
                name="rating_is_user_xor_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.conservative:.1f}"

    @property
    def name(self) -> str:
        return self.user.get_username() if self.user is not None else f"bot:{self.bot}"

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """Rating history: one row per identity and rated match (the unique key makes updates idempotent)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_changes")
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["rating", "match"], name="one_change_per_match")]

    @property
    def conservative_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after


class UsernameKey(models.Model):
    """The look-alike-proof, case-blind key of a username (``games.players.usernames.key``), unique: no two
    accounts whose names look the same. Kept up to date on every save of a user (``games.players.signals``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="username_key")
    key = models.CharField(max_length=150, unique=True)

    def __str__(self) -> str:
        return self.key


class ApiToken(models.Model):
    """One API client's token (``Authorization: Token <key>`` or ``?token=<key>`` on a socket): made at sign-up and
    at each log-in through the API, so each client has its own; revoked by that client's log-out (its sockets
    close), gone with a deactivated account. Only the key's SHA-256 is stored. It expires when unused for
    ``API_TOKEN_TTL_DAYS`` (each use moves the expiry on, at most once an hour)."""

    digest = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the key (the key is not kept).")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    client = models.CharField(max_length=120, blank=True, help_text="The User-Agent that asked for it.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.digest[:8]}"
