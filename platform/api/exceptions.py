"""One error contract for the whole API: ``{"code": ..., "message": ..., "extra": {...}}``.

DRF exceptions, domain ``ApplicationError``s, and Django's own 404/500 for ``/api/`` paths
all render through here, so a client parses every failure the same way.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

from core.errors import ApplicationError

logger = logging.getLogger(__name__)

_DEFAULT_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "invalid_key",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "parse_error",
    exceptions.ValidationError: "invalid",
}


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"

    def __init__(self, limit: int):
        super().__init__(f"The request body is larger than {limit} bytes.", code=self.default_code)
        self.limit = limit


# A status answered outside DRF (Django's resolver, a middleware, a DEBUG page) -> its code.
STATUS_CODES = {
    400: ("bad_request", "The request is malformed."),
    401: ("not_authenticated", "Authentication credentials were not provided."),
    403: ("permission_denied", "You do not have permission to perform this action."),
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "Method not allowed."),
    406: ("not_acceptable", "Could not satisfy the request Accept header."),
    411: ("length_required", "Send the request body with a Content-Length header."),
    413: ("request_too_large", "The request body is too large."),
    415: ("unsupported_media_type", "Unsupported media type in the request."),
    429: ("throttled", "Too many requests; retry later."),
    500: ("server_error", "The server failed to handle this request; it has been logged."),
}


def status_error_body(status_code: int) -> dict[str, Any]:
    code, message = STATUS_CODES.get(status_code, ("server_error" if status_code >= 500 else "error",
                                                  "The request could not be handled."))
    return error_body(code, message)


def error_body(code: str, message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "extra": extra or {}}


def _code_for(exc: exceptions.APIException) -> str:
    for cls, code in _DEFAULT_CODES.items():
        if isinstance(exc, cls):
            if isinstance(exc, (exceptions.AuthenticationFailed, exceptions.ParseError)):
                detail_code = getattr(exc.detail, "code", None)
                if detail_code and detail_code not in {"authentication_failed", "parse_error"}:
                    return detail_code
            return code
    return getattr(exc, "default_code", "error")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.code, exc.message, exc.extra), status=exc.http_status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None  # Django turns it into a 500, rendered by server_error below

    headers: dict[str, str] = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None) is not None:
        headers["Retry-After"] = str(int(exc.wait) + (0 if float(exc.wait).is_integer() else 1))

    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        extra["fields"] = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        codes = exc.get_codes()
        extra["field_codes"] = codes if isinstance(codes, dict) else {"non_field_errors": codes}
        message = "The request is invalid; see extra.fields."
    elif isinstance(exc, RequestTooLarge):
        extra["limit_bytes"] = exc.limit
        message = str(exc.detail)
    elif isinstance(exc, exceptions.Throttled):
        extra["retry_after_seconds"] = int(headers.get("Retry-After", "0"))
        message = "Too many requests; retry later."
    else:
        message = str(exc.detail)
    return Response(error_body(_code_for(exc), message, extra), status=exc.status_code, headers=headers)


def not_found(request, exception=None) -> JsonResponse:
    return JsonResponse(error_body("not_found", "Not found."), status=status.HTTP_404_NOT_FOUND)


def server_error(request) -> JsonResponse:
    return JsonResponse(
        error_body("server_error", "The server failed to handle this request; it has been logged."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
