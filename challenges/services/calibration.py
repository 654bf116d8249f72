"""Writes of measured difficulty: importing calibration data, building a calibration run from a
bout that real solver agents played, and the tier proposals staff accept or dismiss.

Imports are all or nothing: the file is validated line by line (format first, then against
this database: known templates, instances that match), and one bad line refuses the whole
file with every bad line's number, field and code; nothing is written. Re-importing a run
that is already here with the same results changes nothing; a run key that is here with
different results is refused (evidence is never overwritten).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from challenges.calibration import (
    INSUFFICIENT,
    KEEP,
    CalibrationError,
    ResultRecord,
    RunRecord,
    invalid,
    parse_jsonl_numbered,
    valid_key,
)
from challenges.models import CalibrationResult, CalibrationRun, ChallengeInstance, ChallengeTemplate, TierProposal
from challenges.selectors.calibration import calibration_overview, result_record, run_record
from challenges.services.rotation import template_set_tier
from core.crypto import SealError, unseal
from core.errors import Conflict, ValidationFailed
from core.services import audit_event_record

RUN_IMPORTED = "calibration.run_imported"
RUN_FROM_BOUT = "calibration.run_from_bout"
PROPOSAL_OPENED = "calibration.proposal_opened"
PROPOSAL_SUPERSEDED = "calibration.proposal_superseded"
PROPOSAL_ACCEPTED = "calibration.proposal_accepted"
PROPOSAL_DISMISSED = "calibration.proposal_dismissed"


@dataclass(frozen=True)
class CalibrationImportResult:
    created: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    results: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"created": self.created, "unchanged": self.unchanged, "results": self.results}


def _invalid(exc: CalibrationError) -> ValidationFailed:
    return ValidationFailed(exc.message, code=exc.code, extra=dict(exc.extra))


def _line_error(line: int, code: str, field_name: str, message: str) -> dict[str, Any]:
    return {"line": line, "code": code, "field": field_name, "message": message}


def _comparable(results: Iterable[ResultRecord]) -> list[dict[str, Any]]:
    return sorted((r.to_dict() for r in results), key=lambda d: (d["instance"], d["solver"]))


@transaction.atomic
def calibration_import(
    *, lines: Iterable[str], by: AbstractBaseUser | None, source: str = "", actor_label: str = ""
) -> CalibrationImportResult:
    """Validate every line, then store every new run with its results (all or nothing; audited)."""
    try:
        runs, results = parse_jsonl_numbered(lines)
    except CalibrationError as exc:
        raise _invalid(exc) from exc
    errors: list[dict[str, Any]] = []
    templates = ChallengeTemplate.objects.in_bulk({r.template for _, r in results}, field_name="slug")
    instances = {i.public_id: i for i in ChallengeInstance.objects.filter(
        public_id__in={r.instance for _, r in results}).select_related("template")}
    for number, result in results:
        if result.template not in templates:
            errors.append(_line_error(number, "template_unknown", "template",
                                      f"no template {result.template!r} in this catalogue"))
            continue
        found = instances.get(result.instance)
        if found is not None and (found.template.slug, found.language, found.tier) != (
                result.template, result.language, result.tier):
            errors.append(_line_error(
                number, "instance_mismatch", "instance",
                f"instance {result.instance} is {found.template.slug}/{found.language} tier {found.tier} here, "
                f"not {result.template}/{result.language} tier {result.tier}"))
    existing = CalibrationRun.objects.select_for_update().in_bulk([r.key for _, r in runs], field_name="key")
    by_run: dict[str, list[ResultRecord]] = {}
    for _, result in results:
        by_run.setdefault(result.run, []).append(result)
    unchanged: list[str] = []
    for number, run in runs:
        stored = existing.get(run.key)
        if stored is None:
            continue
        same_results = _comparable(result_record(r, stored.key) for r in stored.results.select_related("template")) \
            == _comparable(by_run.get(run.key, []))
        if run_record(stored) == run and same_results:
            unchanged.append(run.key)
        else:
            errors.append(_line_error(number, "run_exists", "key",
                                      f"run {run.key!r} is already stored with other data; calibration data is "
                                      "never overwritten: import it under a new key"))
    if errors:
        errors.sort(key=lambda e: e["line"])
        raise _invalid(invalid(errors))
    where = f" from {source}" if source else ""
    created = []
    count = 0
    for _, run in runs:
        if run.key in unchanged:
            continue
        stored = _run_store(run, by)
        rows = [_result_row(stored, r, templates[r.template], instances.get(r.instance)) for r in by_run.get(run.key, [])]
        for row in rows:
            row.full_clean(validate_unique=False)
        CalibrationResult.objects.bulk_create(rows)
        count += len(rows)
        created.append(run.key)
        audit_event_record(verb=RUN_IMPORTED, target=stored, actor=by, actor_label=actor_label,
                           after={"results": len(rows), "source": run.source},
                           reason=f"calibration import{where}")
    return CalibrationImportResult(created=created, unchanged=unchanged, results=count)


def _run_store(run: RunRecord, by: AbstractBaseUser | None) -> CalibrationRun:
    stored = CalibrationRun(key=run.key, label=run.label, source=run.source, bout_handle=run.bout or "",
                            recorded_at=run.recorded_at, notes=run.notes,
                            created_by=by if getattr(by, "is_authenticated", False) else None)
    stored.full_clean()
    stored.save()
    return stored


def _result_row(run: CalibrationRun, record: ResultRecord, template: ChallengeTemplate,
                instance: ChallengeInstance | None) -> CalibrationResult:
    return CalibrationResult(
        run=run, template=template, instance=instance, instance_public_id=record.instance,
        template_version=record.template_version, language=record.language, tier=record.tier, solver=record.solver,
        solved=record.solved, attempts=record.attempts, submissions=record.submissions,
        solve_seconds=record.solve_seconds)


# --- a calibration run from a bout ----------------------------------------------------------


def _solver_label(agent) -> str:
    """The agent's name and model, ending in a short public id that keeps two same-named agents apart."""
    model = f" ({agent.model_name})" if agent.model_name else ""
    ident = f" #{str(agent.public_id)[:8]}"
    return f"{agent.name}{model}"[:200 - len(ident)] + ident


