"""Real-time detection: every evaluated submission gets its signals, composite and canary log.

``submission_detect`` gathers the submission's facts (server-measured solve time, the
tier's measured solve times, the instance's sealed canary map and gold patch, the
workspace, the canonical-fix library, the trace), runs every registered real-time signal,
and writes the rows in one transaction: a ``SubmissionSignal`` per signal (updated in
place on a rerun), the ``CompositeScore``, a ``CanaryInteraction`` per canary of the
instance; then ``respond_to_composite`` acts on the composite. Idempotent: running it again
rewrites the same rows and answers an action once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from django.db import transaction
from django.utils import timezone

from challenges.services.workspaces import instance_secrets, workspace_tree
from competition.models import Submission
from core.config import config_value, config_values
from detection.analysis import read_workspace
from detection.canaries import canary_touches
from detection.composite import composite_score
from detection.models import CanaryInteraction, CompositeScore, SubmissionSignal
from detection.selectors import (
    agent_bout_solves,
    submissions_missing_detection,
    submissions_on_prior,
    tier_solve_seconds,
)
from detection.services.library import canonical_library
from detection.services.response import respond_to_composite
from detection.signals import Canary, SignalResult, SubmissionFacts, TierSolveTimes, signals
from detection.signals.base import action_rank

logger = logging.getLogger(__name__)
DETECTED = (Submission.Result.SOLVED, Submission.Result.NOT_SOLVED)
_CACHE_SIZE = 32
_cache: OrderedDict[tuple, Any] = OrderedDict()
_cache_lock = threading.Lock()


def _cached(key: tuple, compute):
    """Per-process memo of an instance's immutable parts (workspace text, unsealed secrets)."""
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    value = compute()
    with _cache_lock:
        _cache[key] = value
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return value


def _instance_parts(instance) -> tuple[dict[str, str], dict[str, Any]]:
    workspace = _cached(("workspace", instance.workspace_sha256), lambda: read_workspace(workspace_tree(instance)))
    # Keyed by the instance's random public id, not its pk: SQLite reuses the rowid of a deleted
    # (or rolled-back) last row, and another instance's canaries must never be read for this one.
    secrets = _cached(("secrets", instance.public_id), lambda: instance_secrets(instance))
    return workspace, secrets


def submission_facts(submission: Submission) -> SubmissionFacts:
    """The plain facts the signals read (see ``detection.signals.base``)."""
    attempt = submission.attempt
    instance = attempt.challenge.instance
    workspace, secrets = _instance_parts(instance)
    canaries = tuple(
        Canary(c["name"], c["path"], (int(c["lines"][0]), int(c["lines"][1])), c.get("description", ""))
        for c in secrets.get("canaries", []) if c.get("path") and c.get("lines")
    )
    return SubmissionFacts(
        submission=submission.handle, patch=submission.patch, result=submission.result,
        language=instance.language, tier=instance.tier,
        bug_type=(instance.fingerprint or {}).get("bug_type"), family=instance.template.family,
        solve_seconds=(submission.received_at - attempt.started_at).total_seconds(),
        tier_solve_times=TierSolveTimes(instance.tier, tier_solve_seconds(tier=instance.tier,
                                                                          exclude_agent_id=submission.agent_id)),
        trace=submission.trace, gold_patch=secrets.get("gold_patch"), canaries=canaries,
        agent_solves=agent_bout_solves(submission=submission, needed=config_value("detection.solve_time.min_samples"))
        if submission.result == Submission.Result.SOLVED else (),
        workspace=workspace, library=canonical_library(),
    )


def evaluate_signals(facts: SubmissionFacts, settings: dict[str, Any]) -> dict[str, SignalResult]:
    return {key: cls().evaluate(facts, settings) for key, cls in signals("realtime").items()}


