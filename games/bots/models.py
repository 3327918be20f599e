"""Bot events: what a bot account must answer, stored in order (the id increases), so a stream resumed with
``?since=`` or ``Last-Event-ID`` misses nothing."""

from django.conf import settings
from django.db import models


class BotEvent(models.Model):
    """One event for one bot account: ``your_turn`` (``match_id``, ``seq``), ``invited`` (``table_id``) or
    ``match_over`` (``match_id``). ``key`` makes recording idempotent (a redelivered reaction records nothing
    twice)."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        INVITED = "invited", "Invited"
        MATCH_OVER = "match_over", "Match over"

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_events")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    match_id = models.PositiveIntegerField(null=True, blank=True)
    table_id = models.PositiveIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(null=True, blank=True)
    key = models.CharField(max_length=80, help_text="kind:ids — one event per key and bot.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_bot_event_per_key")]

    def __str__(self) -> str:
        return f"#{self.id} {self.kind} for {self.user_id}"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"id": self.id, "type": self.kind}
        if self.kind == self.Kind.INVITED:
            data["table_id"] = self.table_id
        else:
            data["match_id"] = self.match_id
        if self.kind == self.Kind.YOUR_TURN:
            data["seq"] = self.seq
        return data
