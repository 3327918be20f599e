"""The accounts API: sign-up, tokens, log-out, me, my settings. Thin views over ``games.accounts.commands``
and ``games.accounts.reads``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.platform.errors import GameError, NotFound, TableConflict
from games.web.api_errors import ERRORS
from games.web.bounds import StrictBooleanField
from games.web.users import signed_in

from . import commands, reads
from . import serializers as s
from .models import ApiToken


def _client(request: Request) -> str:
    return str(request.META.get("HTTP_USER_AGENT", ""))[:120]


class SettingsSerializer(serializers.Serializer[Any]):
    email_notifications = StrictBooleanField()
    card_speed = serializers.ChoiceField(choices=reads.CARD_SPEEDS, help_text="How fast the cards land.")
    auto_play = StrictBooleanField(help_text="Play a forced card (the only legal one) for me.")
    sound = StrictBooleanField(help_text="Short sounds at the table.")
    vibration = StrictBooleanField(help_text="Vibrate on my turn, where the device can.")
    tap_twice = StrictBooleanField(help_text="A first tap on a card raises it, a second tap plays it.")


class SignupView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=s.SignupSerializer, responses={201: s.TokenSerializer, **ERRORS},
                   summary="Create an account and get an API token",
                   description="The token is this client's own (each log-in gives another); it expires after "
                               "a stretch unused. 400 `invalid` with `errors.username` for a name that breaks "
                               "the rules or looks like a taken one; 429 `throttled` for too many sign-ups "
                               "from one address.")
    def post(self, request: Request) -> Response:
        ser = s.SignupSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = commands.sign_up(
            username=ser.validated_data["username"],
            password=ser.validated_data["password"],
            email=ser.validated_data.get("email", ""),
        )
        _, key = commands.issue_token(user, _client(request))
        return Response({"token": key, "user_id": user.pk, "username": user.get_username()},
                        status=status.HTTP_201_CREATED)


class TokenView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=s.LoginSerializer, responses={200: s.TokenSerializer, **ERRORS},
                   summary="Exchange username and password for an API token",
                   description="A new token for this client (other clients keep theirs). 400 `bad_credentials`; "
                               "429 `throttled` for too many tries from one address or for one account, 429 "
                               "`locked_out` after too many failures for the account from this address (for the "
                               "cool-off, the right password too).")
    def post(self, request: Request) -> Response:
        ser = s.LoginSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = authenticate(request._request, username=ser.validated_data["username"],
                            password=ser.validated_data["password"])
        if user is None:  # also an inactive (deactivated) account
            raise GameError("bad_credentials", "Wrong username or password, or the account is deactivated.")
        _, key = commands.issue_token(user, _client(request))
        return Response({"token": key, "user_id": user.pk, "username": user.get_username()})


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS},
                   summary="Log out: revoke the API token used, end the browser session",
                   description="Only this client's token is revoked; the sockets opened with it (or with this "
                               "session) close.")
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            commands.revoke_token(request.auth)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    @extend_schema(responses={200: s.MeSerializer, **ERRORS}, summary="The signed-in user")
    def get(self, request: Request) -> Response:
        u = signed_in(request)
        return Response({"id": u.pk, "username": u.get_username(), "email": u.email, "is_staff": u.is_staff,
                         "guest": reads.is_guest(u)})


class GuestView(APIView):
    """*Play now*: one tap makes a guest account and signs this browser in with it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=None, responses={201: s.GuestSerializer, 200: s.GuestSerializer, **ERRORS},
                   summary="Play now: a guest account for this browser (its session), no name or password asked",
                   description="A generated name (an adjective, an animal, digits); no password: the session "
                               "signs it in (the CSRF check of a session applies). A guest plays unrated only "
                               "(403 `guest_unrated` for a rated seek or table), may emote but not chat (403 "
                               "`guest_chat`), never appears on a leaderboard; *Keep my games* "
                               "(`/accounts/keep/`) names it. 200 with the account when this session is signed in "
                               "already; 429 `throttled` past the `guest` limit of new guests from one address.")
    def post(self, request: Request) -> Response:
        user = request.user
        if user is not None and user.is_authenticated:
            return Response({"user_id": user.pk, "username": user.get_username(), "guest": reads.is_guest(user)})
        SessionAuthentication().enforce_csrf(request)  # a session log-in: no other site may make one
        guest = commands.create_guest()
        login(request._request, guest, backend="django.contrib.auth.backends.ModelBackend")
        return Response({"user_id": guest.pk, "username": guest.get_username(), "guest": True},
                        status=status.HTTP_201_CREATED)


class KeepView(APIView):
    """*Keep my games* for a client that is no browser form: the guest becomes a full account, the same user row."""

    @extend_schema(request=s.KeepSerializer, responses={200: s.GuestSerializer, **ERRORS},
                   summary="Keep my games: a guest chooses a name and a password (the sign-up's rules)",
                   description="The same account, with every match, option and notice; this session stays "
                               "signed in. 400 `invalid` with `errors.username` or `errors.password` by the "
                               "sign-up's rules; 409 `not_a_guest` for an account kept already.")
    def post(self, request: Request) -> Response:
        user = signed_in(request)
        if not reads.is_guest(user):
            raise TableConflict("not_a_guest", "This account is kept already.")
        ser = s.KeepSerializer(data=request.data, context={"user": user})
        ser.is_valid(raise_exception=True)
        user = commands.keep_guest(user, username=ser.validated_data["username"],
                                   password=ser.validated_data["password"],
                                   email=ser.validated_data.get("email", ""))
        if request.auth is None:  # a session (the guest's own kind): it stays signed in after the new password
            update_session_auth_hash(request._request, user)
        return Response({"user_id": user.pk, "username": user.get_username(), "guest": False})


class SettingsView(APIView):
    @extend_schema(responses={200: SettingsSerializer, **ERRORS}, summary="My settings")
    def get(self, request: Request) -> Response:
        return Response(reads.settings_json(signed_in(request)))

    @extend_schema(request=SettingsSerializer, responses={200: SettingsSerializer, **ERRORS},
                   summary="Change my settings (email on your turn and reminders, the table's options)")
    def patch(self, request: Request) -> Response:
        ser = SettingsSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        email = data.pop("email_notifications", None)
        return Response(commands.update_settings(signed_in(request), email_notifications=email, table=data))


class TokenListView(APIView):
    @extend_schema(responses={200: s.ApiTokenSerializer(many=True), **ERRORS},
                   summary="My API tokens: one per client that logged in (the keys are not kept)")
    def get(self, request: Request) -> Response:
        current = request.auth if isinstance(request.auth, ApiToken) else None
        return Response(reads.tokens_json(signed_in(request), current))


class TokenDetailView(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS},
                   summary="Revoke one of my API tokens; the sockets opened with it close")
    def delete(self, request: Request, token_id: str) -> Response:
        if not commands.revoke_token_of(signed_in(request), token_id):
            raise NotFound("No such token of yours.")
        return Response(status=status.HTTP_204_NO_CONTENT)