def _template_version(instance: ChallengeInstance) -> str:
    """The template version the instance was drawn from (recorded in its sealed draw)."""
    try:
        return str(json.loads(unseal(instance.draw_sealed)).get("template_version", ""))
    except (SealError, ValueError):
        return ""


@transaction.atomic
def calibration_run_from_bout(
    *, bout, by: AbstractBaseUser | None, key: str = "", label: str = "", actor_label: str = ""
) -> CalibrationRun:
    """Turn a bout played by real solver agents into a calibration run (audited).

    One result per agent and bout challenge the agent started: solved when one of its
    submissions was judged solved; ``attempts`` and ``submissions`` count what it used up to
    and including the first passing submission (all of them when unsolved); ``solve_seconds``
    is the server's time from that submission's attempt start to its receipt. Entries that
    were disqualified are left out (said in the run's notes). Refused while any submission of
    the bout still waits for its evaluation, and for a bout already calibrated.
    """
    from competition.models import Attempt, Submission

    key = key or bout.handle.lower()
    if not valid_key(key):
        raise ValidationFailed("A run key is a lower-case slug.", code="key_invalid", extra={"field": "key"})
    if CalibrationRun.objects.filter(key=key).exists():
        raise Conflict(f"A calibration run {key!r} already exists.", code="run_exists", extra={"field": "key"})
    if CalibrationRun.objects.filter(bout_handle=bout.handle).exists():
        raise Conflict(f"Bout {bout.handle} is already a calibration run.", code="bout_already_calibrated")
    pending = Submission.objects.filter(attempt__challenge__bout=bout).exclude(state=Submission.State.DONE).count()
    if pending:
        raise Conflict(f"{pending} submission(s) of bout {bout.handle} still wait for their evaluation.",
                       code="evaluations_pending", extra={"pending": pending})
    attempts = (Attempt.objects.filter(challenge__bout=bout)
                .select_related("entry__agent", "challenge__instance__template")
                .prefetch_related("submissions").order_by("started_at", "pk"))
    groups: dict[tuple[int, int], list] = {}
    disqualified: set[int] = set()
    for attempt in attempts:
        if attempt.entry.disqualified_at is not None:
            disqualified.add(attempt.entry_id)
            continue
        groups.setdefault((attempt.entry_id, attempt.challenge_id), []).append(attempt)
    if not groups:
        raise ValidationFailed(f"Bout {bout.handle} has no attempts by eligible agents to calibrate on.",
                               code="no_attempts")
    notes = f"built from bout {bout.handle} ({bout.name})"
    if disqualified:
        notes += f"; {len(disqualified)} disqualified entr{'y' if len(disqualified) == 1 else 'ies'} left out"
    run = CalibrationRun(key=key, label=label or f"Bout {bout.name}", source=CalibrationRun.Source.BOUT,
                         bout_handle=bout.handle, recorded_at=bout.closed_at or timezone.now(), notes=notes,
                         created_by=by if getattr(by, "is_authenticated", False) else None)
    run.full_clean()
    run.save()
    versions: dict[int, str] = {}
    rows = []
    for (_entry, _challenge), group in sorted(groups.items()):
        instance = group[0].challenge.instance
        if instance.pk not in versions:
            versions[instance.pk] = _template_version(instance)
        used_attempts, used_submissions, seconds = 0, 0, None
        for attempt in group:
            used_attempts += 1
            for submission in sorted(attempt.submissions.all(), key=lambda s: (s.received_at, s.pk)):
                used_submissions += 1
                if submission.result == Submission.Result.SOLVED:
                    seconds = (submission.received_at - attempt.started_at).total_seconds()
                    break
            if seconds is not None:
                break
        row = CalibrationResult(
            run=run, template=instance.template, instance=instance, instance_public_id=instance.public_id,
            template_version=versions[instance.pk], language=instance.language, tier=instance.tier,
            solver=_solver_label(group[0].entry.agent), solved=seconds is not None, attempts=used_attempts,
            submissions=used_submissions, solve_seconds=seconds)
        row.full_clean(validate_unique=False)
        rows.append(row)
    CalibrationResult.objects.bulk_create(rows)
    audit_event_record(verb=RUN_FROM_BOUT, target=run, actor=by, actor_label=actor_label,
                       after={"bout": bout.handle, "results": len(rows), "solved": sum(r.solved for r in rows)},
                       reason=notes)
    return run


