"""Admin of matches: a read-only action log (the log is append-only; editing it would break the replay)
and an action to abort running matches. A concept above matches shows its rows on a match's page with
``add_match_inline`` (table talk: the match's chat)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from . import commands
from .models import Action, Match, Seat


@admin.action(description="Abort selected running matches (nobody is rated)")
def abort_matches(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
    done = sum(1 for match in queryset if commands.abort_match(match))
    modeladmin.message_user(request, f"Aborted {done} match(es); finished or aborted ones were left alone.")


class SeatInline(admin.TabularInline[Seat, Match]):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "kind", "name", "user", "bot", "autopilot")
    readonly_fields = ("index", "kind", "name", "user", "bot", "autopilot")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ActionInline(admin.TabularInline[Action, Match]):
    model = Action
    extra = 0
    can_delete = False
    fields = ("seq", "seat", "bid", "card", "made_by", "user", "made_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ("id", "status", "seq", "turn", "players", "rated", "deadline", "created_at", "finished_at")
    list_filter = ("status", "rated", "created_at")
    actions = [abort_matches]
    search_fields = ("id", "seats__user__username", "seed_commitment")
    readonly_fields = (
        "status", "seq", "turn", "seed_commitment", "seed", "bot_seed", "created_by", "created_at",
        "updated_at", "finished_at", "move_seconds", "deadline", "remind_at", "rated", "rated_at", "chat",
    )
    inlines = [SeatInline, ActionInline]  # and those of the concepts above (``add_match_inline``)
    # The seed deals every hand and the bot seed steers every bot: shown once the match is finished only,
    # so staff cannot see the hands of a running match (nor of an aborted one) in the admin.
    SECRET_FIELDS = ("seed", "bot_seed")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        """No change-list filter on a secret field (``?seed__startswith=a`` told, one character at a time, the
        seed of a running match): Django allows lookups on a model's own fields unless this refuses them."""
        if any(part in self.SECRET_FIELDS for part in lookup.split(LOOKUP_SEP)):
            return False
        if lookup == "seats__user__id__exact":  # one person's matches: the link on a user's admin page
            return True
        return super().lookup_allowed(lookup, value, request)

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> Any:
        fields = super().get_fields(request, obj)
        if obj is None or obj.status != Match.Status.FINISHED:
            fields = [f for f in fields if f not in self.SECRET_FIELDS]
        return fields

    @admin.display(description="players")
    def players(self, obj: Match) -> str:
        return ", ".join(s.name for s in obj.seats.all())

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).prefetch_related("seats")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are made through the site so their logs stay engine-valid

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin[Action]):
    list_display = ("match", "seq", "seat", "bid", "card", "made_by", "made_at")
    list_filter = ("made_by",)
    search_fields = ("match__id",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def add_match_inline(inline: type[Any], *, after: type[Any] = SeatInline) -> None:
    """Show another concept's rows on every match's admin page (an inline of its model), after ``after``'s."""
    if inline not in MatchAdmin.inlines:
        at = MatchAdmin.inlines.index(after) + 1
        MatchAdmin.inlines = [*MatchAdmin.inlines[:at], inline, *MatchAdmin.inlines[at:]]
