"""Admin of table talk: the chat reports people send, which staff read and mark handled, and each match's chat
on its admin page (a report's link leads there)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.matches import admin as matches_admin
from games.matches.models import Match

from .models import ChatMessage, ChatReport


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


matches_admin.add_match_inline(ChatInline)
