"""Competition domain errors with stable codes (rendered by the API error contract)."""

from core.errors import ApplicationError, Conflict, NotFound, PermissionDenied, ValidationFailed


class BoutNotAccepting(Conflict):
    code = "bout_not_active"


class QuotaExceeded(ApplicationError):
    code = "quota_exceeded"
    http_status = 429


class IdempotencyMismatch(ApplicationError):
    code = "idempotency_key_reused"
    http_status = 422


class PatchInvalid(ValidationFailed):
    code = "patch_invalid"


__all__ = [
    "ApplicationError", "BoutNotAccepting", "Conflict", "IdempotencyMismatch", "NotFound", "PatchInvalid",
    "PermissionDenied", "QuotaExceeded", "ValidationFailed",
]
