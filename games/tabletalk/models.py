"""Table talk's models, in the ``games`` app (their tables stay ``games_mute``, ``games_chatmessage`` and
``games_chatreport``)."""

from django.conf import settings
from django.db import models


class Mute(models.Model):
    """A person who no longer sees another person's emotes and chat messages at any table (until unmuted)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair")]


class ChatMessage(models.Model):
    """A line of free-text chat at a match that has chat (``Match.chat``), from a person seated there. Kept
    for the match's page (its history on a reload) and for staff, who read the reported ones."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(help_text="The author's seat at the match.")
    text = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]
        indexes = [models.Index(fields=["match", "-id"], name="chat_recent_idx")]

    def __str__(self) -> str:
        return f"{self.author_id} at match {self.match_id}: {self.text[:40]}"


class ChatReport(models.Model):
    """A person's report of another person's chat message, for staff (one per reporter and message)."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(default=False, db_index=True, help_text="Staff looked at it.")

    class Meta:
        ordering = ["handled", "-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["reporter", "message"], name="one_report_per_message")]

    def __str__(self) -> str:
        return f"Report {self.pk} of message {self.message_id}"
