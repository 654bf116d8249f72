"""The operating schedule: checklists per period, automatic checks, sign-off, overdue notices.

``checklists_ensure`` creates the checklist of the current day, week, month and quarter
(idempotently, one per cadence and period) from ``detection.metrics.procedures`` and runs
the automatic checks of every open checklist. An automatic check returns whether it
passed and the evidence it looked at; ``None`` means the platform cannot decide and a
person must. Manual items (and failed checks) are signed off with
``checklist_item_sign_off`` by a named staff member with a note.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.config import config_value
from core.errors import Conflict, ValidationFailed
from core.services import audit_event_record
from detection.metrics import ALERT, MONTH, WEEK, period_of
from detection.metrics.procedures import CADENCE_PERIOD, PROCEDURES
from detection.models import Checklist, ChecklistItem, IntegrityReport, StaffNotification
from detection.services.notifications import staff_notification_send

CheckResult = tuple[bool | None, dict[str, Any]]
AUTOMATIC_CHECKS: dict[str, Callable[[Checklist, datetime], CheckResult]] = {}
EVIDENCE: dict[str, Callable[[Checklist, datetime], dict[str, Any]]] = {}


def automatic_check(key: str):
    def wrap(fn):
        AUTOMATIC_CHECKS[key] = fn
        return fn
    return wrap


def evidence_for(key: str):
    def wrap(fn):
        EVIDENCE[key] = fn
        return fn
    return wrap


def _last_day(now: datetime) -> tuple[datetime, datetime]:
    return now - timedelta(hours=24), now


@automatic_check("review_level2_flags")
def _review_level2_flags(checklist: Checklist, now: datetime) -> CheckResult:
    from detection.selectors.integrity import open_cases_level2_plus

    cases = open_cases_level2_plus(since=now - timedelta(hours=24))
    overdue = [c for c in cases if c.get("overdue")]
    return not overdue, {"open_level2_plus": cases, "past_deadline": len(overdue)}


@automatic_check("dedup_healthy")
def _dedup_healthy(checklist: Checklist, now: datetime) -> CheckResult:
    from challenges.models import ChallengeInstance, FingerprintReview
    from challenges.services.novelty import fingerprint_check, window_cache_stats

    budget_ms = config_value("procedures.dedup_probe_ms")
    max_wait = timedelta(hours=config_value("procedures.review_max_wait_hours"))
    waiting = list(FingerprintReview.objects.filter(state=FingerprintReview.State.PENDING,
                                                    created_at__lt=now - max_wait).values_list("pk", flat=True))
    probe = ChallengeInstance.objects.exclude(fingerprint={}).order_by("-created_at").first()
    evidence: dict[str, Any] = {"reviews_waiting_too_long": waiting, "budget_ms": budget_ms}
    if probe is None:
        evidence["probe"] = "no instance yet to probe the index with"
        return not waiting, evidence
    started = time.perf_counter()
    try:
        decision = fingerprint_check(fingerprint=probe.fingerprint, exclude_instance_id=probe.pk)
    except ValidationFailed as exc:
        evidence["probe"] = f"the probe failed: {exc.message}"
        return False, evidence
    elapsed_ms = (time.perf_counter() - started) * 1000
    evidence.update({"probe_instance": probe.pk, "probe_ms": round(elapsed_ms, 1), "probe_verdict": str(decision.verdict),
                     "window": window_cache_stats()})
    return (elapsed_ms <= budget_ms and not waiting), evidence


@automatic_check("generation_success")
def _generation_success(checklist: Checklist, now: datetime) -> CheckResult:
    from detection.metrics import Period
    from detection.metrics_config import metric_bounds
    from detection.selectors.metrics import RegenerationRate

    since, until = _last_day(now)
    measured = RegenerationRate().measure(Period("day", since, until))
    bounds = metric_bounds("regeneration_rate")
    evidence = {"regeneration_rate": measured.value, "redrawn": measured.numerator, "draws": measured.denominator,
                "target_max": bounds.target_max, "by_outcome": measured.details.get("by_outcome", {})}
    if measured.value is None:
        evidence["note"] = "no generation in the last 24 hours"
        return True, evidence
    return measured.value <= (bounds.target_max or 1.0), evidence


def _report_exists(kind: str, period_kind: str, checklist: Checklist) -> CheckResult:
    period = period_of(period_kind, checklist.period_start).previous()
    report = IntegrityReport.objects.filter(kind=kind, period_start=period.start).first()
    if report is None:
        return False, {"report": None, "period": period.label}
    return True, {"report": report.pk, "period": period.label, "revision": report.revision,
                  "generated_at": report.generated_at.isoformat(), "alerts": report.alerts}


@automatic_check("publish_report")
def _publish_report(checklist: Checklist, now: datetime) -> CheckResult:
    return _report_exists(IntegrityReport.Kind.WEEKLY, WEEK, checklist)


@automatic_check("trend_analysis")
def _trend_analysis(checklist: Checklist, now: datetime) -> CheckResult:
    return _report_exists(IntegrityReport.Kind.MONTHLY, MONTH, checklist)


@automatic_check("template_refresh")
def _template_refresh(checklist: Checklist, now: datetime) -> CheckResult:
    from challenges.services.rotation import REFRESH_VERB
    from core.models import AuditEvent

    found = list(AuditEvent.objects.filter(verb=REFRESH_VERB, occurred_at__gte=checklist.period_start,
                                           occurred_at__lt=checklist.period_end).order_by("-occurred_at", "-pk")[:20])
    if found:
        # The latest refresh's per-template decision on measured discrimination, each with its reason.
        decisions = [{k: row.get(k) for k in ("template", "action", "tier", "to_tier", "rate", "reason")}
                     for row in (found[0].after or {}).get("discrimination", [])]
        return True, {"refresh_events": [e.pk for e in found], "discrimination": decisions}
    return None, {"note": "no template pool refresh recorded this quarter yet"}


@automatic_check("solve_time_recalibration")
def _solve_time_recalibration(checklist: Checklist, now: datetime) -> CheckResult:
    """The quarter's solve-time proposal (made here when none exists yet) and whether staff decided it."""
    from detection.models import SolveTimeProposal
    from detection.selectors.recalibration import solve_time_proposal_latest
    from detection.services.recalibration import solve_time_proposal_create

    proposal = solve_time_proposal_latest(since=checklist.period_start, until=checklist.period_end)
    if proposal is None:
        if now >= checklist.period_end:
            # A past quarter's proposal is never made after the fact: it would supersede a newer one.
            return None, {"note": "no solve-time proposal was made in this quarter; a person must sign off"}
        proposal = solve_time_proposal_create(by=None, actor_label="schedule", now=now)
    evidence = {"proposal": proposal.pk, "state": proposal.state, "created_at": proposal.created_at.isoformat(),
                "changes": proposal.changes, "reason": proposal.reason,
                "tiers": [{k: t[k] for k in ("tier", "solves", "sufficient", "changed", "effect")}
                          for t in proposal.tiers]}
    if proposal.state == SolveTimeProposal.State.OPEN:
        evidence["note"] = "the proposal waits for a staff decision (accept or reject, with a reason)"
        return None, evidence
    if proposal.decision_reason:
        evidence["decision_reason"] = proposal.decision_reason
    return True, evidence


