"""OpenSkill ratings: an identity per person and per bot level, and its history."""

from django.conf import settings
from django.db import models


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
