"""The strong bot's review of one person's decisions in a finished match, stored as it is computed."""

from django.db import models


class Analysis(models.Model):
    """One seat's review. ``decisions`` grows one decision at a time (a task that dies resumes after the
    last one stored); ``document`` is the ``callbreak-analysis/1`` document once all are done."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="analyses")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    budget = models.PositiveIntegerField(help_text="Sampled deals per decision.")
    seed = models.CharField(max_length=64, help_text="The analysis seed: the same replay, seat and seed give the "
                                                     "same analysis.")
    total = models.PositiveSmallIntegerField(default=0, help_text="Decisions of the seat (70 in a whole match).")
    progress = models.PositiveSmallIntegerField(default=0, help_text="Decisions reviewed so far.")
    decisions = models.JSONField(default=list, blank=True, help_text="The decisions reviewed so far, in order.")
    document = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "analyses"
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_analysis_per_seat"),
            models.CheckConstraint(condition=models.Q(seat__lte=3), name="analysis_seat_0_3"),
        ]

    def __str__(self) -> str:
        return f"Analysis of match {self.match_id} seat {self.seat} ({self.status}, {self.progress}/{self.total})"

