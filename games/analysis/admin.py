"""Admin of analyses: progress, and an action to compute them again."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from . import commands
from .models import Analysis


@admin.action(description="Compute the selected analyses again")
def rerun_analyses(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Analysis]) -> None:
    for analysis in queryset:
        commands.rerun(analysis)
    modeladmin.message_user(request, f"Queued {queryset.count()} analysis(es) again.")


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin[Analysis]):
    list_display = ("id", "match", "seat", "status", "progress", "total", "budget", "created_at", "finished_at")
    list_filter = ("status", "created_at")
    search_fields = ("match__id",)
    actions = [rerun_analyses]
    readonly_fields = ("match", "seat", "status", "budget", "seed", "total", "progress", "error", "created_at",
                       "updated_at", "finished_at")
    exclude = ("decisions", "document")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
