"""``POST /api/offline-matches/``: the replay of a match played offline, stored once the engine verified it.

201 with the stored match's row of "My matches"; 400 ``not_a_replay``, 403 ``not_yours``, 409 ``duplicate``,
413 ``too_large``, 422 ``verify_failed`` (the verifier's reason), and nothing stored.
"""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.matches import presenters
from games.web.api_errors import ERRORS, ErrorSerializer
from games.web.users import signed_in

from . import commands
from .serializers import OfflineMatchSerializer


class OfflineMatchView(APIView):
    @extend_schema(request=OfflineMatchSerializer,
                   responses={201: presenters.MatchSummarySerializer, **ERRORS,
                              422: OpenApiResponse(ErrorSerializer, description="The verifier's reason")},
                   summary="Upload a match played offline (its replay), verified and stored unrated")
    def post(self, request: Request) -> Response:
        user = signed_in(request)
        limit = int(settings.OFFLINE_REPLAY_MAX_BYTES)
        size = len(request.body)
        if size > limit:
            raise commands.too_large(size, limit)
        data = request.data
        doc = data.get("replay") if isinstance(data, dict) else None
        match = commands.upload(user, doc)
        seat = next(s.index for s in match.seats.all() if s.user_id == user.pk)
        return Response(presenters.match_summary(match, seat), status=status.HTTP_201_CREATED)
