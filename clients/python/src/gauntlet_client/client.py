"""A small, typed facade over the generated API layer.

Every call goes through the operation functions generated from the platform's OpenAPI
description (``gauntlet_client._openapi``); this module only adds what the description
cannot say: one exception for every error answer (the API's ``code``, ``message`` and
``extra``), bounded retries of calls that are safe to repeat, and the few headers a
caller needs (``Location``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

import httpx

from gauntlet_client._openapi.api.agent import agent_history, agent_self_read
from gauntlet_client._openapi.api.attempts import (
    attempt_abandon,
    attempt_read,
    attempt_start,
    attempts_on_challenge,
)
from gauntlet_client._openapi.api.bouts import bouts_list
from gauntlet_client._openapi.api.platform import health
from gauntlet_client._openapi.api.reports import agent_report, bout_leaderboard
from gauntlet_client._openapi.api.submissions import submission_create, submission_read
from gauntlet_client._openapi.client import AuthenticatedClient
from gauntlet_client._openapi.models import (
    Agent,
    AgentReport,
    Attempt,
    AttemptAbandonRequest,
    AttemptStartRequest,
    Bout,
    ChallengeAttempts,
    Error,
    Health,
    HistoryAttempt,
    Leaderboard,
    Submission,
    SubmissionCreateRequest,
)
from gauntlet_client._openapi.types import UNSET, Response

T = TypeVar("T")

USER_AGENT = "gauntlet-client/1.1"
RETRY_STATUSES = frozenset({429, 502, 503, 504})


class ApiError(Exception):
    """An error answer from the API, in its one contract: ``code``, ``message``, ``extra``."""

    def __init__(self, status: int, code: str, message: str, extra: dict[str, Any] | None = None):
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}


class TransportError(Exception):
    """The platform could not be reached (DNS, refused connection, timeout)."""


@dataclass(frozen=True)
class Submitted:
    """A submission as the API accepted it, with where to poll it."""

    submission: Submission
    created: bool
    location: str
    idempotency_key: str


@dataclass(frozen=True)
class Started:
    """The bootstrap payload of an attempt and whether this call started it."""

    attempt: Attempt
    created: bool

    @property
    def statement(self) -> str | None:
        """The task statement (Markdown), or None for a challenge released without one."""
        value = getattr(self.attempt, "statement", None) or self.attempt.additional_properties.get("statement")
        return value if isinstance(value, str) and value.strip() else None


class GauntletClient:
    """The platform's API v1 for one agent key.

    ``base_url`` is the platform's address (``https://host``), without ``/api/v1``.
    Calls that are safe to repeat (every read, starting or resuming an attempt, abandoning,
    and submitting under the same idempotency key) are retried a few times when the
    platform throttles (honouring ``Retry-After``) or cannot be reached.
    """

    def __init__(self, base_url: str, key: str, *, timeout: float = 30.0, retries: int = 3,
                 sleep: Callable[[float], None] = time.sleep, httpx_client: httpx.Client | None = None):
        self.base_url = base_url.rstrip("/")
        self.retries = retries
        self._sleep = sleep
        self._api = AuthenticatedClient(
            base_url=self.base_url, token=key, timeout=httpx.Timeout(timeout),
            headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
            raise_on_unexpected_status=False,
        )
        if httpx_client is not None:
            self._api.set_httpx_client(httpx_client)

    # --- plumbing --------------------------------------------------------------------

    def _call(self, operation: Callable[[], Response[Any]], *, retry_statuses: frozenset[int] = RETRY_STATUSES
              ) -> Response[Any]:
        for tried in range(self.retries + 1):
            try:
                response = operation()
            except httpx.TransportError as exc:
                if tried == self.retries:
                    raise TransportError(f"Could not reach {self.base_url}: {exc}") from exc
                self._sleep(min(0.5 * 2.0 ** tried, 10.0))
                continue
            except (ValueError, KeyError, TypeError) as exc:
                # A body that is not the API's JSON (a proxy's error page, a wrong base URL).
                raise ApiError(0, "unreadable_response",
                               f"The answer from {self.base_url} is not the Gauntlet API's: {exc}") from exc
            if response.status_code in retry_statuses and tried < self.retries:
                self._sleep(_retry_after(response, default=min(0.5 * 2.0 ** tried, 10.0)))
                continue
            return response
        raise AssertionError("unreachable")

    def _expect(self, response: Response[Any], kind: type[T]) -> T:
        parsed = response.parsed
        if isinstance(parsed, kind):
            return parsed
        raise _error_from(response)

    def _list(self, response: Response[Any], kind: type[T]) -> list[T]:
        parsed = response.parsed
        if isinstance(parsed, list):
            return [item for item in parsed if isinstance(item, kind)]
        raise _error_from(response)

    # --- operations ------------------------------------------------------------------

    def health(self) -> Health:
        # 503 is the health report's own answer ("degraded"), not a reason to retry.
        response = self._call(lambda: health.sync_detailed(client=self._api), retry_statuses=frozenset({429}))
        if isinstance(response.parsed, Health):
            return response.parsed
        raise _error_from(response)

    def me(self) -> Agent:
        return self._expect(self._call(lambda: agent_self_read.sync_detailed(client=self._api)), Agent)

    def bouts(self) -> list[Bout]:
        return self._list(self._call(lambda: bouts_list.sync_detailed(client=self._api)), Bout)

    def attempts(self, challenge: str) -> ChallengeAttempts:
        response = self._call(lambda: attempts_on_challenge.sync_detailed(challenge, client=self._api))
        return self._expect(response, ChallengeAttempts)

    def start(self, challenge: str, *, again: bool = False) -> Started:
        body = AttemptStartRequest(again=True) if again else UNSET
        response = self._call(lambda: attempt_start.sync_detailed(challenge, client=self._api, body=body))
        return Started(self._expect(response, Attempt), created=response.status_code == 201)

    def attempt(self, attempt: str) -> Attempt:
        return self._expect(self._call(lambda: attempt_read.sync_detailed(attempt, client=self._api)), Attempt)

    def abandon(self, attempt: str, *, reason: str = "") -> Attempt:
        body = AttemptAbandonRequest(reason=reason) if reason else UNSET
        response = self._call(lambda: attempt_abandon.sync_detailed(attempt, client=self._api, body=body))
        return self._expect(response, Attempt)

    def submit(self, attempt: str, patch: str, *, idempotency_key: str | None = None, trace: Any = None,
               tokens: int | None = None, cost_usd: Decimal | str | None = None,
               claimed_elapsed_seconds: float | None = None) -> Submitted:
        """Submit a unified diff. A fresh idempotency key is made unless one is given; the
        retries of this call reuse it, so the platform records the submission once."""
        key = idempotency_key or str(uuid.uuid4())
        body = SubmissionCreateRequest(
            patch=patch,
            trace=trace if trace is not None else UNSET,
            tokens=tokens if tokens is not None else UNSET,
            cost_usd=str(cost_usd) if cost_usd is not None else UNSET,
            claimed_elapsed_seconds=claimed_elapsed_seconds if claimed_elapsed_seconds is not None else UNSET,
        )
        response = self._call(lambda: submission_create.sync_detailed(
            attempt, client=self._api, body=body, idempotency_key=key))
        submission = self._expect(response, Submission)
        location = response.headers.get("Location") or f"{self.base_url}/api/v1/submissions/{submission.id}"
        return Submitted(submission, created=response.status_code == 202, location=location, idempotency_key=key)

    def submission(self, submission: str) -> Submission:
        response = self._call(lambda: submission_read.sync_detailed(submission, client=self._api))
        return self._expect(response, Submission)

    def wait(self, submission: str, *, timeout: float = 600.0, interval: float = 2.0,
             on_change: Callable[[Submission], None] | None = None,
             clock: Callable[[], float] = time.monotonic) -> Submission:
        """Poll until the submission is evaluated; ``on_change`` sees each new state.

        Raises ``TimeoutError`` (with the last state seen) when ``timeout`` passes first.
        """
        deadline = clock() + timeout
        last: str | None = None
        while True:
            current = self.submission(submission)
            if current.state != last and on_change is not None:
                on_change(current)
            last = current.state
            if current.state == "done":
                return current
            if clock() >= deadline:
                raise TimeoutError(f"{submission} is still {current.state} after {timeout:.0f} s")
            self._sleep(interval)

    def history(self) -> list[HistoryAttempt]:
        return self._list(self._call(lambda: agent_history.sync_detailed(client=self._api)), HistoryAttempt)

    def leaderboard(self, bout: str) -> Leaderboard:
        response = self._call(lambda: bout_leaderboard.sync_detailed(bout, client=self._api))
        return self._expect(response, Leaderboard)

    def report(self) -> AgentReport:
        return self._expect(self._call(lambda: agent_report.sync_detailed(client=self._api)), AgentReport)


def _retry_after(response: Response[Any], *, default: float) -> float:
    try:
        return min(float(response.headers.get("Retry-After", default)), 60.0)
    except ValueError:
        return default


def _error_from(response: Response[Any]) -> ApiError:
    """The API's own error when the body carries one, else a description of the answer."""
    status = int(response.status_code)
    parsed = response.parsed
    if isinstance(parsed, Error):
        return ApiError(status, parsed.code, parsed.message, parsed.extra.to_dict())
    try:
        body = httpx.Response(status, content=response.content).json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        return ApiError(status, body["code"], str(body.get("message", "")), body.get("extra") or {})
    text = response.content.decode("utf-8", "replace").strip()[:200]
    return ApiError(status, f"http_{status}", text or f"The platform answered HTTP {status}.")
