"""The ratings API: the leaderboard, a player's profile and one's rating change at a match (signed-in people).

The number people see is ``shown`` (1500 + 20 × (μ − 25), ``games.platform.rating_scale.shown``) with ``provisional``
while σ is above ``rating_scale.PROVISIONAL_SIGMA``; ``mu``, ``sigma`` and ``conservative`` (μ − 3σ) are the
model's, for programs."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.platform import rating_scale
from games.platform.errors import GameError, PlayerNotFound
from games.web.api_errors import ERRORS
from games.web.users import signed_in

from . import reads

YES, NO = ("1", "true", "yes"), ("0", "false", "no")

SHOWN_HELP = ("The rating people see: 1500 + 20 × (mu − 25), rounded; it rises after a good result and falls "
              "after a bad one. See /ratings/.")
PROVISIONAL_HELP = (f"True while sigma is above {rating_scale.PROVISIONAL_SIGMA} (about the first 10 rated matches): "
                    "the site shows the rating as `1500?`.")


def _rating_fields() -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    return {
        "shown": serializers.IntegerField(help_text=SHOWN_HELP),
        "provisional": serializers.BooleanField(help_text=PROVISIONAL_HELP),
        "text": serializers.CharField(help_text="`shown` as the site prints it: with a `?` while provisional."),
        "mu": serializers.FloatField(help_text="OpenSkill (Plackett-Luce) estimate of skill, for programs."),
        "sigma": serializers.FloatField(help_text="OpenSkill uncertainty of mu, for programs."),
        "conservative": serializers.FloatField(help_text="mu − 3 sigma, a cautious estimate, for programs; the "
                                                         "site shows `shown`."),
        "games": serializers.IntegerField(help_text="Rated matches played."),
    }


LeaderboardRow = inline_serializer("LeaderboardRow", {
    "rank": serializers.IntegerField(help_text="Settled ratings first, then the provisional ones."),
    "name": serializers.CharField(),
    "kind": serializers.ChoiceField(choices=["human", "bot", "bot_account"]),
    "username": serializers.CharField(allow_null=True),
    "bot": serializers.CharField(allow_null=True, help_text="The house bot level of a bot row."),
    "bot_account": serializers.BooleanField(),
    "fixed": serializers.BooleanField(help_text="A house bot of the bot ladder whose rating never moves."),
    **_rating_fields(),
}, many=True)
MatchChange = inline_serializer("MatchRatingChange", {
    "match_id": serializers.IntegerField(),
    "rank": serializers.IntegerField(help_text="My place at the match (1 best; ties share)."),
    "before": serializers.IntegerField(help_text="The shown rating before the match. " + SHOWN_HELP),
    "after": serializers.IntegerField(help_text="The shown rating after it."),
    "change": serializers.IntegerField(help_text="after − before."),
    "provisional_before": serializers.BooleanField(),
    "provisional": serializers.BooleanField(help_text=PROVISIONAL_HELP),
    "text_before": serializers.CharField(), "text": serializers.CharField(),
    "mu_before": serializers.FloatField(), "sigma_before": serializers.FloatField(),
    "mu": serializers.FloatField(), "sigma": serializers.FloatField(),
})


class LeaderboardView(APIView):
    @extend_schema(parameters=[OpenApiParameter("bots", bool, description="Include bot levels (default yes)"),
                               OpenApiParameter("board", str, enum=list(reads.BOARDS),
                                                description="`people` (default) or `bots`: bot accounts and the "
                                                            "house bot levels")],
                   responses={200: OpenApiResponse(LeaderboardRow, description=(
                       "Settled ratings by `shown` (highest first), then the provisional ones by `shown`.")),
                              **ERRORS},
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
    @extend_schema(responses={200: OpenApiResponse(description=(
        "`rating` (`shown`, `provisional`, `text`; `mu`, `sigma`, `conservative` for programs), `history` (each "
        "rated match: `shown` after it, its `change`, `provisional`) and `stats` over the latest 200 finished "
        "matches, with `bot_levels`: per bot level met, matches `played`, `won` and `mean_place`.")), **ERRORS},
        summary="A player's profile")
    def get(self, request: Request, username: str) -> Response:
        data = reads.profile(username)
        if data is None:
            raise PlayerNotFound()
        return Response(data)


class NotRatedYet(GameError):
    status = 404

    def __init__(self) -> None:
        super().__init__("not_rated", "You have no rating change at this match (not rated, or not yet).")


class MatchRatingView(APIView):
    @extend_schema(responses={200: MatchChange, **ERRORS}, summary="My rating change at a match")
    def get(self, request: Request, match_id: int) -> Response:
        data = reads.match_change(signed_in(request).pk, match_id)
        if data is None:
            raise NotRatedYet()
        return Response(data)
