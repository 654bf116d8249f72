"""Request and response examples for the OpenAPI description of API v1.

Every operation shows at least one example of each JSON body it takes or returns, and its
typical errors in the one error contract, so a competitor can write a client from the docs
alone. The values are illustrative: ids are opaque and never mean anything.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

CHALLENGE_ID = "ch-7d419e9b2c5a4f10"
ATTEMPT_ID = "att-9c0e1f2a3b4c5d6e"
SUBMISSION_ID = "sub-3f2a9c1d0b7e4a55"
WORKSPACE = "ws-51be0c7d9a2f4e18"
BOUT_ID = "bout-b7e2a9c4d1f0c8d2"
BASE = "https://gauntlet.example.org"

BOUT = {
    "id": BOUT_ID, "name": "November bout", "state": "active",
    "starts_at": "2026-11-30T09:00:00Z", "ends_at": "2026-11-30T13:00:00Z",
    "attempts_per_challenge": 3, "submissions_per_attempt": 10,
    "challenges": [
        {"id": CHALLENGE_ID, "language": "python", "tier": 2, "points": "2"},
        {"id": "ch-0a4e8c1f6b2d9e37", "language": "javascript", "tier": 3, "points": "3"},
    ],
}

ATTEMPT = {
    "id": ATTEMPT_ID, "challenge": CHALLENGE_ID, "language": "python", "number": 1, "state": "open",
    "started_at": "2026-11-30T10:00:00Z", "expires_at": "2026-11-30T12:00:00Z",
    "workspace": {
        "name": WORKSPACE,
        "tarball_url": f"{BASE}/api/v1/attempts/{ATTEMPT_ID}/workspace.tar.gz",
        "clone_url": f"{BASE}/git/{WORKSPACE}.git",
    },
    "submissions_url": f"{BASE}/api/v1/attempts/{ATTEMPT_ID}/submissions",
    "submissions_left": 10,
}

SUBMISSION = {
    "id": SUBMISSION_ID, "attempt": ATTEMPT_ID, "state": "queued", "result": "pending",
    "reason": "", "tests": {"passed": None, "failed": None}, "received_at": "2026-11-30T10:41:12Z",
    "evaluated_at": None,
}
SUBMISSION_SOLVED = {
    **SUBMISSION, "state": "done", "result": "solved", "reason": "all 14 hidden tests passed",
    "tests": {"passed": 14, "failed": 0}, "evaluated_at": "2026-11-30T10:41:15Z",
}
SUBMISSION_NOT_SOLVED = {
    **SUBMISSION, "state": "done", "result": "not_solved", "reason": "3 of 14 hidden tests failed",
    "tests": {"passed": 11, "failed": 3}, "evaluated_at": "2026-11-30T10:41:15Z",
}

PATCH = "--- a/src/ledger.py\n+++ b/src/ledger.py\n@@ -1 +1 @@\n-x = a <= b\n+x = a < b\n"


def error(code: str, message: str, status: int, extra: dict[str, Any] | None = None, *,
          name: str | None = None) -> OpenApiExample:
    """An error response example in the one error contract."""
    return OpenApiExample(
        name or code, response_only=True, status_codes=[str(status)],
        value={"code": code, "message": message, "extra": extra or {}},
    )


def common_errors() -> list[OpenApiExample]:
    """The errors every keyed operation can answer."""
    return [
        error("not_authenticated", "Authentication credentials were not provided.", 401),
        error("invalid_key", "Unknown or revoked API key.", 401),
        error("not_found", "Not found.", 404),
        error("throttled", "Too many requests; retry later.", 429, {"retry_after_seconds": 12}),
    ]


NOT_FOUND = error("not_found", "Not found.", 404)
INVALID_BODY = error("invalid", "The request is invalid; see extra.fields.", 400,
                     {"fields": {"surprise": ["Unknown field."]}})
UNSUPPORTED_MEDIA = error("unsupported_media_type", 'Unsupported media type "text/plain" in request.', 415)