@evidence_for("corpus_audit")
@evidence_for("corpus_update")
def _corpus_evidence(checklist: Checklist, now: datetime) -> dict[str, Any]:
    from challenges.models import CorpusEntry

    added = CorpusEntry.objects.filter(created_at__gte=checklist.period_start, created_at__lt=checklist.period_end)
    return {"entries_added": list(added.order_by("pk").values_list("pk", "key"))[:50], "count": added.count()}


@evidence_for("spot_check")
def _spot_check_evidence(checklist: Checklist, now: datetime) -> dict[str, Any]:
    """The sample drawn for the week's report when it exists, else a fresh draw from the week's releases."""
    from challenges.models import ChallengeInstance
    from detection.services.reports import random_sample

    existing = checklist.items.filter(key="spot_check").values_list("evidence", flat=True).first()
    if existing and existing.get("instances"):
        return existing
    released = ChallengeInstance.objects.filter(released_at__gte=checklist.period_start,
                                                released_at__lt=checklist.period_end)
    ids = random_sample(list(released.values_list("pk", flat=True)), config_value("reports.spot_check_count"))
    return {"instances": ids, "released": released.count()}


@evidence_for("canary_effectiveness")
@evidence_for("monitor_dashboard")
def _alerts_evidence(checklist: Checklist, now: datetime) -> dict[str, Any]:
    from detection.models import MetricValue

    alerts = MetricValue.objects.filter(state=ALERT, period_end__gt=checklist.period_start,
                                        period_start__lt=checklist.period_end)
    return {"metrics_in_alert": [f"{v.metric} {v.period_label}" for v in alerts]}


def _due(cadence: str, period_end: datetime) -> datetime:
    return period_end + timedelta(hours=config_value("procedures.overdue_grace_hours"))


def checklist_create(*, cadence: str, moment: datetime) -> tuple[Checklist, bool]:
    """The checklist of ``cadence`` for the period containing ``moment`` (created if missing)."""
    period = period_of(CADENCE_PERIOD[cadence], moment)
    existing = Checklist.objects.filter(cadence=cadence, period_start=period.start).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            checklist = Checklist.objects.create(
                cadence=cadence, period_start=period.start, period_end=period.end, period_label=period.label,
                due_at=_due(cadence, period.end), created_at=timezone.now())
            ChecklistItem.objects.bulk_create([
                ChecklistItem(checklist=checklist, key=step.key, title=step.title, guidance=step.guidance,
                              position=i, automatic=step.automatic)
                for i, step in enumerate(PROCEDURES[cadence], start=1)])
            audit_event_record(verb="checklist.created", target=checklist, actor_label="schedule",
                               after={"items": len(PROCEDURES[cadence])})
    except IntegrityError:
        # Another worker created it between the read and the insert.
        return Checklist.objects.get(cadence=cadence, period_start=period.start), False
    return checklist, True


