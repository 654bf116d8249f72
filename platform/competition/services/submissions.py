"""Submissions: validate, enforce quotas atomically, record, queue evaluation after commit."""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from datetime import datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone

from challenges.naming import new_name
from competition.errors import (
    BoutNotAccepting,
    Conflict,
    IdempotencyMismatch,
    NotFound,
    PatchInvalid,
    QuotaExceeded,
    ValidationFailed,
)
from competition.limits import MAX_CLAIMED_ELAPSED_SECONDS, MAX_COST_USD, MAX_TOKENS, TraceRefused, trace_check
from competition.models import Agent, Attempt, BoutEntry, Submission
from competition.patchcheck import PatchRejected, check_patch
from competition.services.attempts import attempt_for_agent, bout_accepting
from core.config import config_value
from core.queue import enqueue_on_commit
from detection.trace import TraceInvalid, trace_parse

IN_FLIGHT = (Submission.State.QUEUED, Submission.State.RUNNING)


@dataclass(frozen=True)
class SubmissionMetadata:
    trace: Any = None
    tokens: int | None = None
    cost_usd: Decimal | None = None
    claimed_elapsed_seconds: float | None = None

    @classmethod
    def parse(cls, data: dict[str, Any]) -> SubmissionMetadata:
        """Check what the client reported; every value outside its range is a 400 naming the field."""
        tokens = data.get("tokens")
        if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int)
                                   or not 0 <= tokens <= MAX_TOKENS):
            raise ValidationFailed(f"tokens must be a whole number from 0 to {MAX_TOKENS}.", code="invalid",
                                   extra={"field": "tokens"})
        cost = data.get("cost_usd")
        if cost is not None:
            try:
                cost = Decimal(str(cost))
            except InvalidOperation:
                raise ValidationFailed("cost_usd must be a number.", code="invalid", extra={"field": "cost_usd"}) from None
            if not cost.is_finite() or not 0 <= cost <= MAX_COST_USD:
                raise ValidationFailed(f"cost_usd must be from 0 to {MAX_COST_USD}.", code="invalid",
                                       extra={"field": "cost_usd"})
        claimed = data.get("claimed_elapsed_seconds")
        if claimed is not None and (isinstance(claimed, bool) or not isinstance(claimed, (int, float))
                                    or not math.isfinite(claimed) or not 0 <= claimed <= MAX_CLAIMED_ELAPSED_SECONDS):
            raise ValidationFailed(
                f"claimed_elapsed_seconds must be a finite number from 0 to {MAX_CLAIMED_ELAPSED_SECONDS:.0f}.",
                code="invalid", extra={"field": "claimed_elapsed_seconds"},
            )
        trace = data.get("trace")
        try:
            trace_check(trace, max_bytes=config_value("competition.trace_max_bytes"),
                        max_depth=config_value("competition.trace_max_depth"))
        except TraceRefused as exc:
            raise ValidationFailed(exc.message, code=exc.code, extra={"field": "trace"}) from None
        try:
            trace_parse(trace)  # the documented step format (detection.trace), when the trace uses it
        except TraceInvalid as exc:
            extra = {"field": "trace"} if exc.step is None else {"field": "trace", "step": exc.step}
            raise ValidationFailed(exc.message, code=exc.code, extra=extra) from None
        return cls(trace=trace, tokens=tokens, cost_usd=cost, claimed_elapsed_seconds=claimed)


def _request_digest(attempt_handle: str, patch: str, metadata: SubmissionMetadata) -> str:
    body = json.dumps(
        {
            "attempt": attempt_handle, "patch": patch, "trace": metadata.trace, "tokens": metadata.tokens,
            "cost_usd": None if metadata.cost_usd is None else str(metadata.cost_usd),
            "claimed_elapsed_seconds": metadata.claimed_elapsed_seconds,
        },
        sort_keys=True, separators=(",", ":"), default=str,
    )
    return hashlib.sha256(body.encode()).hexdigest()


IDEMPOTENCY_KEY_PATTERN = r"^[ -~]*[!-~][ -~]*$"  # printable ASCII, not only spaces; at most 200 once trimmed
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


def _validate_key(key: str) -> str:
    key = (key or "").strip()
    if not key or len(key) > 200 or not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ValidationFailed(
            "Send an Idempotency-Key header of 1 to 200 printable characters.", code="idempotency_key_required",
            extra={"field": "Idempotency-Key"},
        )
    return key


