"""The friends API: my friends list, follow / unfollow, block / unblock, challenge. Thin views over
``games.friends.commands`` and ``games.friends.reads``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.tables import reads as table_reads
from games.tables.api import TableSerializer
from games.web.api_errors import ERRORS
from games.web.bounds import StrictBooleanField
from games.web.users import signed_in

from . import commands, reads


class PlayingSerializer(serializers.Serializer[Any]):
    match_id = serializers.IntegerField()
    live = serializers.BooleanField(help_text="At the live pace (a minute a move or less).")
    watch_url = serializers.CharField(allow_null=True, help_text="Null for a private table's match.")


class FriendSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    online = serializers.BooleanField(help_text="A page of the site open now.")
    follows_you = serializers.BooleanField()
    rating = serializers.CharField(allow_null=True, help_text="The shown rating (`1500?` while provisional).")
    playing = PlayingSerializer(many=True, help_text="Running matches they play (at most 3).")
    since = serializers.DateTimeField()


class FriendsSerializer(serializers.Serializer[Any]):
    friends = FriendSerializer(many=True, help_text="Everyone I follow, online ones first.")
    blocked = serializers.ListField(child=serializers.CharField(), help_text="The people I block.")


class FollowSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    following = serializers.BooleanField()
    follows_you = serializers.BooleanField()
    blocking = serializers.BooleanField()


class ChallengeSerializer(serializers.Serializer[Any]):
    move_seconds = serializers.ChoiceField(choices=list(table_reads.MOVE_SECONDS_CHOICES), default=commands.LIVE,
                                           help_text="60 (live, the default) or 1, 2, 3, 7, 14 days in seconds.")
    rated = StrictBooleanField(default=False)


def _standing(request: Request, username: str) -> Response:
    user = signed_in(request)
    other = commands.person(username)
    return Response({"username": other.get_username(), **reads.standing(user, other)})


class FriendsView(APIView):
    @extend_schema(responses={200: FriendsSerializer, **ERRORS}, summary="My friends: online now, playing what")
    def get(self, request: Request) -> Response:
        return Response(reads.friends_json(signed_in(request)))


class FollowView(APIView):
    @extend_schema(request=None, responses={200: FollowSerializer, **ERRORS}, summary="Follow a person",
                   description="Idempotent. 404 for no such person (or a bot account); 400 `yourself`; 403 "
                               "`blocked` between two who blocked one another; 409 `too_many_follows`; 429 past the "
                               "`following` rate limit.")
    def put(self, request: Request, username: str) -> Response:
        commands.follow(signed_in(request), username)
        return _standing(request, username)

    @extend_schema(request=None, responses={200: FollowSerializer, **ERRORS}, summary="Unfollow a person")
    def delete(self, request: Request, username: str) -> Response:
        commands.unfollow(signed_in(request), username)
        return _standing(request, username)


class BlockView(APIView):
    @extend_schema(request=None, responses={200: FollowSerializer, **ERRORS}, summary="Block a person",
                   description="Follows either way end; neither may then invite, challenge, chat with or sit at a "
                               "table with the other (403 `blocked` at each door), and quick match never seats them "
                               "together. Idempotent.")
    def put(self, request: Request, username: str) -> Response:
        commands.block(signed_in(request), username)
        return _standing(request, username)

    @extend_schema(request=None, responses={200: FollowSerializer, **ERRORS}, summary="Unblock a person")
    def delete(self, request: Request, username: str) -> Response:
        commands.unblock(signed_in(request), username)
        return _standing(request, username)


class ChallengeView(APIView):
    @extend_schema(request=ChallengeSerializer, responses={201: TableSerializer, **ERRORS},
                   summary="Challenge a person: a private table with them invited",
                   description="A private table with me at seat 0 and them invited to seat 1; they are told by a "
                               "notice (`challenge`: their tabs on `/ws/me/`, an email, a push) and take the seat by "
                               "joining the table. 403 `blocked`, `guest_challenge`; 409 `too_many_tables`; 429 past "
                               "the `challenges` rate limit.")
    def post(self, request: Request, username: str) -> Response:
        ser = ChallengeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        user = signed_in(request)
        table = commands.challenge(user, username, **ser.validated_data)
        return Response(table_reads.table_json(table_reads.visible_table(user, table.pk), user),
                        status=status.HTTP_201_CREATED)
