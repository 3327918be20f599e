"""Every API error is JSON ``{"code": "...", "detail": "..."}`` with a 4xx status.

DRF's exceptions, our domain errors and Django's 404/500 for paths under /api/ all end up here.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found, server_error
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import GameError

log = logging.getLogger(__name__)


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    detail = serializers.CharField()


# The error answers every API view documents.
ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 409)}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            msg = _first_message(value)
            return msg if key == "non_field_errors" else f"{key}: {msg}"
        return "Invalid input."
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "Invalid input."
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        return Response({"code": exc.code, "detail": exc.detail, **exc.extra}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        log.exception("unhandled API error", exc_info=exc)
        return Response({"code": "server_error", "detail": "Something went wrong."}, status=500)
    if isinstance(exc, exceptions.ValidationError):
        body: dict[str, Any] = {"code": "invalid", "detail": _first_message(exc.detail)}
        if isinstance(exc.detail, dict):
            body["errors"] = exc.detail
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        body = {"code": code, "detail": _first_message(exc.detail)}
    else:
        body = {"code": "error", "detail": str(exc)}
    response.data = body
    return response


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": "No such API endpoint."}, status=status.HTTP_404_NOT_FOUND)
    return page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "server_error", "detail": "Something went wrong."}, status=500)
    return server_error(request)
