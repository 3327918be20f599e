"""Admin of friends: follows and blocks, for staff answering a complaint."""

from __future__ import annotations

from django.contrib import admin

from games.accounts.models import Block

from .models import Follow


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin[Follow]):
    list_display = ("follower", "followed", "created_at")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin[Block]):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")
