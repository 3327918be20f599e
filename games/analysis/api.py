"""``GET /api/matches/{id}/analysis/?seat=N``: the strong bot's review of a person's seat of a finished match.

202 with its progress while it runs (queued now if it was never asked for), 200 with the
``callbreak-analysis/1`` document when done. Whoever may see the replay (the people at the match) may
see every person's analysis; a match one may not see is a 404, one still running a 409.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.matches import reads as match_reads
from games.matches import store as match_store
from games.matches.models import Match, Seat
from games.platform.errors import GameError, NotFinished
from games.web.api_errors import ERRORS
from games.web.bounds import ascii_int
from games.web.users import signed_in

from . import commands, reads
from .models import Analysis


class AnalysisView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("seat", int, description="The seat reviewed (a person's); mine by default")],
        responses={200: OpenApiResponse(description="A `callbreak-analysis/1` document"),
                   202: OpenApiResponse(description="`{status, done, total}` while it is computed"), **ERRORS},
        summary="The strong bot's review of a person's decisions in a finished match")
    def get(self, request: Request, match_id: int) -> Response:
        match, mine = match_reads.get_match_for_user(signed_in(request), match_id)
        if match.status != Match.Status.FINISHED:
            raise NotFinished("The match is not finished; its review is made at its end.")
        raw = request.query_params.get("seat")
        seat = mine.index
        if raw is not None:
            number = ascii_int(raw, 1)
            if number is None or number > 3:
                raise GameError("bad_seat", "A seat is 0, 1, 2 or 3.")
            seat = number
        if match_store.seats_of(match)[seat].kind != Seat.Kind.HUMAN:
            raise GameError("bad_seat", "Only people's seats are reviewed; that seat was a bot's.")
        analysis = commands.ensure(match, seat)
        if analysis.status == Analysis.Status.DONE and analysis.document is not None:
            return Response(analysis.document)
        return Response(reads.progress_json(analysis), status=status.HTTP_202_ACCEPTED)
