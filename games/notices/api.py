"""The notices API: my latest notices."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.web.api_errors import ERRORS
from games.web.users import signed_in

from . import reads


class NoticeListView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="My latest notices"), **ERRORS},
                   summary="My notifications")
    def get(self, request: Request) -> Response:
        return Response(reads.latest_notices(signed_in(request)))
