"""The matches API: my matches, a new match against bots, my view, actions, resigning, the replay.

Thin views: parse, call a command or a read, answer. Errors go through ``games.web.api_errors``.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.platform.errors import GameError, NotFinished
from games.web.api_errors import ERRORS
from games.web.users import signed_in

from . import commands, presenters, reads
from . import serializers as s
from .models import Match

TOTALS_ROWS = 40


class MatchListView(APIView):
    @extend_schema(responses={200: presenters.MatchSummarySerializer(many=True), **ERRORS},
                   summary="My matches, those awaiting my move first")
    def get(self, request: Request) -> Response:
        # the totals of the first rows only: each may cost a replay of its log
        rows = reads.matches_for_user(signed_in(request))[:200]
        return Response([presenters.match_summary(m, totals=i < TOTALS_ROWS) for i, m in enumerate(rows)])

    @extend_schema(request=s.NewMatchSerializer, responses={201: presenters.MatchViewSerializer, **ERRORS},
                   summary="Start a match against three bots")
    def post(self, request: Request) -> Response:
        ser = s.NewMatchSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        seed = ser.validated_data.get("seed")
        if seed is not None and not signed_in(request).is_staff:
            raise GameError("seed_forbidden", "Only staff may choose a seed.")
        match = commands.create_bot_match(signed_in(request), bot=ser.validated_data.get("bot"), seed=seed)
        match.refresh_from_db()
        match, seat = reads.get_match_for_user(signed_in(request), match.pk)
        return Response(presenters.match_view(match, seat.index), status=status.HTTP_201_CREATED)


class MatchDetailView(APIView):
    @extend_schema(responses={200: presenters.MatchViewSerializer, **ERRORS}, summary="My view of a match")
    def get(self, request: Request, match_id: int) -> Response:
        match, seat = reads.get_match_for_user(signed_in(request), match_id)
        return Response(presenters.match_view(match, seat.index))


class MatchActionView(APIView):
    @extend_schema(request=s.ActionSerializer, responses={200: presenters.MatchViewSerializer, **ERRORS},
                   summary="Bid or play a card",
                   description="409 `stale_seq` (with the current `seq`) when `seq` is not the match's; "
                               "400 with the engine's reason code when the bid or card is not legal.")
    def post(self, request: Request, match_id: int) -> Response:
        user = signed_in(request)
        match, state = commands.submit_action(user=user, match_id=match_id, payload=request.data)
        seat = reads.seat_for_user(match, user)
        assert seat is not None  # submit_action refuses anyone without a seat
        return Response(presenters.view_after_action(match, seat.index, state))


class MatchReplayView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="A `callbreak-replay/1` document"), **ERRORS},
                   summary="The replay of a finished match")
    def get(self, request: Request, match_id: int) -> Response:
        match, _ = reads.get_match_for_user(signed_in(request), match_id)
        if match.status != Match.Status.FINISHED:
            raise NotFinished()
        return Response(presenters.replay_document(match))


class ResignView(APIView):
    @extend_schema(request=None, responses={200: OpenApiResponse(description="My view of the match"), **ERRORS},
                   summary="Resign: the bot plays my seat for the rest of the match")
    def post(self, request: Request, match_id: int) -> Response:
        reads.get_match_for_user(signed_in(request), match_id)
        commands.resign(signed_in(request), match_id)
        match, seat = reads.get_match_for_user(signed_in(request), match_id)
        return Response(presenters.match_view(match, seat.index))
