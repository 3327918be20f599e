"""Admin of matches: a read-only action log (the log is append-only; editing it would break the replay)
and an action to abort running matches; the chat reports people send, which staff read and mark handled."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from . import commands
from .models import Action, ChatMessage, ChatReport, Match, Seat


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


class ChatInline(admin.TabularInline[ChatMessage, Match]):
    """The match's chat as it was written: a report's context (its link leads here). Read-only."""

    model = ChatMessage
    extra = 0
    can_delete = False
    fields = ("created_at", "seat", "author", "text")
    readonly_fields = fields
    verbose_name_plural = "chat"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
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
    inlines = [SeatInline, ChatInline, ActionInline]
    # The seed deals every hand and the bot seed steers every bot: shown once the match is finished only,
    # so staff cannot see the hands of a running match (nor of an aborted one) in the admin.
    SECRET_FIELDS = ("seed", "bot_seed")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        """No change-list filter on a secret field (``?seed__startswith=a`` told, one character at a time, the
        seed of a running match): Django allows lookups on a model's own fields unless this refuses them."""
        if any(part in self.SECRET_FIELDS for part in lookup.split(LOOKUP_SEP)):
            return False
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


@admin.action(description="Mark selected reports handled")
def mark_handled(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> None:
    done = queryset.filter(handled=False).update(handled=True)
    modeladmin.message_user(request, f"Marked {done} report(s) handled.")


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin[ChatReport]):
    """People's reports of chat messages: the message as it was stored, its author and match; staff change
    nothing but ``handled`` (the rest is the record)."""

    list_display = ("id", "message_text", "author", "match_link", "reporter", "reason", "created_at", "handled")
    list_filter = ("handled", "created_at")
    list_editable = ("handled",)
    list_select_related = ("message", "message__author", "reporter")
    search_fields = ("message__text", "message__author__username", "reporter__username", "message__match__id")
    actions = [mark_handled]
    fields = ("message_text", "author", "match_link", "reporter", "reason", "created_at", "handled")
    readonly_fields = ("message_text", "author", "match_link", "reporter", "reason", "created_at")

    @admin.display(description="message")
    def message_text(self, obj: ChatReport) -> str:
        return obj.message.text

    @admin.display(description="author", ordering="message__author__username")
    def author(self, obj: ChatReport) -> str:
        return obj.message.author.get_username()

    @admin.display(description="match")
    def match_link(self, obj: ChatReport) -> str:
        url = reverse("admin:games_match_change", args=[obj.message.match_id])
        return format_html('<a href="{}">Match {}</a>', url, obj.message.match_id)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # people report; staff handle