def _check_quotas(*, entry: BoutEntry, attempt: Attempt, agent: Agent, now: datetime) -> None:
    bout = entry.bout
    per_attempt = Submission.objects.filter(attempt=attempt).count()
    if per_attempt >= bout.submissions_per_attempt:
        raise QuotaExceeded("This attempt has used all its submissions.",
                            extra={"quota": "per_attempt", "limit": bout.submissions_per_attempt})
    day_start = datetime.combine(now.date(), time.min, tzinfo=now.tzinfo)
    today = Submission.objects.filter(agent=agent, received_at__gte=day_start).count()
    if today >= bout.submissions_per_day:
        raise QuotaExceeded("This agent has used today's submissions.",
                            extra={"quota": "per_day", "limit": bout.submissions_per_day})
    in_flight = Submission.objects.filter(agent=agent, state__in=IN_FLIGHT).count()
    if in_flight >= bout.concurrent_evaluations:
        raise QuotaExceeded("Too many of this agent's submissions are still being evaluated.",
                            extra={"quota": "concurrent_evaluations", "limit": bout.concurrent_evaluations})


def submission_create(
    *, agent: Agent, attempt_handle: str, patch: str, idempotency_key: str, metadata: SubmissionMetadata
) -> tuple[Submission, bool]:
    """Record a submission and queue its evaluation; returns (submission, created).

    Replaying an idempotency key with the same request returns the first submission;
    with a different request it is refused (422). Quotas are checked under a lock on the
    agent's bout entry, so concurrent requests can never exceed them.
    """
    from challenges.services.workspaces import WorkspaceError, patch_check_applies

    key = _validate_key(idempotency_key)
    digest = _request_digest(attempt_handle, patch or "", metadata)
    # The patch is prepared on a throw-away copy of the workspace before the transaction:
    # that runs git and copies files, which must not happen while the bout entry (and, on
    # SQLite, the whole database) is locked.
    try:
        check_patch(patch or "", max_bytes=config_value("competition.patch_max_bytes"))
        patch_check_applies(instance=attempt_for_agent(agent=agent, handle=attempt_handle).challenge.instance,
                            patch=patch)
    except PatchRejected as exc:
        raise PatchInvalid(exc.message, code=exc.code, extra={"path": exc.path} if exc.path else {}) from exc
    except WorkspaceError as exc:
        raise PatchInvalid(exc.message, code=exc.code) from exc
    with transaction.atomic():
        attempt = attempt_for_agent(agent=agent, handle=attempt_handle)
        entry = BoutEntry.objects.select_for_update().select_related("bout").get(pk=attempt.entry_id)
        existing = Submission.objects.filter(agent=agent, idempotency_key=key).first()
        if existing is not None:
            if existing.request_sha256 != digest:
                raise IdempotencyMismatch("This Idempotency-Key was used for a different request.")
            return existing, False
        now = timezone.now()
        if not bout_accepting(entry.bout, now):
            raise BoutNotAccepting(f"This bout is {entry.bout.state} and does not accept submissions.",
                                   extra={"state": entry.bout.state})
        if entry.disqualified_at is not None:
            raise Conflict("This agent is disqualified from the bout.", code="disqualified")
        if attempt.state == Attempt.State.ABANDONED:
            raise Conflict("This attempt was abandoned; start a new one.", code="attempt_abandoned")
        if attempt.state == Attempt.State.EXPIRED or attempt.expires_at <= now:
            raise Conflict("This attempt has expired.", code="attempt_expired")
        _check_quotas(entry=entry, attempt=attempt, agent=agent, now=now)
        submission = Submission.objects.create(
            handle=new_name("submission"), attempt=attempt, agent=agent, idempotency_key=key, request_sha256=digest,
            patch=patch, patch_sha256=hashlib.sha256(patch.encode()).hexdigest(), trace=metadata.trace,
            tokens=metadata.tokens, cost_usd=metadata.cost_usd,
            claimed_elapsed_seconds=metadata.claimed_elapsed_seconds, received_at=now,
        )
        enqueue_on_commit("competition.tasks.evaluate_submission", submission.pk, recovered_by="the evaluation reaper")
    return submission, True


def submission_for_agent(*, agent: Agent, handle: str) -> Submission:
    submission = Submission.objects.select_related("attempt").filter(handle=handle, agent=agent).first()
    if submission is None:
        raise NotFound("Not found.", code="not_found")
    return submission
