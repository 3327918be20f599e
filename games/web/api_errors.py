"""Every API error is JSON ``{"code": "...", "detail": "..."}`` with a 4xx status.

DRF's exceptions, our domain errors and Django's 404/500 for paths under /api/ all end up here.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found, server_error
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.platform.errors import GameError
from games.platform.passwords import HashingBusy
from games.web.bounds import BAD_JSON, too_large_body

log = logging.getLogger(__name__)


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    detail = serializers.CharField()


# The error answers every API view documents (413: a body over the size limit; 429: a rate limit, with
# Retry-After).
ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 409, 413, 429)}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            msg = _first_message(value)
            return msg if key == "non_field_errors" else f"{key}: {msg}"
        return "Invalid input."
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "Invalid input."
    return str(detail)


# A wait for a pooled database connection that outlasted the pool's timeout: the site is busy, not broken.
POOL_WAIT_RETRY_AFTER = 5


def unavailable(exc: BaseException | None) -> tuple[dict[str, str], int] | None:
    """The 503 body and Retry-After seconds for a fault that is the service's, not the request's: the database
    went away mid-request (nothing was saved), every pooled connection stayed busy too long, or every
    password-hashing slot did (``games.platform.passwords``). None for any other exception."""
    if isinstance(exc, HashingBusy):
        return {"code": "busy", "detail": "Too many people are signing up or logging in; try again shortly."}, \
            exc.retry_after
    if isinstance(exc, OperationalError | InterfaceError):
        waited = type(exc.__cause__).__name__ in ("PoolTimeout", "TooManyRequests")  # psycopg_pool's
        return ({"code": "unavailable", "detail": "The service is briefly unavailable; try again."},
                POOL_WAIT_RETRY_AFTER if waited else 1)
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, GameError):
        return Response({"code": exc.code, "detail": exc.detail, **exc.extra}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, RequestDataTooBig):
        return Response(too_large_body(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0), status=413)
    if isinstance(exc, RecursionError):  # JSON or form data nested beyond what the parser takes
        return Response({"code": BAD_JSON, "detail": "The body is nested too deeply."}, status=400)
    busy = unavailable(exc)
    if busy is not None:
        log.warning("%s during %s", busy[0]["code"], context.get("request"), exc_info=exc)
        return Response(busy[0], status=503, headers={"Retry-After": str(busy[1])})
    if isinstance(exc, SuspiciousOperation):  # e.g. too many form fields
        return Response({"code": "bad_request", "detail": str(exc) or "Bad request."}, status=400)
    response = drf_exception_handler(exc, context)
    if response is None:
        log.exception("unhandled API error", exc_info=exc)
        return Response({"code": "server_error", "detail": "Something went wrong."}, status=500)
    if isinstance(exc, exceptions.ValidationError):
        body: dict[str, Any] = {"code": "invalid", "detail": _first_message(exc.detail)}
        if isinstance(exc.detail, dict):
            body["errors"] = exc.detail
    elif isinstance(exc, exceptions.Throttled):  # a rate limit: Retry-After is set by DRF's handler
        wait = int(getattr(exc, "wait", None) or 1)
        body = {"code": "throttled", "detail": _first_message(exc.detail), "retry_after": wait,
                "scope": getattr(exc, "scope", None)}
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
    """Django's answer to an exception no view answered (in a page, or in a middleware under /api/ too): 503 with
    Retry-After for a fault of the service (``unavailable``), 500 otherwise."""
    busy = unavailable(sys.exc_info()[1])
    if busy is not None:
        body, wait = busy
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse(body, status=503)
        else:
            response = HttpResponse(body["detail"], status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "server_error", "detail": "Something went wrong."}, status=500)
    return server_error(request)
