"""Admin of ratings: each identity (a person or a bot level) with its history."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.platform import rating_scale

from .models import Rating, RatingChange


class RatingChangeInline(admin.TabularInline[RatingChange, Rating]):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = ("match", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("name", "bot", "shown_rating", "mu", "sigma", "conservative_rating", "games", "updated_at")
    list_filter = ("games",)
    search_fields = ("user__username", "bot")
    readonly_fields = ("user", "bot", "mu", "sigma", "games", "updated_at")
    inlines = [RatingChangeInline]

    @admin.display(description="rating shown", ordering="mu")
    def shown_rating(self, obj: Rating) -> str:
        """The number people see (``rating_scale.shown``), "?" while provisional."""
        return rating_scale.shown_text(obj.mu, obj.sigma)

    @admin.display(description="μ − 3σ")
    def conservative_rating(self, obj: Rating) -> str:
        return f"{obj.conservative:.2f}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # ratings come from finished rated matches only
