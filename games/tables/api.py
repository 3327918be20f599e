"""The tables API: the lobby, a table, joining, leaving, bots, starting. Thin views over
``games.tables.commands`` and ``games.tables.reads``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.web.api_errors import ERRORS
from games.web.bounds import StrictBooleanField
from games.web.users import signed_in

from . import commands, reads


class NewTableSerializer(serializers.Serializer[Any]):
    visibility = serializers.ChoiceField(choices=["public", "private"], default="public")
    move_seconds = serializers.ChoiceField(choices=list(reads.MOVE_SECONDS_CHOICES), default=reads.DAY,
                                           help_text="60 (live) or 1, 2, 3, 7, 14 days in seconds.")
    rated = StrictBooleanField(default=True, help_text="Rated tables seat people and the rated bot levels only.")


class JoinSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=3)
    code = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                 help_text="Invitation code (needed for a private table).")


class BotsSerializer(serializers.Serializer[Any]):
    bot = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=32,
                                help_text="A bot level; a rated table takes the rated levels only "
                                          f"({', '.join(commands.RATED_BOT_LEVELS)}).")
    seats = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=3), required=False)


class TableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    host = serializers.CharField()
    visibility = serializers.CharField()
    move_seconds = serializers.IntegerField()
    rated = serializers.BooleanField()
    status = serializers.CharField()
    seats = serializers.JSONField()
    invite_code = serializers.CharField(allow_null=True, help_text="Shown to members and code holders only.")
    room_code = serializers.CharField(allow_null=True, help_text="A private open table's short code to read out "
                                                                 "(6 characters); to members and code holders only.")
    match_id = serializers.IntegerField(allow_null=True, help_text="Once started; members only.")


def _valid(ser_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    ser = ser_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return dict(ser.validated_data)


LOBBY_PAGE, LOBBY_PAGE_MAX = 50, 100


class LobbyPageSerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(min_value=1, max_value=LOBBY_PAGE_MAX, default=LOBBY_PAGE)
    before = serializers.IntegerField(min_value=1, required=False, help_text="The next page's cursor: a table id.")


class TableListView(APIView):
    @extend_schema(parameters=[LobbyPageSerializer],
                   responses={200: TableSerializer(many=True), **ERRORS},
                   summary="The lobby: open public tables and the open tables I sit at, newest first",
                   description="A page of at most `limit` tables (50 by default, 100 at most); when there may be "
                               "more, the `Link` header names the next page (`rel=\"next\"`, with `before`).")
    def get(self, request: Request) -> Response:
        page = LobbyPageSerializer(data=request.query_params)
        page.is_valid(raise_exception=True)
        limit = page.validated_data["limit"]
        user = signed_in(request)
        tables = reads.lobby_page(user, limit=limit, before=page.validated_data.get("before"))
        response = Response([reads.table_json(t, user) for t in tables])
        if len(tables) == limit:
            response["Link"] = f'</api/tables/?limit={limit}&before={tables[-1].pk}>; rel="next"'
        return response

    @extend_schema(request=NewTableSerializer, responses={201: TableSerializer, **ERRORS},
                   summary="Create a table (I sit at seat 0 and host it)")
    def post(self, request: Request) -> Response:
        data = _valid(NewTableSerializer, request)
        table = commands.create_table(signed_in(request), **data)
        return Response(reads.table_json(table, signed_in(request)), status=status.HTTP_201_CREATED)


CODE_PARAM = OpenApiParameter("code", str, description="Invitation code of a private table")


class TableDetailView(APIView):
    @extend_schema(parameters=[CODE_PARAM], responses={200: TableSerializer, **ERRORS}, summary="A table")
    def get(self, request: Request, table_id: int) -> Response:
        code = request.query_params.get("code")
        table = reads.visible_table(signed_in(request), table_id, code)
        return Response(reads.table_json(table, signed_in(request), code))


class TableByCodeView(APIView):
    @extend_schema(responses={200: TableSerializer, **ERRORS}, summary="A table by its invitation code")
    def get(self, request: Request, code: str) -> Response:
        table = reads.table_by_code(code)
        return Response(reads.table_json(table, signed_in(request), code))


class JoinByCodeSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=32, help_text="The room code the host reads out, in any case; spaces "
                                                          "and dashes between its characters are ignored.")


class TableJoinByCodeView(APIView):
    @extend_schema(request=JoinByCodeSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Join a private table by its room code",
                   description="Takes the first empty seat at the open table with this code (as `join` with its "
                               "invitation), or answers the table when I sit there already. 400 `bad_code` for "
                               "text that cannot be a code (6 of `23456789ABCDEFGHJKMNPQRSTUVWXYZ`); 404 "
                               "`no_such_code` when no open table has it; 409 `table_full`; 429 past the "
                               "`join_code` rate limit (20 a minute by default).")
    def post(self, request: Request) -> Response:
        data = _valid(JoinByCodeSerializer, request)
        user = signed_in(request)
        table = commands.join_by_room_code(user, data["code"])
        return Response(reads.table_json(table, user, table.invite_code))


class TableJoinView(APIView):
    @extend_schema(request=JoinSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Take a seat (the first empty one unless `seat` is given)")
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(JoinSerializer, request)
        code = data.get("code") or None
        table = commands.join_table(signed_in(request), table_id, seat=data.get("seat"), code=code)
        return Response(reads.table_json(table, signed_in(request), code))


class TableLeaveView(APIView):
    @extend_schema(request=None, responses={200: TableSerializer, **ERRORS}, summary="Leave before the start")
    def post(self, request: Request, table_id: int) -> Response:
        table = commands.leave_table(signed_in(request), table_id)
        return Response(reads.table_json(table, signed_in(request)))


class TableBotsView(APIView):
    @extend_schema(request=BotsSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Host: fill empty seats with bots of a level",
                   description="400 `unknown_bot` for a level that does not exist; 400 `unrated_bot` at a rated "
                               "table for a level without a rating of its own (`random`): a rated match seats "
                               f"people and the levels {', '.join(commands.RATED_BOT_LEVELS)} only.")
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(BotsSerializer, request)
        table = commands.fill_bots(signed_in(request), table_id, bot=data.get("bot"), seats=data.get("seats"))
        return Response(reads.table_json(table, signed_in(request)))


class TableClearSeatView(APIView):
    @extend_schema(request=None, responses={200: TableSerializer, **ERRORS}, summary="Host: remove a bot")
    def post(self, request: Request, table_id: int, index: int) -> Response:
        table = commands.clear_seat(signed_in(request), table_id, index)
        return Response(reads.table_json(table, signed_in(request)))


class TableStartView(APIView):
    @extend_schema(request=None, responses={201: TableSerializer, **ERRORS},
                   summary="Host: start the match (every seat taken)",
                   description="409 `seats_empty` until every seat is taken; 400 `unrated_bot` at a rated table "
                               "with a bot level that is not rated.")
    def post(self, request: Request, table_id: int) -> Response:
        commands.start_table(signed_in(request), table_id)
        table = reads.visible_table(signed_in(request), table_id)
        return Response(reads.table_json(table, signed_in(request)), status=status.HTTP_201_CREATED)


class RematchWaitingSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()


class RematchSerializer(serializers.Serializer[Any]):
    type = serializers.CharField(help_text="`rematch` (the same shape is sent on `/ws/me/`).")
    match_id = serializers.IntegerField(help_text="The finished match.")
    status = serializers.CharField(help_text="`none` (nobody asked), `pending` (waiting for yes), `started`, "
                                             "`cancelled` (said no to or timed out: may be asked again).")
    asked_by = serializers.CharField(allow_null=True)
    asked_by_seat = serializers.IntegerField(allow_null=True)
    waiting = RematchWaitingSerializer(many=True, help_text="The people whose yes it still waits for.")
    new_match_id = serializers.IntegerField(allow_null=True, help_text="Once started: the rematch.")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="While pending: called off at this time.")
    reason = serializers.CharField(allow_null=True, help_text="On the socket, when called off: `declined`, `timeout`.")
    by = serializers.CharField(allow_null=True, help_text="On the socket: who said no.")
    you_to_answer = serializers.BooleanField(help_text="Pending, and your yes is awaited.")


class RematchAnswerSerializer(serializers.Serializer[Any]):
    answer = serializers.ChoiceField(choices=["yes", "no"])


class RematchView(APIView):
    @extend_schema(responses={200: RematchSerializer, **ERRORS}, summary="How the rematch of a finished match stands")
    def get(self, request: Request, match_id: int) -> Response:
        user = signed_in(request)
        return Response(reads.rematch_json(match_id, reads.rematch_of(reads.seated_match(user, match_id)), user))

    @extend_schema(request=None, responses={201: RematchSerializer, 200: RematchSerializer, **ERRORS},
                   summary="One-tap rematch: the same seats (bots at their levels), pace and rating",
                   description="Asking is saying yes. With no other person seated it starts at once (`started`, "
                               "`new_match_id`); otherwise it is `pending` until every person says yes (POST "
                               "`answer/`), each told on `/ws/me/` (a `rematch` message) and by a notice. 201 when "
                               "this call asked it; 200 when it was asked already (the tap was a yes to it: a double "
                               "tap or two taps at once make one rematch). 409 `not_finished`; 404 for a match you "
                               "have no seat at; 400 `no_table` for a match against bots (start another); 400 "
                               "`unrated_bot`, 409 `player_gone`, `too_many_matches` when a rated table's rules or a "
                               "seat's account no longer allow it.")
    def post(self, request: Request, match_id: int) -> Response:
        user = signed_in(request)
        table, created = commands.ask_rematch(user, match_id)
        answer = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(reads.rematch_json(match_id, reads.rematch_of(match_id), user), status=answer)


class RematchAnswerView(APIView):
    @extend_schema(request=RematchAnswerSerializer, responses={200: RematchSerializer, **ERRORS},
                   summary="Answer the pending rematch: yes or no",
                   description="The last yes starts it (`started`, `new_match_id`); a no calls it off and the others "
                               "are told. 404 `not_found` when nobody asked (or no seat of yours); 403 `not_seated` "
                               "for a bot account's seat (it stays without answering); 409 `already_answered` "
                               "(with `match_id` once started), `rematch_cancelled` (said no to or timed out: ask "
                               "again), `not_finished`.")
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(RematchAnswerSerializer, request)
        user = signed_in(request)
        commands.answer_rematch(user, match_id, yes=data["answer"] == "yes")
        return Response(reads.rematch_json(match_id, reads.rematch_of(match_id), user))


class RematchLeaveView(APIView):
    # a beacon from a page that goes carries no header: its CSRF token comes as a form field
    parser_classes = [FormParser]

    @extend_schema(request=None, responses={200: RematchSerializer, **ERRORS},
                   summary="Leaving a live match's end screen: its pending rematch is called off",
                   description="Sent by the end screen when its page closes or goes elsewhere (a keep-alive "
                               "request). A live match's pending rematch would seat the leaver absent: it is called "
                               "off (`cancelled`, reason `left`) and the others are told. A correspondence "
                               "rematch waits on; with nothing pending nothing changes. 404 for a match you have no "
                               "seat at.")
    def post(self, request: Request, match_id: int) -> Response:
        user = signed_in(request)
        commands.leave_rematch(user, match_id)
        return Response(reads.rematch_json(match_id, reads.rematch_of(match_id), user))


class InviteBotSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, help_text="The bot account's name.")


class AnswerSerializer(serializers.Serializer[Any]):
    accept = StrictBooleanField(help_text="true: take the seat; false: decline (the seat is free again).")


class TableInviteBotView(APIView):
    @extend_schema(request=InviteBotSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Host: invite a bot account by name to an empty seat",
                   description="The seat waits (`kind: invited`) until the bot accepts or declines; the bot gets "
                               "an `invited` event. 404 when no bot account has that name; 409 `seat_taken`, "
                               "`already_seated`.")
    def post(self, request: Request, table_id: int, index: int) -> Response:
        data = _valid(InviteBotSerializer, request)
        table = commands.invite_bot(signed_in(request), table_id, index, data["username"])
        return Response(reads.table_json(table, signed_in(request)))


class TableInvitationView(APIView):
    @extend_schema(request=AnswerSerializer, responses={200: TableSerializer, **ERRORS},
                   summary="Bot account: accept or decline my invitation to this table",
                   description="404 without an invitation; 409 `too_many_matches` past the bot's cap of "
                               "matches at once.")
    def post(self, request: Request, table_id: int) -> Response:
        data = _valid(AnswerSerializer, request)
        table = commands.answer_invitation(signed_in(request), table_id, accept=data["accept"])
        return Response(reads.table_json(table, signed_in(request)))
