"""The ratings API: the leaderboard and a player's profile (public to signed-in people)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api_errors import ERRORS
from games.errors import GameError, PlayerNotFound

from . import reads

YES, NO = ("1", "true", "yes"), ("0", "false", "no")


class LeaderboardView(APIView):
    @extend_schema(parameters=[OpenApiParameter("bots", bool, description="Include bot levels (default yes)"),
                               OpenApiParameter("board", str, enum=list(reads.BOARDS),
                                                description="`people` (default) or `bots`: bot accounts and the "
                                                            "house bot levels")],
                   responses={200: OpenApiResponse(description="Rows by conservative rating μ−3σ"), **ERRORS},
                   summary="Leaderboard")
    def get(self, request: Request) -> Response:
        raw = request.query_params.getlist("bots") or ["true"]
        if len(raw) > 1 or raw[0].lower() not in YES + NO:
            raise GameError("bad_param", "`bots` is true or false (1 or 0).")
        board = request.query_params.get("board", "people")
        if board not in reads.BOARDS:
            raise GameError("bad_param", "`board` is `people` or `bots`.")
        return Response(reads.leaderboard(bots=raw[0].lower() in YES, board=board))


class ProfileView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="Rating, history and stats"), **ERRORS},
                   summary="A player's profile")
    def get(self, request: Request, username: str) -> Response:
        data = reads.profile(username)
        if data is None:
            raise PlayerNotFound()
        return Response(data)
