"""Thin DRF views: parse, call a service or selector, answer. Errors go through api.errors."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model, logout
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.errors import GameError, NotFinished
from games.models import Match

from . import serializers as s

User = get_user_model()

ERRORS = {code: OpenApiResponse(s.ErrorSerializer) for code in (400, 401, 403, 404, 409)}


def _body(request: Request) -> Any:
    """The parsed JSON body; a malformed one raises ParseError (400) inside DRF."""
    return request.data


class SignupView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=s.SignupSerializer, responses={201: s.TokenSerializer, **ERRORS},
                   summary="Create an account and get an API token")
    def post(self, request: Request) -> Response:
        ser = s.SignupSerializer(data=_body(request))
        ser.is_valid(raise_exception=True)
        user = User.objects.create_user(
            username=ser.validated_data["username"],
            password=ser.validated_data["password"],
            email=ser.validated_data.get("email", ""),
        )
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "user_id": user.pk, "username": user.get_username()},
                        status=status.HTTP_201_CREATED)


class TokenView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=s.LoginSerializer, responses={200: s.TokenSerializer, **ERRORS},
                   summary="Exchange username and password for an API token")
    def post(self, request: Request) -> Response:
        ser = s.LoginSerializer(data=_body(request))
        ser.is_valid(raise_exception=True)
        user = authenticate(request._request, username=ser.validated_data["username"],
                            password=ser.validated_data["password"])
        if user is None:  # also an inactive (deactivated) account
            raise GameError("bad_credentials", "Wrong username or password, or the account is deactivated.")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key, "user_id": user.pk, "username": user.get_username()})


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS},
                   summary="Log out: revoke the API token used, end the browser session")
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, Token):
            request.auth.delete()
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    @extend_schema(responses={200: s.MeSerializer, **ERRORS}, summary="The signed-in user")
    def get(self, request: Request) -> Response:
        u = request.user
        return Response({"id": u.pk, "username": u.get_username(), "email": u.email, "is_staff": u.is_staff})


class MatchListView(APIView):
    @extend_schema(responses={200: s.MatchSummarySerializer(many=True), **ERRORS},
                   summary="My matches, those awaiting my move first")
    def get(self, request: Request) -> Response:
        return Response([selectors.match_summary(m) for m in selectors.matches_for_user(request.user)[:200]])

    @extend_schema(request=s.NewMatchSerializer, responses={201: s.MatchViewSerializer, **ERRORS},
                   summary="Start a match against three bots")
    def post(self, request: Request) -> Response:
        ser = s.NewMatchSerializer(data=_body(request))
        ser.is_valid(raise_exception=True)
        seed = ser.validated_data.get("seed")
        if seed is not None and not request.user.is_staff:
            raise GameError("seed_forbidden", "Only staff may choose a seed.", )
        match = services.create_bot_match(request.user, bot=ser.validated_data.get("bot"), seed=seed)
        match.refresh_from_db()
        match, seat = selectors.get_match_for_user(request.user, match.pk)
        return Response(selectors.match_view(match, seat.index), status=status.HTTP_201_CREATED)


class MatchDetailView(APIView):
    @extend_schema(responses={200: s.MatchViewSerializer, **ERRORS}, summary="My view of a match")
    def get(self, request: Request, match_id: int) -> Response:
        match, seat = selectors.get_match_for_user(request.user, match_id)
        return Response(selectors.match_view(match, seat.index))


class MatchActionView(APIView):
    @extend_schema(request=s.ActionSerializer, responses={200: s.MatchViewSerializer, **ERRORS},
                   summary="Bid or play a card",
                   description="409 `stale_seq` (with the current `seq`) when `seq` is not the match's; "
                               "400 with the engine's reason code when the bid or card is not legal.")
    def post(self, request: Request, match_id: int) -> Response:
        match, seat = selectors.get_match_for_user(request.user, match_id)
        match, state = services.submit_action(user=request.user, match_id=match.pk, payload=_body(request))
        match.refresh_from_db()
        return Response(selectors.match_view(match, seat.index))


class MatchReplayView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="A `callbreak-replay/1` document"), **ERRORS},
                   summary="The replay of a finished match")
    def get(self, request: Request, match_id: int) -> Response:
        match, _ = selectors.get_match_for_user(request.user, match_id)
        if match.status != Match.Status.FINISHED:
            raise NotFinished()
        return Response(selectors.replay_document(match))
