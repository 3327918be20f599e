"""Notices: what a person was told about a match, once each."""

from django.conf import settings
from django.db import models


class Notice(models.Model):
    """A notification to a user about a match; unique per (user, match, seq, kind) so nothing is sent twice."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        REMINDER = "reminder", "Reminder"
        AUTOPILOT = "autopilot", "Autopilot moved"
        HANDED_OVER = "handed_over", "Seat given to the bot"
        REMATCH = "rematch", "Invited to a rematch"
        # Quick match (games/quickmatch) tells a seated person on their open tabs (``/ws/me/``), so nothing records
        # this kind today; push preferences and the email subjects offer it for a notice when nobody is there.
        QUICK_MATCH = "quick_match", "Quick match found"
        # A friend's challenge (games/friends): about a private table the person is invited to, before any match.
        CHALLENGE = "challenge", "Challenged by a friend"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="notices",
                              help_text="The match it is about; empty for a challenge (a table, no match yet).")
    table = models.ForeignKey("games.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                              help_text="A challenge's table (the person is invited to a seat there).")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    emailed = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "match", "seq", "kind"], name="unique_notice"),
            models.UniqueConstraint(fields=["user", "table", "kind"], condition=models.Q(table__isnull=False),
                                    name="unique_table_notice"),
        ]