# --- tier proposals -------------------------------------------------------------------------


def _supersede(proposal: TierProposal, why: str, by, actor_label: str) -> None:
    proposal.state = TierProposal.State.SUPERSEDED
    proposal.decided_at = timezone.now()
    proposal.decision_reason = why
    proposal.save(update_fields=["state", "decided_at", "decision_reason"])
    audit_event_record(verb=PROPOSAL_SUPERSEDED, target=proposal, actor=by, actor_label=actor_label,
                       before={"state": TierProposal.State.OPEN}, after={"state": proposal.state}, reason=why)


@transaction.atomic
def tier_proposals_refresh(*, by: AbstractBaseUser | None, actor_label: str = "") -> dict[str, list[str]]:
    """Compare every template's measurement with its tier's band and open a proposal where they
    disagree (one open proposal per template; a different conclusion supersedes the old one)."""
    overview = calibration_overview()
    outcome: dict[str, list[str]] = {"opened": [], "superseded": [], "unchanged": []}
    for row in overview.templates:
        found = row.proposal
        current = TierProposal.objects.select_for_update().filter(template=row.template,
                                                                  state=TierProposal.State.OPEN).first()
        if found.action in (KEEP, INSUFFICIENT):
            if current is not None:
                _supersede(current, f"the measurement no longer supports it: {found.reason}", by, actor_label)
                outcome["superseded"].append(row.template.slug)
            continue
        _proposal, happened = tier_proposal_open(
            template=row.template, action=found.action, from_tier=found.from_tier, to_tier=found.to_tier,
            reason=found.reason, evidence=found.evidence, by=by, actor_label=actor_label)
        if happened == "superseded":
            outcome["superseded"].append(row.template.slug)
        outcome["unchanged" if happened == "unchanged" else "opened"].append(row.template.slug)
    return outcome


