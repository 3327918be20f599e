"""The arenas API: list them, one with its standings (and my entry), join, pause, withdraw. Thin views over the
commands and reads."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.web.api_errors import ERRORS
from games.web.users import signed_in

from . import commands, reads
from .models import Tournament


class TournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    pool = serializers.CharField(help_text="`people`, or `bots`: bot accounts only.")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(help_text="No new match starts after this; running ones finish and count.")
    minutes = serializers.IntegerField()
    move_seconds = serializers.IntegerField(help_text="The live clock (with the live bank a deal).")
    rated = serializers.BooleanField()
    rating_limit = serializers.IntegerField(allow_null=True)
    phase = serializers.CharField(help_text="`upcoming`, `running`, `finishing` (time up, matches finishing) or "
                                            "`finished`.")
    seconds_left = serializers.IntegerField()
    players = serializers.IntegerField()


class ResultSerializer(serializers.Serializer[Any]):
    match_id = serializers.IntegerField(help_text="The match (its replay at `/api/matches/{id}/replay/`).")
    place = serializers.IntegerField(help_text="Place among the people (tied places share the better one).")
    points = serializers.IntegerField(help_text="Twelfths of a point.")
    doubled = serializers.BooleanField(help_text="Doubled: on a streak of two top-two finishes in a row.")


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    status = serializers.CharField(help_text="`active`, `paused` or `withdrawn`.")
    points = serializers.IntegerField(help_text="Twelfths of a point (exact shares of tied places): 48 is 4.")
    points_text = serializers.CharField(help_text="The points as people read them (\"2.33\").")
    matches = serializers.IntegerField()
    streak = serializers.IntegerField()
    on_fire = serializers.BooleanField(help_text="The next finish counts double.")
    playing = serializers.IntegerField(allow_null=True, help_text="The arena match played now.")
    results = ResultSerializer(many=True)


class EntrySerializer(serializers.Serializer[Any]):
    status = serializers.CharField()
    points = serializers.IntegerField()
    points_text = serializers.CharField()
    matches = serializers.IntegerField()
    streak = serializers.IntegerField()
    playing = serializers.IntegerField(allow_null=True)


class TournamentDetailSerializer(TournamentSerializer):
    standings = StandingSerializer(many=True)
    podium = StandingSerializer(many=True, help_text="The first three, once finished.")
    me = EntrySerializer(allow_null=True, help_text="My entry (null: not joined, or not signed in).")


class TournamentListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentSerializer(many=True), **ERRORS},
                   summary="Arenas: running and upcoming (soonest first), then the latest finished")
    def get(self, request: Request) -> Response:
        return Response(reads.listing())


def _detail(request: Request, tournament: int | Tournament) -> dict[str, Any]:
    t = tournament if isinstance(tournament, Tournament) else reads.tournament(tournament)
    return reads.with_me(reads.standings(t), request.user)


class TournamentDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentDetailSerializer, **ERRORS}, summary="An arena and its standings",
                   description="Live over `/ws/tournaments/{id}/`: `{\"type\": \"standings\", \"tournament\"}` on "
                               "connect and at each change.")
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(request, tournament_id))


class TournamentJoinView(APIView):
    @extend_schema(request=None, responses={200: TournamentDetailSerializer, **ERRORS},
                   summary="Join an arena (or come back after a pause)",
                   description="Before or while it runs. 409 `tournament_over`, 409 `withdrawn`; 403 `bots_only` "
                               "(a person at a bots' arena), `people_only` (a bot account at a people's arena), "
                               "`guest_unrated` (a guest at a rated arena), `rating_over_limit` (with its `limit`). "
                               "When seated, `/ws/me/` says `{\"type\": \"arena_seated\", \"tournament_id\", "
                               "\"match_id\"}`.")
    def post(self, request: Request, tournament_id: int) -> Response:
        entry = commands.join(signed_in(request), tournament_id)
        return Response(_detail(request, entry.tournament))


class TournamentPauseView(APIView):
    @extend_schema(request=None, responses={200: TournamentDetailSerializer, **ERRORS},
                   summary="Pause: not seated again until I join again",
                   description="A match under way finishes and counts. 400 `not_joined`.")
    def post(self, request: Request, tournament_id: int) -> Response:
        commands.pause(signed_in(request), tournament_id)
        return Response(_detail(request, tournament_id))


class TournamentWithdrawView(APIView):
    @extend_schema(request=None, responses={200: TournamentDetailSerializer, **ERRORS},
                   summary="Withdraw for good",
                   description="A match under way finishes and counts; I am never seated again. 400 `not_joined`.")
    def post(self, request: Request, tournament_id: int) -> Response:
        commands.withdraw(signed_in(request), tournament_id)
        return Response(_detail(request, tournament_id))
