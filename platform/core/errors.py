"""The platform's domain errors: one hierarchy, stable machine-readable codes.

Services raise these; the API renders them as ``{"code", "message", "extra"}`` and the
admin and commands show ``message``. ``code`` values are part of the public contract.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    code = "application_error"
    http_status = 400

    def __init__(self, message: str, *, code: str | None = None, extra: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra = extra or {}


class ValidationFailed(ApplicationError):
    code = "invalid"
    http_status = 400


class NotFound(ApplicationError):
    code = "not_found"
    http_status = 404


class Conflict(ApplicationError):
    code = "conflict"
    http_status = 409


class PermissionDenied(ApplicationError):
    code = "permission_denied"
    http_status = 403
