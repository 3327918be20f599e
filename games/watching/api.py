"""The watching API: the live matches to watch, and one match as a watcher sees it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.matches.presenters import SeatSerializer, WatchViewSerializer
from games.matches.seatview import WatcherView
from games.web.api_errors import ERRORS

from . import reads


class WatchRowSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField()
    rated = serializers.BooleanField()
    move_seconds = serializers.IntegerField(allow_null=True)
    seq = serializers.IntegerField()
    watchers = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    seats = SeatSerializer(many=True)
    top_rated = serializers.BooleanField(help_text="One of the top rated people plays here.")


class WatchListSerializer(serializers.Serializer[Any]):
    matches = WatchRowSerializer(many=True, help_text="Running matches that are not private, the top rated "
                                                      "people's first.")
    arena_tables = WatchRowSerializer(many=True, help_text="Arenas' top running matches (none until arenas run).")


class WatchListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="watch_list", responses={200: WatchListSerializer, **ERRORS},
                   summary="Live matches to watch")
    def get(self, request: Request) -> Response:
        return Response({"matches": reads.live_matches(), "arena_tables": reads.arena_tables()})


class WatchMatchView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="watch_match", responses={200: WatchViewSerializer, **ERRORS},
                   summary="A match as a watcher sees it",
                   description="The engine's spectator view one trick (four bids or cards) behind the match, or "
                               "`SPECTATOR_DELAY_SECONDS` behind: never a hand, never the seed before the end. 403 "
                               "`private_match` for a private table's match; 404 for no such match. Live: "
                               "`/ws/watch/{id}/`.")
    def get(self, request: Request, match_id: int) -> Response:
        match = reads.watchable(match_id)
        view = WatcherView(match.pk).read()
        if view is None:
            reads.watchable(0)  # gone meanwhile: the same 404
        return Response(view)
