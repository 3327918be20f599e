"""The Bot API: the upgrade to a bot account and the bot's event stream (NDJSON, one long-lived response).

The stream (``GET /api/bot/events/``) sends one JSON object a line: first ``{"type": "hello", "last_id": n}``,
then every event recorded for the bot with an id above ``since`` (``?since=``, else the ``Last-Event-ID``
header; without either, the events still awaiting an answer (``reads.pending_events``) and then the new ones),
each with its ``id``, and ``{"type": "heartbeat", "last_id": n}``
every ``BOT_EVENTS_HEARTBEAT_SECONDS`` while nothing happens. A client that reconnects with the last id it
saw misses nothing: events are rows (``games.bots.models.BotEvent``); the channel layer only wakes the stream.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import logout
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import reads as account_reads
from games.accounts.models import ApiToken
from games.accounts.sockets import credential_valid
from games.platform.errors import Forbidden, GameError
from games.platform.groups import bot_events_group
from games.web.api_errors import ERRORS
from games.web.users import signed_in

from . import commands, reads

log = logging.getLogger(__name__)


class UpgradeView(APIView):
    @extend_schema(request=None, responses={201: OpenApiResponse(description="`{username, bot_account: true}`"),
                                            200: OpenApiResponse(description="Already a bot account"), **ERRORS},
                   summary="Turn my account into a bot account (for good)",
                   description="Only an account that has played no rated match (409 `rated_matches`); never staff "
                               "(400 `staff_account`). A bot account signs in with API tokens only, is shown with "
                               "a bot badge and is rated on the bots' leaderboard. There is no way back.")
    def post(self, request: Request) -> Response:
        user = signed_in(request)
        _, created = commands.upgrade(user)
        if not isinstance(request.auth, ApiToken):  # a browser session: bot accounts do not use those
            logout(request._request)
        return Response({"username": user.get_username(), "bot_account": True},
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


SINCE = OpenApiParameter("since", int, description="Resume after this event id (else `Last-Event-ID`; without "
                                                    "either: the events still awaiting an answer, then new ones).")
FOLLOW = OpenApiParameter("follow", int, description="0: send what is stored after `since` and end (default 1).")


class EventStreamView(APIView):
    @extend_schema(parameters=[SINCE, FOLLOW],
                   responses={200: OpenApiResponse(description="`application/x-ndjson`: hello, events, heart-beats"),
                              **ERRORS},
                   summary="A bot account's events: your_turn, invited, match_over (NDJSON, long-lived)",
                   description="Each line is a JSON object with `type`: `hello` (`last_id`), `your_turn` "
                               "(`id`, `match_id`, `seq`), `invited` (`id`, `table_id`), `match_over` (`id`, "
                               "`match_id`), `heartbeat` (`last_id`). Reconnect with `?since=<last id seen>` "
                               "(or `Last-Event-ID`) to miss nothing. 403 `not_a_bot` for a person's account; "
                               "401 without an API token.")
    def get(self, request: Request) -> StreamingHttpResponse:
        user = signed_in(request)
        if not isinstance(request.auth, ApiToken):
            raise GameError("token_required", "The event stream takes an API token (Authorization: Token <key>).")
        if not account_reads.is_bot_account(user):
            raise Forbidden("not_a_bot", "Only a bot account has an event stream (POST /api/bot/account/upgrade/).")
        raw = request.query_params.get("since") or request.headers.get("Last-Event-ID")
        since = reads.parse_since(raw)
        if raw and since is None:
            raise GameError("bad_since", "`since` is an event id (digits).")
        follow = request.query_params.get("follow", "1") != "0"
        pending: list[dict[str, Any]] = []
        if since is None:
            since, pending = reads.newest_id(user.pk), reads.pending_events(user.pk)
        response = StreamingHttpResponse(_stream(user.pk, request.auth.digest, since, follow, pending),
                                         content_type="application/x-ndjson")
        response["Cache-Control"] = "no-store"
        response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
        return response


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


async def _stream(user_id: int, digest: str, since: int, follow: bool,
                  pending: list[dict[str, Any]]) -> AsyncIterator[bytes]:
    """Hello, the ``pending`` events (a stream opened without ``since``), the stored events after ``since``,
    then new ones as they are recorded (woken by the channel layer, read from the database), heart-beats in
    between; ends when the token stops holding."""
    layer = get_channel_layer()
    channel = await layer.new_channel() if layer is not None and follow else None
    group = bot_events_group(user_id)
    last = since
    heartbeat = float(settings.BOT_EVENTS_HEARTBEAT_SECONDS)
    try:
        if channel is not None:
            await layer.group_add(group, channel)
        yield _line({"type": "hello", "last_id": last})
        for event in pending:
            yield _line(event)
        while True:
            events = await database_sync_to_async(reads.events_after)(user_id, last)
            for event in events:
                last = int(event["id"])
                yield _line(event)
            if len(events) == reads.PAGE:
                continue
            if channel is None:
                return
            try:
                await asyncio.wait_for(layer.receive(channel), timeout=heartbeat)
            except TimeoutError:
                if not await database_sync_to_async(credential_valid)(user_id, digest, None):
                    return
                yield _line({"type": "heartbeat", "last_id": last})
    finally:
        if channel is not None:
            try:
                await layer.group_discard(group, channel)
            except Exception:  # the group expires on its own
                log.warning("a bot event stream could not leave its group", exc_info=True)
