"""The API's outer edge: a body cap checked before anything reads the body, and the JSON
error contract for every error under ``/api/``, whoever produced it.

It sits first in ``MIDDLEWARE`` so it wraps everything else:

- a path holding a control character answers 404 (no id holds one);
- a request whose ``Content-Length`` exceeds ``DATA_UPLOAD_MAX_MEMORY_SIZE`` answers 413
  ``request_too_large`` at once, without reading a byte of the body (a chunked body, whose
  length is unknown, answers 411 ``length_required``: Django would otherwise see it empty);
- an error response that is not JSON (Django's resolver 404, a 400 for a bad Host header, an
  uncaught exception's 500, and with DEBUG on the technical pages that show the URL map or a
  traceback) is replaced by ``{"code", "message", "extra"}`` for its status. So neither a
  debug page nor the URL map ever reaches an API client, whatever DEBUG says.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from api.exceptions import error_body, status_error_body

API_PREFIX = "/api/"


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def _body_refusal(request: HttpRequest) -> JsonResponse | None:
    raw_length = request.META.get("CONTENT_LENGTH") or ""
    if not raw_length:
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            return JsonResponse(status_error_body(411), status=411)
        return None
    try:
        length = int(raw_length)
    except ValueError:
        length = -1
    if length < 0:
        return JsonResponse(error_body("bad_request", "The Content-Length header is not a byte count."), status=400)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and length > limit:
        return JsonResponse(error_body("request_too_large", f"The request body is {length} bytes; the limit "
                                                            f"is {limit}.", {"limit_bytes": limit}), status=413)
    return None


class ApiEdgeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in request.path):
            # No id holds a control character; a NUL would also reach the database (PostgreSQL refuses it).
            return JsonResponse(status_error_body(404), status=404)
        refusal = _body_refusal(request)
        if refusal is not None:
            return refusal
        response = self.get_response(request)
        if response.status_code >= 400 and not _is_json(response):
            replaced = JsonResponse(status_error_body(response.status_code), status=response.status_code)
            for header in ("Allow", "Retry-After", "WWW-Authenticate"):
                if header in response:
                    replaced[header] = response[header]
            return replaced
        return response
