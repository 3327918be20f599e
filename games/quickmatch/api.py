"""The quick-match API: press *Play online* (a seek), see it, cancel it. Thin views over the commands."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.web.api_errors import ERRORS
from games.web.bounds import StrictBooleanField
from games.web.users import signed_in

from . import commands, reads


class NewSeekSerializer(serializers.Serializer[Any]):
    pool = serializers.CharField(default="people", max_length=16,
                                 help_text="`people` (default), or `bots`: the bot ladder, for bot accounts only "
                                           "(and bot accounts seek there only).")
    pace = serializers.ChoiceField(choices=["live", "correspondence"], default="live",
                                   help_text="`live`: a short clock on every move; `correspondence`: a day a move.")
    rated = StrictBooleanField(default=True, help_text="Rated: people of close ratings, rated bot levels.")


class SeekSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text="`waiting`, `matched` or `cancelled`.")
    pool = serializers.CharField(help_text="`people` or `bots`.")
    pace = serializers.CharField()
    rated = serializers.BooleanField()
    match_id = serializers.IntegerField(allow_null=True, help_text="Once matched: the match to play.")
    waiting_since = serializers.DateTimeField()
    bots_after = serializers.FloatField(help_text="Seconds of waiting after which bots fill the empty seats.")


class QuickMatchView(APIView):
    @extend_schema(request=NewSeekSerializer, responses={201: SeekSerializer, **ERRORS},
                   summary="Play online: wait for three people (or bots after a short wait)",
                   description="409 `already_seeking` (with the waiting seek's `id`) while I wait already. The "
                               "account socket `/ws/me/` says `{\"type\": \"matched\", \"match_id\"}` once seated. "
                               "`\"pool\": \"bots\"` is the bot ladder (bot accounts only, always rated, the house "
                               "bots `heuristic` and `strong` after `QUICK_MATCH_BOT_POOL_AFTER` s): 403 `not_a_bot` "
                               "for a person, 403 `bots_pool_only` for a bot account in `people`, 400 `bad_pool`, "
                               "400 `ladder_is_rated`. 403 `guest_unrated` for a guest's rated seek. 409 "
                               "`too_many_matches` (with its `limit`) at the cap: a bot's matches at once, a "
                               "person's live quick matches at once (`QUICK_MATCH_MAX_LIVE_MATCHES`, 3; "
                               "correspondence is not capped); a waiting seek whose owner is at the cap waits until "
                               "one of those ends. Upgrading to a bot account cancels my waiting seek.")
    def post(self, request: Request) -> Response:
        ser = NewSeekSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        seek = commands.open_seek(signed_in(request), **ser.validated_data)
        seek.refresh_from_db()  # it may be seated already (the fourth person)
        return Response(reads.seek_json(seek), status=status.HTTP_201_CREATED)


class HereSerializer(serializers.Serializer[Any]):
    playing = serializers.IntegerField(help_text="People with a match page open now.")
    waiting = serializers.IntegerField(help_text="People waiting for a quick match now.")


class WhoIsHereView(APIView):
    @extend_schema(responses={200: HereSerializer, **ERRORS}, summary="Who is here: people playing and waiting now",
                   description="Changes arrive on `/ws/me/` as `{\"type\": \"here\", \"playing\", \"waiting\"}`.")
    def get(self, request: Request) -> Response:
        signed_in(request)
        return Response(commands.who_is_here())


class QuickMatchDetailView(APIView):
    @extend_schema(responses={200: SeekSerializer, **ERRORS}, summary="My quick-match request")
    def get(self, request: Request, seek_id: int) -> Response:
        return Response(reads.seek_json(reads.own_seek(signed_in(request), seek_id)))

    @extend_schema(request=None, responses={200: SeekSerializer, **ERRORS},
                   summary="Stop waiting (a request already seated stays `matched`)")
    def delete(self, request: Request, seek_id: int) -> Response:
        return Response(reads.seek_json(commands.cancel_seek(signed_in(request), seek_id)))
