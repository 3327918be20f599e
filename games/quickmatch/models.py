"""Quick match: a seek for a table (a pool, a pace, rated or not) until it is seated, cancelled or dropped."""

from django.conf import settings
from django.db import models


class Seek(models.Model):
    """One press of *Play online* (or a bot account's seek in the bots' pool, the bot ladder): waiting until the
    pairing task seats it at a match (``matched``), the person cancels it, or it is dropped (a deactivated
    account). A person has at most one waiting seek (the database says so: ``one_waiting_seek_per_user``)."""

    class Pace(models.TextChoices):
        LIVE = "live", "Live"
        CORRESPONDENCE = "correspondence", "Correspondence"

    class Pool(models.TextChoices):
        PEOPLE = "people", "People"
        BOTS = "bots", "Bots"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        MATCHED = "matched", "Matched"
        CANCELLED = "cancelled", "Cancelled"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    pool = models.CharField(max_length=8, choices=Pool.choices, default=Pool.PEOPLE,
                            help_text="`people`, or `bots`: the bot ladder, bot accounts only, house bots after the "
                                      "wait.")
    pace = models.CharField(max_length=16, choices=Pace.choices)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    skill = models.FloatField(help_text="The person's rating (OpenSkill mu) when they pressed the button.")
    waiting_since = models.DateTimeField(db_index=True)
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["waiting_since", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=models.Q(status="waiting"),
                                    name="one_waiting_seek_per_user"),
            models.CheckConstraint(condition=models.Q(status="matched", match__isnull=False)
                                   | ~models.Q(status="matched"), name="matched_seek_has_match"),
        ]
        indexes = [models.Index(fields=["status", "pace", "rated", "waiting_since"], name="seek_waiting_idx")]

    def __str__(self) -> str:
        return f"Seek {self.pk} ({self.pace}, {self.status})"