@transaction.atomic
def tier_proposal_open(*, template: ChallengeTemplate, action: str, from_tier: int, to_tier: int, reason: str,
                       evidence: dict[str, Any], by: AbstractBaseUser | None = None,
                       actor_label: str = "") -> tuple[TierProposal, str]:
    """Open a proposal for ``template`` unless the same one is open (then its reason and evidence
    are refreshed); a different open one is superseded. Returns the proposal and what happened:
    "opened", "superseded" (an older one was replaced) or "unchanged"."""
    current = TierProposal.objects.select_for_update().filter(template=template, state=TierProposal.State.OPEN).first()
    if current is not None and (current.action, current.from_tier, current.to_tier) == (action, from_tier, to_tier):
        current.reason, current.evidence = reason, evidence
        current.save(update_fields=["reason", "evidence"])
        return current, "unchanged"
    outcome = "opened"
    if current is not None:
        _supersede(current, f"a newer measurement concludes otherwise: {reason}", by, actor_label)
        outcome = "superseded"
    proposal = TierProposal(template=template, action=action, from_tier=from_tier, to_tier=to_tier, reason=reason,
                            evidence=evidence)
    proposal.full_clean()
    proposal.save()
    audit_event_record(verb=PROPOSAL_OPENED, target=proposal, actor=by, actor_label=actor_label,
                       after={"action": action, "from_tier": from_tier, "to_tier": to_tier}, reason=reason)
    return proposal, outcome


def _decision_reason(reason: str) -> str:
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    return reason.strip()


def _open(proposal: TierProposal) -> TierProposal:
    locked = TierProposal.objects.select_for_update().select_related("template").get(pk=proposal.pk)
    if locked.state != TierProposal.State.OPEN:
        raise Conflict(f"This proposal is {locked.state}, not open.", code="proposal_closed")
    return locked


@transaction.atomic
def tier_proposal_accept(*, proposal: TierProposal, by: AbstractBaseUser | None, reason: str,
                         actor_label: str = "") -> TierProposal:
    """Accept a proposal with a reason (audited). A re-tier sets the template's tier override,
    so the next generated instance carries it; "make harder/easier" records the decision for
    the template's authors and leaves the tier as it is."""
    reason = _decision_reason(reason)
    proposal = _open(proposal)
    template = proposal.template
    if proposal.action == TierProposal.Action.RETIER:
        if template.tier != proposal.from_tier:
            raise Conflict(f"{template.slug} is tier {template.tier} now, not {proposal.from_tier} as measured; "
                           "refresh the proposals.", code="proposal_stale")
        template_set_tier(template=template, tier=proposal.to_tier, by=by, actor_label=actor_label,
                          reason=f"calibration proposal {proposal.pk} accepted: {reason} (evidence: {proposal.reason})")
    proposal.state = TierProposal.State.ACCEPTED
    proposal.decided_by = by if getattr(by, "is_authenticated", False) else None
    proposal.decided_at = timezone.now()
    proposal.decision_reason = reason
    proposal.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
    audit_event_record(verb=PROPOSAL_ACCEPTED, target=proposal, actor=by, actor_label=actor_label,
                       before={"state": TierProposal.State.OPEN, "tier": proposal.from_tier},
                       after={"state": proposal.state, "action": proposal.action, "tier": template.tier
                              if proposal.action != TierProposal.Action.RETIER else proposal.to_tier},
                       reason=reason)
    return proposal


@transaction.atomic
def tier_proposal_dismiss(*, proposal: TierProposal, by: AbstractBaseUser | None, reason: str,
                          actor_label: str = "") -> TierProposal:
    reason = _decision_reason(reason)
    proposal = _open(proposal)
    proposal.state = TierProposal.State.DISMISSED
    proposal.decided_by = by if getattr(by, "is_authenticated", False) else None
    proposal.decided_at = timezone.now()
    proposal.decision_reason = reason
    proposal.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
    audit_event_record(verb=PROPOSAL_DISMISSED, target=proposal, actor=by, actor_label=actor_label,
                       before={"state": TierProposal.State.OPEN}, after={"state": proposal.state}, reason=reason)
    return proposal