@transaction.atomic
def checklist_run_checks(*, checklist: Checklist, now: datetime | None = None) -> list[ChecklistItem]:
    """Run the automatic checks of the open items and refresh the evidence of manual ones.

    A check that passes marks its item passed; one that fails marks it failed (a person
    must then sign it off); an undecided check leaves it open. Signed-off items are never
    touched again.
    """
    now = now or timezone.now()
    changed = []
    for item in checklist.items.select_for_update().exclude(state=ChecklistItem.State.SIGNED_OFF):
        if item.automatic and item.key in AUTOMATIC_CHECKS:
            passed, evidence = AUTOMATIC_CHECKS[item.key](checklist, now)
            state = {True: ChecklistItem.State.PASSED, False: ChecklistItem.State.FAILED,
                     None: ChecklistItem.State.OPEN}[passed]
            if item.state == ChecklistItem.State.PASSED and passed is not True:
                # A check passed once stays passed for its period: later changes belong to the next one.
                continue
            item.state, item.evidence, item.checked_at = state, evidence, now
            item.save(update_fields=["state", "evidence", "checked_at"])
            changed.append(item)
        elif item.key in EVIDENCE and item.state == ChecklistItem.State.OPEN:
            item.evidence = EVIDENCE[item.key](checklist, now)
            item.save(update_fields=["evidence"])
    _complete_if_done(checklist)
    return changed


def _complete_if_done(checklist: Checklist) -> None:
    if checklist.completed_at is None and all(i.done for i in checklist.items.all()):
        checklist.completed_at = timezone.now()
        checklist.save(update_fields=["completed_at"])
        audit_event_record(verb="checklist.completed", target=checklist, actor_label="schedule")


@transaction.atomic
def checklist_item_sign_off(*, item: ChecklistItem, by: AbstractBaseUser, note: str) -> ChecklistItem:
    """A named staff member signs an item off with a note (required)."""
    if not getattr(by, "is_authenticated", False):
        raise ValidationFailed("A checklist item is signed off by a named staff member.", code="signer_required")
    if not note.strip():
        raise ValidationFailed("Signing off needs a note saying what was done or found.", code="note_required",
                               extra={"field": "note"})
    locked = ChecklistItem.objects.select_for_update().select_related("checklist").get(pk=item.pk)
    if locked.state == ChecklistItem.State.SIGNED_OFF:
        raise Conflict(f"{locked.title} was already signed off.", code="checklist_item_signed")
    before = locked.state
    locked.state, locked.signed_by, locked.signed_at, locked.note = (
        ChecklistItem.State.SIGNED_OFF, by, timezone.now(), note.strip())
    locked.save(update_fields=["state", "signed_by", "signed_at", "note"])
    audit_event_record(verb="checklist_item.signed_off", target=locked, actor=by, before={"state": before},
                       after={"state": locked.state, "checklist": locked.checklist_id}, reason=locked.note)
    _complete_if_done(locked.checklist)
    return locked


def checklists_ensure(*, now: datetime | None = None) -> list[Checklist]:
    """Create the current period's checklist of every cadence; run the checks of all open ones."""
    now = now or timezone.now()
    created = []
    for cadence in PROCEDURES:
        checklist, new = checklist_create(cadence=cadence, moment=now)
        if new:
            created.append(checklist)
    for checklist in Checklist.objects.filter(completed_at__isnull=True, period_start__lte=now):
        checklist_run_checks(checklist=checklist, now=now)
    return created


def checklists_overdue_notify(*, now: datetime | None = None) -> int:
    """Notify the integrity roles once for each checklist past its due time with open items."""
    now = now or timezone.now()
    count = 0
    for checklist in Checklist.objects.filter(completed_at__isnull=True, due_at__lt=now,
                                              overdue_notified_at__isnull=True):
        with transaction.atomic():
            locked = Checklist.objects.select_for_update().get(pk=checklist.pk)
            if locked.overdue_notified_at is not None:
                continue
            open_items = [i.title for i in locked.items.all() if not i.done]
            locked.overdue_notified_at = now
            locked.save(update_fields=["overdue_notified_at"])
            staff_notification_send(
                kind=StaffNotification.Kind.CHECKLIST_OVERDUE, title=f"{locked} is overdue",
                body=f"Due {locked.due_at.isoformat()}; open: " + "; ".join(open_items),
                target_type="detection.checklist", target_id=locked.pk)
            count += 1
    return count