def submission_detect(*, submission_id: int) -> CompositeScore | None:
    """Score one evaluated submission in real time (see the module docstring).

    Returns None for a submission that is not (or no longer) evaluated, or whose verdict
    is an error: nothing was judged, so nothing is detected.
    """
    started = time.perf_counter()
    submission = (Submission.objects.select_related("attempt__challenge__instance__template", "agent")
                  .filter(pk=submission_id, state=Submission.State.DONE).first())
    if submission is None or submission.result not in DETECTED:
        return None
    settings = config_values("detection.")
    facts = submission_facts(submission)
    results = evaluate_signals(facts, settings)
    weights = {key: settings.get(f"weight.{key}", 0.0) for key in results}
    composite = composite_score(results, weights, quarantine=settings["threshold.quarantine"],
                                flag=settings["threshold.flag"], log=settings["threshold.log"])
    elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    now = timezone.now()
    with transaction.atomic():
        # One upsert per table: reruns update the rows in place (unique per submission and kind).
        SubmissionSignal.objects.bulk_create(
            [SubmissionSignal(submission=submission, kind=key, source=SubmissionSignal.Source.REALTIME,
                              value=result.value, weight=weights[key], evidence=result.evidence,
                              reason=result.reason, created_at=now, updated_at=now)
             for key, result in results.items()],
            update_conflicts=True, unique_fields=["submission", "kind", "source"],
            update_fields=["value", "weight", "evidence", "reason", "updated_at"],
        )
        row = CompositeScore.objects.select_for_update().filter(submission=submission).first()
        previous = dict(row.components or {}) if row else {}
        previous_reason = row.reason if row else ""
        responded = previous.get("_responded", "none")
        row = row or CompositeScore(submission=submission)
        row.value, row.action, row.reason = composite.value, composite.action, composite.reason
        row.components = {**composite.components, "_upper": composite.upper, "_elapsed_ms": elapsed_ms,
                          "_responded": responded}
        if previous.get("post_bout"):
            _keep_post_bout(row, previous["post_bout"], previous_reason)
        row.save()
        _canary_log(submission, facts, settings, now=now)
        respond_to_composite(row)
    return row


def _keep_post_bout(row: CompositeScore, post_bout: dict[str, str], previous_reason: str) -> None:
    """A rescore after the post-bout batch keeps the batch's half of the record: its findings,
    the action they raised (never lowered by the new real-time action) and their reason lines;
    ``realtime_action`` becomes what real time decides now."""
    row.components["realtime_action"] = row.action
    row.components["post_bout"] = dict(post_bout)
    row.action = max([row.action, *post_bout.values()], key=action_rank)
    batch_lines = [line for line in previous_reason.splitlines() if line.startswith("post-bout: ")]
    if batch_lines:
        row.reason = "\n".join([row.reason, *batch_lines]) if row.reason else "\n".join(batch_lines)


def _canary_log(submission: Submission, facts: SubmissionFacts, settings: dict[str, Any], *, now) -> None:
    attempt = submission.attempt
    touches = canary_touches(facts.patch, facts.canaries, excerpt_bytes=settings["canary.excerpt_bytes"])
    if not touches:
        return
    CanaryInteraction.objects.bulk_create(
        [CanaryInteraction(submission=submission, canary_id=touch.canary.name, agent_id=submission.agent_id,
                           challenge_id=attempt.challenge_id, instance_id=attempt.challenge.instance_id,
                           modified=touch.modified, excerpt=touch.excerpt,
                           otherwise_fixed=submission.result == Submission.Result.SOLVED, created_at=now)
         for touch in touches],
        update_conflicts=True, unique_fields=["submission", "canary_id"],
        update_fields=["modified", "excerpt", "otherwise_fixed"],
    )


def detection_sweep(*, limit: int | None = None) -> dict[str, int]:
    """Score evaluated submissions the real-time task missed (lost message, crashed worker)
    or whose verdict changed since (a rescore); then score again, in bouts still running,
    the solves judged against the spec's prior whose tier now has a measured median."""
    settings = config_values("detection.")
    limit = limit or settings["sweep_batch"]
    scored = skipped = recalibrated = 0
    for submission_id in submissions_missing_detection(limit=limit).values_list("pk", flat=True):
        if submission_detect(submission_id=submission_id) is None:
            skipped += 1
        else:
            scored += 1
    needed = settings["solve_time.min_samples"]
    for signal in submissions_on_prior(limit=limit):
        submission = signal.submission
        measured = tier_solve_seconds(tier=signal.evidence.get("tier", 0), exclude_agent_id=submission.agent_id)
        if len(measured) >= needed and submission_detect(submission_id=submission.pk) is not None:
            recalibrated += 1
    return {"scored": scored, "skipped": skipped, "recalibrated": recalibrated}
