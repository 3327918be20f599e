"""API for tables among people, resigning, ratings and settings (thin views over games.lobby etc.)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import correspondence, lobby, ratings, selectors
from games.errors import GameError
from games.models import Notice, Profile

from .serializers import ErrorSerializer

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 409)}


class NewTableSerializer(serializers.Serializer):
    visibility = serializers.ChoiceField(choices=["public", "private"], default="public")
    move_seconds = serializers.ChoiceField(choices=list(lobby.MOVE_SECONDS_CHOICES), default=lobby.DAY,
                                           help_text="60 (live) or 1, 2, 3, 7, 14 days in seconds.")
    rated = serializers.BooleanField(default=True)


class JoinSerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=3)
    code = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                 help_text="Invitation code (needed for a private table).")


class BotsSerializer(serializers.Serializer):
    bot = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=32)
    seats = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=3), required=False)


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    host = serializers.CharField()
    visibility = serializers.CharField()
    move_seconds = serializers.IntegerField()
    rated = serializers.BooleanField()
    status = serializers.CharField()
    seats = serializers.JSONField()
    invite_code = serializers.CharField(allow_null=True, help_text="Shown to members and code holders only.")
    match_id = serializers.IntegerField(allow_null=True, help_text="Once started; members only.")


class SettingsSerializer(serializers.Serializer):
    email_notifications = serializers.BooleanField()


class PlayerNotFound(GameError):
    status = 404

    def __init__(self) -> None:
        super().__init__("not_found", "No such player.")


def _valid(ser_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    ser = ser_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return dict(ser.validated_data)


class TableListView(APIView):
    @extend_schema(responses={200: TableSerializer(many=True), **ERRORS},
                   summary="The lobby: open public tables and the open tables I sit at")
    def get(self, request: Request) -> Response:
        return Response([lobby.table_json(t, request.user) for t in lobby.lobby_tables(request.user)[:200]])

    @extend_schema(request=NewTableSerializer, responses={201: TableSerializer, **ERRORS},
                   summary="Create a table (I sit at seat 0 and host it)")
    def post(self, request: Request) -> Response:
        data = _valid(NewTableSerializer, request)
        table = lobby.create_table(request.user, **data)
        return Response(lobby.table_json(table, request.user), status=status.HTTP_201_CREATED)


CODE_PARAM = OpenApiParameter("code", str, description="Invitation code of a private table")


class TableDetailView(APIView):
    @extend_schema(parameters=[CODE_PARAM], responses={200: TableSerializer, **ERRORS}, summary="A table")
    def get(self, request: Request, table_id: int) -> Response:
        code = request.query_params.get("code")
        table = lobby.visible_table(request.user, table_id, code)
        return Response(lobby.table_json(table, request.user, code))


class TableByCodeView(APIView):
    @extend_schema(responses={200: TableSerializer, **ERRORS}, summary="A table by its invitation code")
    def get(self, request: Request, code: str) -> Response:
        table = lobby.table_by_code(code)
        return Response(lobby.table_json(table, request.user, code))


class TableJoinView(APIView):
    @extend_schema(request=JoinSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Take a seat (the first empty one unless `seat` is given)")
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(JoinSerializer, request)
        code = data.get("code") or None
        table = lobby.join_table(request.user, table_id, seat=data.get("seat"), code=code)
        return Response(lobby.table_json(table, request.user, code))


class TableLeaveView(APIView):
    @extend_schema(request=None, responses={200: TableSerializer, **ERRORS}, summary="Leave before the start")
    def post(self, request: Request, table_id: int) -> Response:
        table = lobby.leave_table(request.user, table_id)
        return Response(lobby.table_json(table, request.user))


class TableBotsView(APIView):
    @extend_schema(request=BotsSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Host: fill empty seats with bots of a level")
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(BotsSerializer, request)
        table = lobby.fill_bots(request.user, table_id, bot=data.get("bot"), seats=data.get("seats"))
        return Response(lobby.table_json(table, request.user))


class TableClearSeatView(APIView):
    @extend_schema(request=None, responses={200: TableSerializer, **ERRORS}, summary="Host: remove a bot")
    def post(self, request: Request, table_id: int, index: int) -> Response:
        table = lobby.clear_seat(request.user, table_id, index)
        return Response(lobby.table_json(table, request.user))


class TableStartView(APIView):
    @extend_schema(request=None, responses={201: TableSerializer, **ERRORS},
                   summary="Host: start the match (every seat taken)")
    def post(self, request: Request, table_id: int) -> Response:
        lobby.start_table(request.user, table_id)
        table = lobby.visible_table(request.user, table_id)
        return Response(lobby.table_json(table, request.user), status=status.HTTP_201_CREATED)


class ResignView(APIView):
    @extend_schema(request=None, responses={200: OpenApiResponse(description="My view of the match"), **ERRORS},
                   summary="Resign: the bot plays my seat for the rest of the match")
    def post(self, request: Request, match_id: int) -> Response:
        selectors.get_match_for_user(request.user, match_id)
        correspondence.resign(request.user, match_id)
        match, seat = selectors.get_match_for_user(request.user, match_id)
        return Response(selectors.match_view(match, seat.index))


class LeaderboardView(APIView):
    @extend_schema(parameters=[OpenApiParameter("bots", bool, description="Include bot levels (default yes)")],
                   responses={200: OpenApiResponse(description="Rows by conservative rating μ−3σ"), **ERRORS},
                   summary="Leaderboard")
    def get(self, request: Request) -> Response:
        bots = request.query_params.get("bots", "1").lower() not in ("0", "false", "no")
        return Response(ratings.leaderboard(bots=bots))


class ProfileView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="Rating, history and stats"), **ERRORS},
                   summary="A player's profile")
    def get(self, request: Request, username: str) -> Response:
        data = ratings.profile(username)
        if data is None:
            raise PlayerNotFound()
        return Response(data)


class SettingsView(APIView):
    @extend_schema(responses={200: SettingsSerializer, **ERRORS}, summary="My settings")
    def get(self, request: Request) -> Response:
        profile, _ = Profile.objects.get_or_create(user=request.user)
        return Response({"email_notifications": profile.email_notifications})

    @extend_schema(request=SettingsSerializer, responses={200: SettingsSerializer, **ERRORS},
                   summary="Change my settings (email on your turn and reminders)")
    def patch(self, request: Request) -> Response:
        ser = SettingsSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        profile, _ = Profile.objects.get_or_create(user=request.user)
        if "email_notifications" in ser.validated_data:
            profile.email_notifications = ser.validated_data["email_notifications"]
            profile.save(update_fields=["email_notifications"])
        return Response({"email_notifications": profile.email_notifications})


class NoticeListView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="My latest notices"), **ERRORS},
                   summary="My notifications")
    def get(self, request: Request) -> Response:
        rows = Notice.objects.filter(user=request.user).order_by("-created_at", "-id")[:50]
        return Response([{"id": n.pk, "kind": n.kind, "match_id": n.match_id, "seq": n.seq,
                          "at": n.created_at.isoformat(), "emailed": n.emailed} for n in rows])
