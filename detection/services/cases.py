"""Contamination cases and the L1–L4 response protocol (spec 003 "Response Protocol").

Every transition is a guarded service call: it checks the actor's permission and the
case's state, needs a reason, and writes a timeline entry and an audit event in the same
transaction as the change. A refused call raises a domain error and changes nothing.

Levels and their effects, applied when a case reaches the level:
- L1 Flag: logged with its context; scoring continues; no deadline.
- L2 Investigate: the affected scores are held provisional (a final one goes under
  review) with a review deadline and the review checklist; outcomes false positive
  (restore), confirmed (escalate to L3), inconclusive (raise monitoring on the template).
- L3 Quarantine: the instance is quarantined (new solves are recorded under review), its
  scores go under review, a short deadline and the analysis checklist; outcomes
  instance-level (invalidate, replace through the pipeline) or template-level (an
  Integrity Lead: retire, invalidate the season's scores, replace, add to the corpus).
- L4 Systemic: every active bout halts; audit checklist and remediation steps; bouts
  resume only when the audit is complete and enough different Integrity Leads approve.

Competitors only ever read the neutral public reasons declared in ``detection.cases_config``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate
from competition.models import Agent, Bout, BoutChallenge, Score, Submission
from core.config import config_value
from core.errors import Conflict, PermissionDenied, ValidationFailed
from core.queue import enqueue_on_commit
from core.roles import INTEGRITY_ANALYST, INTEGRITY_LEAD
from core.services import actor_or_none, audit_event_record
from detection.models import (
    CaseApproval,
    CaseChecklistItem,
    CaseScore,
    CaseTimelineEntry,
    ContaminationCase,
    SubmissionSignal,
    TemplateWatch,
    TemporaryThreshold,
)

logger = logging.getLogger(__name__)

Case = ContaminationCase
L = Case.Level
K = CaseTimelineEntry.Kind
S = Score.State
Item = CaseChecklistItem

PERM_WORK = "detection.change_contaminationcase"
PERM_OPEN = "detection.add_contaminationcase"
PERM_TEMPLATE = "detection.decide_template_case"
PERM_SYSTEMIC = "detection.decide_systemic_case"

# Audit verbs (one table, no verbs built from strings).
V_OPENED = "case.opened"
V_EVIDENCE = "case.evidence_linked"
V_ESCALATED = "case.escalated"
V_ASSIGNED = "case.assigned"
V_ACKNOWLEDGED = "case.acknowledged"
V_NOTE = "case.note_added"
V_CHECKLIST = "case.checklist_recorded"
V_RESOLVED = "case.resolved"
V_OVERDUE = "case.overdue"
V_APPROVED = "case.approved"
V_THRESHOLD = "case.threshold_tightened"
V_THRESHOLD_REVERTED = "case.threshold_reverted"
V_REPLACEMENT = "case.replacement_added"
V_REPLACEMENT_FAILED = "case.replacement_failed"

CHECKLISTS: dict[int, tuple[tuple[str, str, str], ...]] = {
    L.INVESTIGATE: (
        (Item.Section.REVIEW, "manual-review", "Manual review of the flagged solutions"),
        (Item.Section.REVIEW, "corpus-comparison", "Comparison with the known-contamination corpus"),
        (Item.Section.REVIEW, "template-history", "Has this template been flagged before?"),
    ),
    L.QUARANTINE: (
        (Item.Section.ANALYSIS, "full-analysis", "Full contamination analysis (all five strategies)"),
        (Item.Section.ANALYSIS, "source", "Contamination source identified, if possible"),
        (Item.Section.ANALYSIS, "scope", "Scope assessed: this instance only, or the whole template?"),
    ),
    L.SYSTEMIC: (
        (Item.Section.AUDIT, "generation-pipeline", "Audit of the challenge generation pipeline"),
        (Item.Section.AUDIT, "public-similarity", "Template patterns too similar to public content?"),
        (Item.Section.AUDIT, "leak-or-breach", "Challenge data leaked (security breach)?"),
        (Item.Section.AUDIT, "fine-tuning", "Agents fine-tuned on platform challenges (policy violation)?"),
        (Item.Section.REMEDIATION, "overhaul-families", "Overhaul the affected template families"),
        (Item.Section.REMEDIATION, "rotate-pools", "Rotate every variable pool"),
        (Item.Section.REMEDIATION, "corpus-entries", "Add new known-contamination corpus entries"),
        (Item.Section.REMEDIATION, "raise-thresholds", "Raise fingerprint similarity thresholds temporarily"),
    ),
}
DEADLINE_SETTINGS = {L.INVESTIGATE: "cases.l2_deadline_hours", L.QUARANTINE: "cases.l3_deadline_hours",
                     L.SYSTEMIC: "cases.l4_deadline_hours"}


# --- guards and records ---------------------------------------------------------------------


def _reason(reason: str) -> str:
    if not (reason or "").strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    return reason.strip()


def _who(by: AbstractBaseUser | None, actor_label: str) -> None:
    """A change is made by a signed-in staff member or, for the platform itself, under a label."""
    if actor_or_none(by) is None and not actor_label:
        raise PermissionDenied("Sign in to act on contamination cases.", code="permission_denied")


def _require(by: AbstractBaseUser | None, perm: str, what: str, *, actor_label: str = "",
             system_allowed: bool = False) -> None:
    user = actor_or_none(by)
    if user is None:
        if system_allowed and actor_label:
            return
        raise PermissionDenied(f"Only staff with the right role can {what}.", code="permission_denied",
                               extra={"permission": perm})
    if not (user.is_active and user.has_perm(perm)):
        raise PermissionDenied(f"You are not allowed to {what}.", code="permission_denied",
                               extra={"permission": perm})


def _locked(case: Case) -> Case:
    return Case.objects.select_for_update().get(pk=case.pk)


def _open(case: Case) -> None:
    if case.state != Case.State.OPEN:
        raise Conflict(f"{case.reference} is {case.state}; it takes no more changes.", code="case_not_open",
                       extra={"state": case.state})


def _timeline(case: Case, kind: str, message: str, *, by=None, actor_label: str = "", **data: Any) -> None:
    CaseTimelineEntry.objects.create(case=case, occurred_at=timezone.now(), kind=kind, actor=actor_or_none(by),
                                     actor_label=actor_label, message=message, data=data)


def _audit(case: Case, verb: str, *, by=None, actor_label: str = "", reason: str = "",
           before: dict | None = None, after: dict | None = None) -> None:
    audit_event_record(verb=verb, target=case, actor=by, actor_label=actor_label, before=before, after=after,
                       reason=reason)


def _deadline(level: int, now: datetime) -> datetime | None:
    key = DEADLINE_SETTINGS.get(level)
    return None if key is None else now + timedelta(hours=config_value(key))


def _ensure_checklist(case: Case, level: int) -> None:
    start = case.checklist.count()
    for offset, (section, key, label) in enumerate(CHECKLISTS.get(level, ())):
        Item.objects.get_or_create(case=case, key=key,
                                   defaults={"section": section, "label": label, "position": start + offset + 1})


def _pending_items(case: Case, *sections: str) -> list[str]:
    return list(case.checklist.filter(section__in=sections, state=Item.State.PENDING).values_list("key", flat=True))


# --- notifications ----------------------------------------------------------------------------


def integrity_staff() -> list[AbstractBaseUser]:
    """Active users in the integrity roles, who are told about every case."""
    return list(get_user_model().objects.filter(is_active=True, groups__name__in=[INTEGRITY_ANALYST, INTEGRITY_LEAD])
                .distinct().order_by("pk"))


def _notify(case: Case, subject: str, body: str, *, by=None, actor_label: str = "") -> list[str]:
    """E-mail the assignee and the integrity roles once the change commits; record who was told."""
    people = {u.pk: u for u in integrity_staff()}
    if case.assignee_id and case.assignee.is_active:
        people[case.assignee_id] = case.assignee
    recipients = sorted({u.email for u in people.values() if u.email})
    _timeline(case, K.NOTIFIED, f"{subject} — sent to {len(recipients)} recipient(s)", by=by, actor_label=actor_label,
              recipients=recipients)
    if recipients:
        full_subject = f"[{case.reference} {case.get_level_display()}] {subject}"
        text = (f"{body}\n\nCase: {case.reference} — {case.title}\nLevel: {case.get_level_display()}\n"
                f"Deadline: {case.deadline_at.isoformat() if case.deadline_at else 'none'}\n")

        def _send() -> None:
            try:
                send_mail(full_subject, text, None, recipients)
            except OSError as exc:  # a mail server that is down must not undo the case change
                logger.warning("could not e-mail %s about %s: %s", recipients, case.reference, exc)

        transaction.on_commit(_send)
    return recipients


# --- score holds -------------------------------------------------------------------------------


def _held_by_open_cases(score_ids: list[int]) -> set[int]:
    return set(CaseScore.objects.filter(score_id__in=score_ids, holding=True, case__state=Case.State.OPEN)
               .values_list("score_id", flat=True))


def register_score_holds() -> None:
    from competition.holds import hold_provider_register

    hold_provider_register("contamination cases", _held_by_open_cases)


def _score_transition(score: Score, to_state: str, *, by, actor_label: str, public_reason: str) -> Score:
    from competition.services.scores import score_transition

    return score_transition(score=score, to_state=to_state, by=by, reason=public_reason,
                            actor_label=actor_label or "integrity review")


def _hold(case: Case, scores: Iterable[Score], *, under_review: bool, by, actor_label: str) -> list[int]:
    """Hold scores for the case: provisional ones stay provisional (or go under review for
    an L3), final ones go under review; invalidated ones are left alone."""
    public = config_value("cases.public_reason_review")
    touched = []
    for score in scores:
        if score.state == S.INVALIDATED:
            continue
        hold, created = CaseScore.objects.get_or_create(case=case, score=score,
                                                        defaults={"state_before": score.state})
        if not created and not hold.holding:
            hold.holding = True
            hold.save(update_fields=["holding"])
        target = S.UNDER_REVIEW if under_review or score.state == S.FINAL else score.state
        if score.state != target:
            _score_transition(score, target, by=by, actor_label=actor_label, public_reason=public)
        touched.append(score.pk)
    return touched


def _restore_state(hold: CaseScore, score: Score) -> str:
    bout = score.challenge.bout
    if bout.state == Bout.State.CLOSED:
        return S.FINAL
    return S.PROVISIONAL if hold.state_before in (S.PROVISIONAL, S.UNDER_REVIEW) else hold.state_before


def _release(case: Case, *, by, actor_label: str, restore: bool) -> list[int]:
    """Stop holding the case's scores; with ``restore`` put each back where it would be
    without the case (final once its bout closed), unless another open case holds it."""
    changed = []
    public = config_value("cases.public_reason_restored")
    for hold in case.held_scores.filter(holding=True).select_related("score__challenge__bout"):
        hold.holding = False
        hold.save(update_fields=["holding"])
        score = Score.objects.select_for_update().get(pk=hold.score_id)
        others = CaseScore.objects.filter(score=score, holding=True, case__state=Case.State.OPEN).exclude(case=case)
        if not restore or others.exists() or score.state == S.INVALIDATED:
            continue
        target = _restore_state(hold, score)
        if score.state != target:
            _score_transition(score, target, by=by, actor_label=actor_label, public_reason=public)
            changed.append(score.pk)
    return changed


def _invalidate(case: Case, scores: Iterable[Score], *, by, actor_label: str) -> list[int]:
    public = config_value("cases.public_reason_invalidated")
    done = []
    for score in scores:
        CaseScore.objects.get_or_create(case=case, score=score, defaults={"state_before": score.state})
        if score.state != S.INVALIDATED:
            _score_transition(score, S.INVALIDATED, by=by, actor_label=actor_label, public_reason=public)
            done.append(score.pk)
    case.held_scores.update(holding=False)
    return done


def _instance_scores(instance: ChallengeInstance):
    return Score.objects.filter(challenge__instance=instance).select_related("challenge__bout").order_by("pk")


def _affected_scores(case: Case):
    """L2 looks at the flagged agents' scores on the instance (every score when no agent is named)."""
    if case.instance_id is None:
        return Score.objects.none()
    scores = _instance_scores(case.instance)
    agent_ids = list(case.agents.values_list("pk", flat=True))
    return scores.filter(entry__agent_id__in=agent_ids) if agent_ids else scores


# --- level effects -------------------------------------------------------------------------------


def _apply_level(case: Case, level: int, *, by, actor_label: str, reason: str) -> dict[str, Any]:
    """Make the case's world match ``level``; returns what was done (for the timeline)."""
    effects: dict[str, Any] = {}
    # The clock starts when the case reached this level.
    case.deadline_at = _deadline(level, case.level_changed_at)
    case.overdue_step = 0
    _ensure_checklist(case, level)
    if level == L.INVESTIGATE:
        effects["scores_held"] = _hold(case, _affected_scores(case), under_review=False, by=by,
                                       actor_label=actor_label)
    elif level == L.QUARANTINE:
        instance = case.instance
        # A released (or not yet released) instance is quarantined; a retired or rejected one
        # stays as it is, its scores still go under review.
        if instance is not None and instance.state in (ChallengeInstance.State.RELEASED,
                                                       ChallengeInstance.State.GENERATED):
            from challenges.services.instances import instance_set_state

            instance_set_state(instance=instance, state=ChallengeInstance.State.QUARANTINED, by=by,
                               actor_label=actor_label or "contamination case",
                               reason=f"{case.reference} L3 quarantine: {reason}")
            effects["instance_quarantined"] = instance.pk
        if instance is not None:
            effects["scores_under_review"] = _hold(case, _instance_scores(instance), under_review=True, by=by,
                                                   actor_label=actor_label)
    elif level == L.SYSTEMIC:
        effects["bouts_halted"] = _halt_all_bouts(case, by=by, actor_label=actor_label, reason=reason)
    return effects


def _halt_all_bouts(case: Case, *, by, actor_label: str, reason: str) -> list[int]:
    from competition.services.bouts import bout_transition

    halted = []
    for bout in Bout.objects.filter(state=Bout.State.ACTIVE).order_by("pk"):
        bout_transition(bout=bout, action="halt", by=by, actor_label=actor_label or "contamination case",
                        reason=f"{case.reference} L4 emergency halt: {reason}",
                        public_reason=config_value("cases.public_reason_halt"))
        case.halted_bouts.add(bout)
        halted.append(bout.pk)
    return halted


# --- opening -------------------------------------------------------------------------------------


def case_level_for(composite: float) -> int | None:
    """The level a composite contamination score calls for (None: below the L1 band); the
    bands are the composite thresholds ``detection.threshold.*``."""
    if composite > config_value("detection.threshold.quarantine"):
        return L.QUARANTINE
    if composite > config_value("detection.threshold.flag"):
        return L.INVESTIGATE
    if composite > config_value("detection.threshold.log"):
        return L.FLAG
    return None


@transaction.atomic
def case_open(
    *,
    level: int,
    source: str,
    title: str,
    reason: str,
    instance: ChallengeInstance | None = None,
    template: ChallengeTemplate | None = None,
    bout: Bout | None = None,
    agents: Iterable[Agent] = (),
    submissions: Iterable[Submission] = (),
    signals: Iterable[SubmissionSignal] = (),
    composite: float | None = None,
    summary: str = "",
    evidence_at: datetime | None = None,
    assignee: AbstractBaseUser | None = None,
    parent: Case | None = None,
    by: AbstractBaseUser | None = None,
    actor_label: str = "",
) -> Case:
    """Open a case at ``level`` and apply that level's effects at once.

    Staff need the add permission (an L4 needs an Integrity Lead); the platform opens cases
    from signals, the batch and the systemic rule under an ``actor_label``.
    """
    reason = _reason(reason)
    if level not in L.values:
        raise ValidationFailed(f"Unknown level {level!r}.", code="level_invalid", extra={"field": "level"})
    if source not in Case.Source.values:
        raise ValidationFailed(f"Unknown source {source!r}.", code="source_invalid", extra={"field": "source"})
    _require(by, PERM_SYSTEMIC if level == L.SYSTEMIC else PERM_OPEN,
             "open an L4 systemic case" if level == L.SYSTEMIC else "open contamination cases",
             actor_label=actor_label, system_allowed=True)
    if level in (L.INVESTIGATE, L.QUARANTINE) and instance is None:
        raise ValidationFailed("An L2 or L3 case needs the challenge instance it is about.", code="instance_required",
                               extra={"field": "instance"})
    if not (title or "").strip():
        raise ValidationFailed("A case needs a title.", code="title_required", extra={"field": "title"})
    signals = list(signals)
    submissions = list({s.pk: s for s in [*submissions, *(sig.submission for sig in signals)]}.values())
    agents = {a.pk: a for a in agents}
    for submission in submissions:
        agents.setdefault(submission.agent_id, submission.agent)
    if evidence_at is None and submissions:
        evidence_at = min(s.received_at for s in submissions)
    if template is None and instance is not None:
        template = instance.template
    if bout is None and submissions:
        bout = submissions[0].attempt.challenge.bout
    now = timezone.now()
    case = Case.objects.create(
        level=level, source=source, title=title.strip()[:200], summary=summary, composite=composite,
        instance=instance, template=template, bout=bout, parent=parent, assignee=assignee,
        opened_by=actor_or_none(by), opened_label=actor_label, evidence_at=evidence_at, opened_at=now,
        level_changed_at=now, acknowledged_at=now if assignee is not None else None,
        time_to_detect_seconds=(now - evidence_at).total_seconds() if evidence_at else None,
        public_reason=config_value("cases.public_reason_review"),
    )
    case.agents.set(agents.values())
    case.submissions.set(submissions)
    case.signals.set(signals)
    effects = _apply_level(case, level, by=by, actor_label=actor_label, reason=reason)
    case.save(update_fields=["deadline_at", "overdue_step"])
    facts = {"level": level, "source": source, "composite": composite,
             "instance": instance.pk if instance else None, "template": template.pk if template else None,
             "agents": sorted(agents), "submissions": sorted(s.pk for s in submissions),
             "signals": sorted(sig.pk for sig in signals),
             "deadline_at": case.deadline_at.isoformat() if case.deadline_at else None}
    _timeline(case, K.OPENED, f"Opened at {case.get_level_display()}: {reason}", by=by, actor_label=actor_label,
              **facts)
    if effects:
        _timeline(case, K.EFFECT, _effects_text(effects), by=by, actor_label=actor_label, **effects)
    _audit(case, V_OPENED, by=by, actor_label=actor_label, reason=reason, after={**facts, "effects": effects})
    if level >= L.INVESTIGATE:
        _notify(case, f"{case.get_level_display()} opened", reason, by=by, actor_label=actor_label)
    if level == L.QUARANTINE:
        _systemic_rule(by=by, actor_label=actor_label)
    return case


def _effects_text(effects: dict[str, Any]) -> str:
    parts = []
    if effects.get("scores_held"):
        parts.append(f"{len(effects['scores_held'])} score(s) held provisional")
    if effects.get("instance_quarantined"):
        parts.append("instance quarantined, its scoring halted")
    if effects.get("scores_under_review"):
        parts.append(f"{len(effects['scores_under_review'])} score(s) under review")
    if "bouts_halted" in effects:
        parts.append(f"{len(effects['bouts_halted'])} active bout(s) halted")
    return "; ".join(parts) or "no scores affected yet"


def _systemic_rule(*, by, actor_label: str) -> Case | None:
    """Open L3 cases on enough different templates in the window open an L4 (once)."""
    if Case.objects.filter(level=L.SYSTEMIC, state=Case.State.OPEN).exists():
        return None
    since = timezone.now() - timedelta(days=config_value("cases.systemic_window_days"))
    templates = set(Case.objects.filter(level=L.QUARANTINE, opened_at__gte=since, template__isnull=False)
                    .exclude(outcome=Case.Outcome.FALSE_POSITIVE).values_list("template_id", flat=True))
    needed = config_value("cases.systemic_templates")
    if len(templates) < needed:
        return None
    return case_open(level=L.SYSTEMIC, source=Case.Source.RULE, title="Contamination across several templates",
                     reason=f"L3 cases on {len(templates)} different templates within "
                            f"{config_value('cases.systemic_window_days')} days (rule: {needed})",
                     by=None, actor_label="systemic rule")


@transaction.atomic
def case_evidence_link(*, case: Case, agents: Iterable[Agent] = (), submissions: Iterable[Submission] = (),
                       signals: Iterable[SubmissionSignal] = (), reason: str, by: AbstractBaseUser | None = None,
                       actor_label: str = "") -> Case:
    """Attach more signals, submissions and agents to an open case (linked, not copied).
    An L2 holds the newly affected scores, an L3 already holds every score of its instance."""
    reason = _reason(reason)
    _require(by, PERM_WORK, "work contamination cases", actor_label=actor_label, system_allowed=True)
    case = _locked(case)
    _open(case)
    signals = list(signals)
    submissions = [*submissions, *(sig.submission for sig in signals)]
    agents = [*agents, *(s.agent for s in submissions)]
    new_agents = sorted({a.pk for a in agents} - set(case.agents.values_list("pk", flat=True)))
    new_subs = sorted({s.pk for s in submissions} - set(case.submissions.values_list("pk", flat=True)))
    new_signals = sorted({sig.pk for sig in signals} - set(case.signals.values_list("pk", flat=True)))
    if not (new_agents or new_subs or new_signals):
        return case
    case.agents.add(*new_agents)
    case.submissions.add(*new_subs)
    case.signals.add(*new_signals)
    effects = {}
    if case.level == L.INVESTIGATE:
        effects["scores_held"] = _hold(case, _affected_scores(case), under_review=False, by=by,
                                       actor_label=actor_label)
    _timeline(case, K.EVIDENCE, f"Evidence linked: {reason}", by=by, actor_label=actor_label, agents=new_agents,
              submissions=new_subs, signals=new_signals, **effects)
    _audit(case, V_EVIDENCE, by=by, actor_label=actor_label, reason=reason,
           after={"agents": new_agents, "submissions": new_subs, "signals": new_signals})
    return case


def case_open_from_signals(
    *,
    signals: Iterable[SubmissionSignal],
    reason: str,
    composite: float | None = None,
    level: int | None = None,
    source: str = Case.Source.SIGNAL,
    title: str = "",
    actor_label: str = "detection",
) -> list[Case]:
    """Open (or grow) the cases a set of detection findings calls for; the entry point for
    real-time composites and the post-bout batch.

    ``level`` defaults to the band of ``composite`` (``detection.threshold.*``); below L1
    nothing happens. Signals are grouped by challenge instance: an open case on the same
    instance gets the new evidence linked and is raised if the new level is higher, so one
    incident is one case however many signals fire. On a template under raised monitoring
    the level is at least ``cases.watch_min_level``. Returns the cases touched.
    """
    reason = _reason(reason)
    signals = list(signals)
    if level is None:
        if composite is None:
            raise ValidationFailed("Give a level or a composite score.", code="level_required",
                                   extra={"field": "level"})
        level = case_level_for(composite)
    if level is None or not signals:
        return []
    by_instance: dict[int, list[SubmissionSignal]] = {}
    rows = (SubmissionSignal.objects.filter(pk__in=[sig.pk for sig in signals])
            .select_related("submission__agent", "submission__attempt__challenge__instance__template",
                            "submission__attempt__challenge__bout").order_by("pk"))
    for sig in rows:
        by_instance.setdefault(sig.submission.attempt.challenge.instance_id, []).append(sig)
    touched = []
    for instance_id, group in sorted(by_instance.items()):
        with transaction.atomic():
            instance = group[0].submission.attempt.challenge.instance
            group_level, group_reason = _monitored_level(instance, level, reason)
            existing = (Case.objects.select_for_update().filter(instance_id=instance_id, state=Case.State.OPEN)
                        .exclude(level=L.SYSTEMIC).order_by("-level", "pk").first())
            if existing is None:
                kinds = sorted({sig.kind for sig in group})
                touched.append(case_open(
                    level=group_level, source=source, reason=group_reason, instance=instance, signals=group,
                    composite=composite, by=None, actor_label=actor_label,
                    title=title or f"{L(group_level).label.split(' ', 1)[1]}: {', '.join(kinds)}"[:200]))
                continue
            case_evidence_link(case=existing, signals=group, reason=group_reason, actor_label=actor_label)
            if group_level > existing.level:
                case_escalate(case=existing, to_level=group_level, by=None, actor_label=actor_label,
                              composite=composite,
                              reason=f"new evidence calls for {L(group_level).label}: {group_reason}")
            touched.append(Case.objects.get(pk=existing.pk))
    return touched


def _monitored_level(instance: ChallengeInstance, level: int, reason: str) -> tuple[int, str]:
    """Raised monitoring after an inconclusive review: while the instance's template is
    watched, a finding on it opens at ``cases.watch_min_level`` at least, and says why."""
    floor = config_value("cases.watch_min_level")
    if level >= floor:
        return level, reason
    now = timezone.now()
    watch = (TemplateWatch.objects.filter(template_id=instance.template_id, starts_at__lte=now, ends_at__gt=now)
             .select_related("case").order_by("-ends_at", "pk").first())
    if watch is None:
        return level, reason
    return floor, (f"{reason} (template under raised monitoring after {watch.case.reference}'s inconclusive "
                   f"review until {watch.ends_at:%Y-%m-%d %H:%M} UTC: {L(level).label} raised to {L(floor).label})")


# --- working a case ------------------------------------------------------------------------------


@transaction.atomic
def case_assign(*, case: Case, assignee: AbstractBaseUser, by: AbstractBaseUser | None, reason: str,
                actor_label: str = "") -> Case:
    reason = _reason(reason)
    _require(by, PERM_WORK, "assign contamination cases", actor_label=actor_label, system_allowed=True)
    case = _locked(case)
    _open(case)
    if not (assignee.is_active and assignee.has_perm(PERM_WORK)):
        raise ValidationFailed(f"{assignee} cannot work contamination cases.", code="assignee_not_allowed",
                               extra={"field": "assignee"})
    if case.level in (L.SYSTEMIC,) and not assignee.has_perm(PERM_SYSTEMIC):
        raise ValidationFailed("An L4 case is assigned to an Integrity Lead.", code="assignee_not_allowed",
                               extra={"field": "assignee"})
    before = case.assignee_id
    if before == assignee.pk:
        raise Conflict(f"{case.reference} is already assigned to {assignee}.", code="state_unchanged")
    case.assignee = assignee
    case.save(update_fields=["assignee"])
    _timeline(case, K.ASSIGNED, f"Assigned to {assignee}: {reason}", by=by, actor_label=actor_label,
              assignee=assignee.pk, previous=before)
    _audit(case, V_ASSIGNED, by=by, actor_label=actor_label, reason=reason, before={"assignee": before},
           after={"assignee": assignee.pk})
    _notify(case, f"Assigned to {assignee}", reason, by=by, actor_label=actor_label)
    return case


@transaction.atomic
def case_acknowledge(*, case: Case, by: AbstractBaseUser) -> Case:
    """The signed-in analyst takes the case (assigned to them if unassigned)."""
    _require(by, PERM_WORK, "work contamination cases")
    case = _locked(case)
    _open(case)
    if case.acknowledged_at is not None:
        raise Conflict(f"{case.reference} was acknowledged already.", code="state_unchanged")
    case.acknowledged_at = timezone.now()
    fields = ["acknowledged_at"]
    if case.assignee_id is None:
        case.assignee = by
        fields.append("assignee")
    case.save(update_fields=fields)
    _timeline(case, K.ACKNOWLEDGED, f"Acknowledged by {by}", by=by)
    _audit(case, V_ACKNOWLEDGED, by=by, reason="acknowledged", after={"assignee": case.assignee_id})
    return case


@transaction.atomic
def case_note_add(*, case: Case, text: str, by: AbstractBaseUser) -> CaseTimelineEntry:
    """A free-text note on the timeline; notes are allowed on resolved cases too (post-mortems)."""
    text = _reason(text)
    _require(by, PERM_WORK, "work contamination cases")
    case = _locked(case)
    _timeline(case, K.NOTE, text, by=by)
    _audit(case, V_NOTE, by=by, reason=text)
    return case.timeline.order_by("-pk").first()


@transaction.atomic
def case_checklist_record(*, case: Case, key: str, state: str, finding: str, by: AbstractBaseUser) -> Item:
    """Record one checklist item's finding (done or not applicable). L4 items need a lead."""
    finding = _reason(finding)
    case = _locked(case)
    _require(by, PERM_SYSTEMIC if case.level == L.SYSTEMIC else PERM_WORK,
             "record L4 audit findings" if case.level == L.SYSTEMIC else "work contamination cases")
    _open(case)
    if state not in (Item.State.DONE, Item.State.NOT_APPLICABLE):
        raise ValidationFailed("A checklist item is recorded as done or not applicable.", code="state_invalid",
                               extra={"field": "state"})
    item = case.checklist.select_for_update().filter(key=key).first()
    if item is None:
        raise ValidationFailed(f"{case.reference} has no checklist item {key!r}.", code="checklist_item_unknown",
                               extra={"field": "key"})
    before = {"state": item.state, "finding": item.finding}
    item.state, item.finding, item.done_by, item.done_at = state, finding, by, timezone.now()
    item.save(update_fields=["state", "finding", "done_by", "done_at"])
    _timeline(case, K.CHECKLIST, f"{item.label}: {item.get_state_display().lower()} — {finding}", by=by,
              key=key, state=state)
    _audit(case, V_CHECKLIST, by=by, reason=finding, before={key: before}, after={key: {"state": state}})
    return item


_NEXT = {L.FLAG: L.INVESTIGATE, L.INVESTIGATE: L.QUARANTINE, L.QUARANTINE: L.SYSTEMIC}


@transaction.atomic
def case_escalate(*, case: Case, to_level: int, by: AbstractBaseUser | None, reason: str,
                  actor_label: str = "", composite: float | None = None) -> Case:
    """Raise a case's level and apply the new level's effects. Raising to L4 needs a lead."""
    reason = _reason(reason)
    _require(by, PERM_SYSTEMIC if to_level == L.SYSTEMIC else PERM_WORK,
             "raise a case to L4" if to_level == L.SYSTEMIC else "escalate contamination cases",
             actor_label=actor_label, system_allowed=True)
    case = _locked(case)
    _open(case)
    if to_level not in L.values or to_level <= case.level:
        raise Conflict(f"{case.reference} is {case.get_level_display()}; it can only be raised.",
                       code="level_not_higher", extra={"level": case.level, "to_level": to_level})
    if to_level == L.QUARANTINE and case.instance_id is None:
        raise ValidationFailed("An L3 quarantine needs the challenge instance.", code="instance_required")
    before = case.level
    case.level = to_level
    case.level_changed_at = timezone.now()
    fields = ["level", "level_changed_at", "deadline_at", "overdue_step"]
    if composite is not None:
        case.composite = max(case.composite or 0.0, composite)
        fields.append("composite")
    effects = _apply_level(case, to_level, by=by, actor_label=actor_label, reason=reason)
    case.save(update_fields=fields)
    _timeline(case, K.LEVEL, f"{L(before).label} → {case.get_level_display()}: {reason}", by=by,
              actor_label=actor_label, before=before, after=to_level)
    if effects:
        _timeline(case, K.EFFECT, _effects_text(effects), by=by, actor_label=actor_label, **effects)
    _audit(case, V_ESCALATED, by=by, actor_label=actor_label, reason=reason, before={"level": before},
           after={"level": to_level, "effects": effects,
                  "deadline_at": case.deadline_at.isoformat() if case.deadline_at else None})
    _notify(case, f"Escalated to {case.get_level_display()}", reason, by=by, actor_label=actor_label)
    if to_level == L.QUARANTINE:
        _systemic_rule(by=by, actor_label=actor_label)
    return case


def _resolve(case: Case, outcome: str, *, by, reason: str, actor_label: str = "", **extra: Any) -> Case:
    now = timezone.now()
    case.state = Case.State.RESOLVED
    case.outcome = outcome
    case.resolution = reason
    case.resolved_at = now
    case.resolved_by = actor_or_none(by)
    case.time_to_resolve_seconds = (now - case.opened_at).total_seconds()
    case.deadline_at = None
    case.save(update_fields=["state", "outcome", "resolution", "resolved_at", "resolved_by",
                             "time_to_resolve_seconds", "deadline_at", *extra.pop("fields", [])])
    _timeline(case, K.OUTCOME, f"{Case.Outcome(outcome).label}: {reason}", by=by, actor_label=actor_label,
              outcome=outcome, **extra)
    _audit(case, V_RESOLVED, by=by, actor_label=actor_label, reason=reason,
           before={"state": Case.State.OPEN, "level": case.level},
           after={"state": case.state, "outcome": outcome, **extra})
    _notify(case, f"Resolved: {Case.Outcome(outcome).label}", reason, by=by, actor_label=actor_label)
    return case


@transaction.atomic
def case_flag_close(*, case: Case, by: AbstractBaseUser, reason: str) -> Case:
    """Close an L1 flag as noted: it stays in the weekly report; scoring was never touched."""
    reason = _reason(reason)
    _require(by, PERM_WORK, "work contamination cases")
    case = _locked(case)
    _open(case)
    if case.level != L.FLAG:
        raise Conflict(f"{case.reference} is {case.get_level_display()}; only an L1 flag closes as noted.",
                       code="level_mismatch", extra={"level": case.level})
    return _resolve(case, Case.Outcome.NOTED, by=by, reason=reason)


REVIEW_OUTCOMES = (Case.Outcome.FALSE_POSITIVE, Case.Outcome.CONFIRMED, Case.Outcome.INCONCLUSIVE)


@transaction.atomic
def case_review_decide(*, case: Case, outcome: str, by: AbstractBaseUser, reason: str,
                       threshold_suggestion: str = "") -> Case:
    """Decide an L2 investigation once its review checklist is recorded.

    - false positive: the flag is cleared, held scores are restored, and the threshold
      suggestion (required) is recorded for calibration;
    - confirmed: the case is escalated to L3 (quarantine);
    - inconclusive: scores stay provisional until their bout closes, and monitoring is
      raised on the template for ``cases.monitoring_days``: a detection finding there
      opens a case at ``cases.watch_min_level`` at least (a flag is investigated).
    """
    reason = _reason(reason)
    _require(by, PERM_WORK, "decide contamination reviews")
    case = _locked(case)
    _open(case)
    if case.level != L.INVESTIGATE:
        raise Conflict(f"{case.reference} is {case.get_level_display()}; only an L2 investigation takes a review "
                       "outcome.", code="level_mismatch", extra={"level": case.level})
    if outcome not in REVIEW_OUTCOMES:
        raise ValidationFailed(f"Unknown review outcome {outcome!r}.", code="outcome_invalid",
                               extra={"field": "outcome"})
    pending = _pending_items(case, Item.Section.REVIEW)
    if pending:
        raise Conflict("Record every review checklist item before deciding.", code="checklist_incomplete",
                       extra={"pending": pending})
    if outcome == Case.Outcome.CONFIRMED:
        return case_escalate(case=case, to_level=L.QUARANTINE, by=by, reason=f"review confirmed contamination: "
                                                                             f"{reason}")
    if outcome == Case.Outcome.FALSE_POSITIVE:
        if not threshold_suggestion.strip():
            raise ValidationFailed("A false positive records a threshold-tuning suggestion for calibration.",
                                   code="threshold_suggestion_required", extra={"field": "threshold_suggestion"})
        case.threshold_suggestion = threshold_suggestion.strip()
        restored = _release(case, by=by, actor_label="", restore=True)
        return _resolve(case, outcome, by=by, reason=reason, scores_restored=restored,
                        threshold_suggestion=case.threshold_suggestion, fields=["threshold_suggestion"])
    # Inconclusive: scores keep following their bout (provisional while it runs).
    released = _release(case, by=by, actor_label="", restore=True)
    watch = None
    if case.template_id:
        now = timezone.now()
        watch = TemplateWatch.objects.create(template=case.template, case=case, starts_at=now,
                                             ends_at=now + timedelta(days=config_value("cases.monitoring_days")),
                                             reason=reason)
    return _resolve(case, outcome, by=by, reason=reason, scores_restored=released,
                    monitoring_until=watch.ends_at.isoformat() if watch else None)


QUARANTINE_SCOPES = ("instance", "template")


@transaction.atomic
def case_quarantine_decide(*, case: Case, scope: str, by: AbstractBaseUser, reason: str) -> Case:
    """Decide an L3 quarantine once its analysis checklist is recorded.

    - ``instance``: the instance's scores are invalidated, it is retired, and a
      replacement is generated through the pipeline (a different draw, deduplicated
      against this one) and added to each bout still running, where the affected agents
      start fresh attempts;
    - ``template`` (Integrity Lead only): the template is retired at once, every score
      from it in the case's season is invalidated, replacements come from other
      templates, and the instance's fingerprint joins the known-contamination corpus.
    """
    reason = _reason(reason)
    if scope not in QUARANTINE_SCOPES:
        raise ValidationFailed(f"Unknown scope {scope!r}.", code="scope_invalid", extra={"field": "scope"})
    _require(by, PERM_TEMPLATE if scope == "template" else PERM_WORK,
             "confirm template-level contamination" if scope == "template" else "decide quarantines")
    case = _locked(case)
    _open(case)
    if case.level != L.QUARANTINE:
        raise Conflict(f"{case.reference} is {case.get_level_display()}; only an L3 quarantine takes this outcome.",
                       code="level_mismatch", extra={"level": case.level})
    pending = _pending_items(case, Item.Section.ANALYSIS)
    if pending:
        raise Conflict("Record every analysis checklist item before deciding.", code="checklist_incomplete",
                       extra={"pending": pending})
    from challenges.services.instances import instance_set_state

    instance = case.instance
    if scope == "instance":
        invalidated = _invalidate(case, _instance_scores(instance).select_for_update(), by=by, actor_label="")
        instance_set_state(instance=instance, state=ChallengeInstance.State.RETIRED, by=by,
                           reason=f"{case.reference} instance-level contamination: {reason}")
        bouts = _running_bouts_with(BoutChallenge.objects.filter(instance=instance))
        for bout_id in bouts:
            enqueue_on_commit("detection.tasks.case_replacement_generate", case.pk, bout_id, instance.pk, "instance")
        return _resolve(case, Case.Outcome.INSTANCE, by=by, reason=reason, scores_invalidated=invalidated,
                        replacements_queued_for_bouts=bouts)
    return _template_outcome(case, by=by, reason=reason)


def _running_bouts_with(challenges) -> list[int]:
    """Bouts not yet closed among the given bout challenges."""
    running = challenges.filter(bout__state__in=[Bout.State.ACTIVE, Bout.State.HALTED, Bout.State.SCHEDULED])
    return sorted(set(running.values_list("bout_id", flat=True)))


def _template_outcome(case: Case, *, by, reason: str) -> Case:
    from challenges.services.corpus import corpus_entry_create
    from challenges.services.novelty import parse_fingerprint
    from challenges.services.rotation import template_retire_emergency

    template, instance = case.template, case.instance
    retired = template_retire_emergency(template=template, by=by, reason=f"{case.reference}: {reason}")
    season_id = case.bout.season_id if case.bout_id else None
    if season_id is None and instance is not None:
        season_id = (BoutChallenge.objects.filter(instance=instance).order_by("-bout__starts_at")
                     .values_list("bout__season_id", flat=True).first())
    scores = Score.objects.filter(challenge__instance__template=template).select_for_update().order_by("pk")
    if season_id is not None:
        scores = scores.filter(challenge__bout__season_id=season_id)
    invalidated = _invalidate(case, scores, by=by, actor_label="")
    from challenges.services.instances import instance_set_state

    in_bouts = ChallengeInstance.objects.filter(template=template, bout_uses__isnull=False).exclude(
        state=ChallengeInstance.State.RETIRED).distinct().order_by("pk")
    for used in in_bouts:
        instance_set_state(instance=used, state=ChallengeInstance.State.RETIRED, by=by,
                           reason=f"{case.reference} template-level contamination: {reason}")
    corpus_key = f"case-{case.pk}-{template.slug}"[:100]
    corpus, corpus_note = None, ""
    if instance is not None:
        try:
            parse_fingerprint(instance.fingerprint)
        except ValidationFailed as exc:
            # Retiring and invalidating must not wait on a malformed fingerprint; say so instead.
            corpus_note = f"fingerprint not added to the corpus: {exc.message}"
            instance = None
    if instance is not None:
        corpus = corpus_entry_create(
            key=corpus_key, category=config_value("cases.corpus_category"),
            title=f"Platform template found contaminated ({case.reference})",
            note=f"Fingerprint of an instance of a template confirmed contaminated by {case.reference}.",
            fingerprint=instance.fingerprint, by=by, reason=f"{case.reference} template-level outcome: {reason}")
    bouts = _running_bouts_with(BoutChallenge.objects.filter(instance__template=template))
    for bout_id in bouts:
        for replaced in (BoutChallenge.objects.filter(bout_id=bout_id, instance__template=template)
                         .values_list("instance_id", flat=True)):
            enqueue_on_commit("detection.tasks.case_replacement_generate", case.pk, bout_id, replaced, "template")
    return _resolve(case, Case.Outcome.TEMPLATE, by=by, reason=reason, template_retired=template.pk,
                    pool_instances_retired=retired["instances_retired"], scores_invalidated=invalidated,
                    season=season_id, corpus_entry=corpus.key if corpus else None, corpus_note=corpus_note,
                    replacements_queued_for_bouts=bouts)


# --- replacements (background) ---------------------------------------------------------------------


def case_replacement_generate(*, case_id: int, bout_id: int, contaminated_id: int, scope: str) -> int | None:
    """Generate a replacement for a contaminated instance and add it to the bout.

    Instance scope draws again from the same template, falling back to rotation (another
    template) when the template cannot release now or every draw collides with the
    contaminated one; template scope lets rotation choose among other
    templates. The pipeline's dedup compares the draw with every instance in the window,
    the contaminated one included (quarantined and retired instances stay in it); the
    replacement is also checked directly against the contaminated fingerprint.
    Idempotent per (case, bout, contaminated instance). Returns the new challenge id.
    """
    from challenges.novelty import Verdict
    from challenges.services.generation import instance_generate
    from challenges.services.novelty import fingerprint_check
    from competition.services.bouts import bout_challenge_add

    case = Case.objects.select_related("template").get(pk=case_id)
    contaminated = ChallengeInstance.objects.select_related("template").get(pk=contaminated_id)
    bout = Bout.objects.get(pk=bout_id)
    marker = f"replaces:{contaminated.pk}"
    if CaseTimelineEntry.objects.filter(case=case, kind=K.EFFECT, data__marker=marker, data__bout=bout.pk).exists():
        return None
    same_template = scope == "instance" and contaminated.template.state == ChallengeTemplate.State.ACTIVE
    first_try = failure = ""
    result = None
    try:
        result = instance_generate(template=contaminated.template if same_template else None,
                                   language=contaminated.language if same_template else None)
        if same_template and (result.instance is None
                              or result.instance.state != ChallengeInstance.State.RELEASED):
            # Every draw of the template may sit too close to the contaminated one (dedup
            # rejects them): let rotation pick another template, as the pipeline does.
            first_try = result.reason or "no release from the same template"
            result = instance_generate(template=None, language=contaminated.language)
    except (Conflict, ValidationFailed) as exc:  # e.g. rotation has no eligible template
        failure = f"the pipeline refused: {exc.message}"
    replacement = result.instance if result is not None else None
    if failure:
        replacement = None
    elif replacement is None or replacement.state != ChallengeInstance.State.RELEASED:
        last = result.attempts[-1] if result.attempts else None
        failure = "; ".join(part for part in (
            result.reason or "the pipeline released no instance",
            f"last pass: {last.get_outcome_display().lower()}: {last.reason[:300]}" if last else "",
        ) if part)
    elif replacement.template_id == contaminated.template_id and scope == "template":
        failure = "rotation chose the retired template"
    else:
        # The draw must differ from the contaminated one: compare directly as well.
        decision = fingerprint_check(fingerprint=replacement.fingerprint, exclude_instance_id=replacement.pk)
        near = [m for m in decision.matches if m.source == "instance" and str(m.key) == str(contaminated.pk)]
        if near and decision.verdict is Verdict.REJECT:
            failure = f"replacement is a near-duplicate of the contaminated draw ({near[0].score:.2f})"
    with transaction.atomic():
        case = _locked(case)
        if failure:
            _timeline(case, K.EFFECT, f"Replacement for bout {bout.handle} failed: {failure}", actor_label="generator",
                      marker=f"failed:{contaminated.pk}", bout=bout.pk)
            _audit(case, V_REPLACEMENT_FAILED, actor_label="generator", reason=failure, after={"bout": bout.pk})
            _notify(case, "Replacement challenge not generated", failure, actor_label="generator")
            return None
        try:
            challenge = bout_challenge_add(bout=bout, instance=replacement, by=None, actor_label="contamination case",
                                           reason=f"{case.reference}: replaces a contaminated challenge")
        except Conflict as exc:
            failure = f"replacement not added to {bout.handle}: {exc.message}"
            _timeline(case, K.EFFECT, failure[0].upper() + failure[1:], actor_label="generator",
                      marker=f"failed:{contaminated.pk}", bout=bout.pk)
            _audit(case, V_REPLACEMENT_FAILED, actor_label="generator", reason=failure,
                   after={"bout": bout.pk, "instance": replacement.pk})
            _notify(case, "Replacement challenge not added", failure, actor_label="generator")
            return None
        case.replacement_instances.add(replacement)
        affected = sorted(set(Score.objects.filter(challenge__instance=contaminated, challenge__bout=bout)
                              .values_list("entry__agent_id", flat=True)) | set(case.agents.values_list("pk", flat=True)))
        note = f" (same template first: {first_try}; rotation chose another)" if first_try else ""
        _timeline(case, K.EFFECT, f"Replacement challenge added to bout {bout.handle} (position {challenge.position}); "
                                  f"{len(affected)} affected agent(s) can start a fresh attempt{note}",
                  actor_label="generator", marker=marker, bout=bout.pk, instance=replacement.pk,
                  challenge=challenge.pk, agents=affected)
        _audit(case, V_REPLACEMENT, actor_label="generator", reason="replacement for a contaminated challenge",
               after={"bout": bout.pk, "instance": replacement.pk, "challenge": challenge.pk, "agents": affected})
    return challenge.pk


# --- L4 systemic ------------------------------------------------------------------------------------


@transaction.atomic
def case_systemic_approve(*, case: Case, by: AbstractBaseUser, reason: str) -> CaseApproval:
    """An Integrity Lead approves resuming after the audit is complete (one approval per lead)."""
    reason = _reason(reason)
    _require(by, PERM_SYSTEMIC, "approve resuming after an L4 audit")
    case = _locked(case)
    _open(case)
    if case.level != L.SYSTEMIC:
        raise Conflict(f"{case.reference} is not an L4 systemic case.", code="level_mismatch")
    pending = _pending_items(case, Item.Section.AUDIT, Item.Section.REMEDIATION)
    if pending:
        raise Conflict("The audit and remediation steps must be complete before approval.",
                       code="checklist_incomplete", extra={"pending": pending})
    if case.approvals.filter(approver=by).exists():
        raise Conflict("You have approved this case already; a second Integrity Lead must approve.",
                       code="approval_repeated")
    approval = CaseApproval.objects.create(case=case, approver=by, approved_at=timezone.now(), reason=reason)
    count = case.approvals.count()
    _timeline(case, K.APPROVAL, f"Approved by {by} ({count} of {config_value('cases.l4_approvals_required')}): "
                                f"{reason}", by=by, approvals=count)
    _audit(case, V_APPROVED, by=by, reason=reason, after={"approvals": count})
    return approval


@transaction.atomic
def case_systemic_resume(*, case: Case, by: AbstractBaseUser, reason: str) -> Case:
    """Resume the bouts this L4 halted and resolve it: the audit and remediation must be
    complete and ``cases.l4_approvals_required`` different Integrity Leads must have approved."""
    from competition.services.bouts import bout_transition

    reason = _reason(reason)
    _require(by, PERM_SYSTEMIC, "resume bouts after an L4 audit")
    case = _locked(case)
    _open(case)
    if case.level != L.SYSTEMIC:
        raise Conflict(f"{case.reference} is not an L4 systemic case.", code="level_mismatch")
    pending = _pending_items(case, Item.Section.AUDIT, Item.Section.REMEDIATION)
    if pending:
        raise Conflict("The audit and remediation steps must be complete first.", code="checklist_incomplete",
                       extra={"pending": pending})
    needed = config_value("cases.l4_approvals_required")
    approvers = set(case.approvals.values_list("approver_id", flat=True))
    if len(approvers) < needed:
        raise Conflict(f"Resuming needs {needed} approvals from different Integrity Leads; "
                       f"{len(approvers)} so far.", code="approvals_missing",
                       extra={"approvals": len(approvers), "required": needed})
    resumed = []
    now = timezone.now()
    for bout in case.halted_bouts.filter(state=Bout.State.HALTED, ends_at__gt=now).order_by("pk"):
        if Case.objects.filter(level=L.SYSTEMIC, state=Case.State.OPEN, halted_bouts=bout).exclude(pk=case.pk).exists():
            continue
        bout_transition(bout=bout, action="resume", by=by, reason=f"{case.reference} audit complete: {reason}",
                        public_reason=config_value("cases.public_reason_resume"))
        resumed.append(bout.pk)
    return _resolve(case, Case.Outcome.SYSTEMIC_REMEDIATED, by=by, reason=reason, bouts_resumed=resumed,
                    approvers=sorted(approvers))


@transaction.atomic
def case_threshold_tighten(*, case: Case, key: str, value: Any, by: AbstractBaseUser, reason: str,
                           hours: float | None = None) -> TemporaryThreshold:
    """L4 remediation: change a detection/novelty setting for a while; the deadline task
    reverts it at expiry (to the override, or the default, that was in force before)."""
    from core.config import definition
    from core.models import ConfigOverride
    from core.services import config_set

    reason = _reason(reason)
    _require(by, PERM_SYSTEMIC, "tighten thresholds for an L4 remediation")
    case = _locked(case)
    _open(case)
    if case.level != L.SYSTEMIC:
        raise Conflict(f"{case.reference} is not an L4 systemic case.", code="level_mismatch")
    if not key.startswith(("novelty.", "detection.")):
        raise ValidationFailed("Only novelty and detection thresholds can be tightened temporarily.",
                               code="setting_not_allowed", extra={"field": "key"})
    definition(key)
    if TemporaryThreshold.objects.filter(key=key, reverted_at__isnull=True).exists():
        raise Conflict(f"{key} is already tightened temporarily.", code="threshold_already_tightened")
    existing = ConfigOverride.objects.filter(key=key).first()
    hours = config_value("cases.threshold_expiry_hours") if hours is None else hours
    if hours <= 0:
        raise ValidationFailed("The temporary change needs a positive lifetime.", code="hours_invalid",
                               extra={"field": "hours"})
    cleaned = config_set(key=key, value=value, by=by, reason=f"{case.reference} L4 remediation: {reason}")
    now = timezone.now()
    row = TemporaryThreshold.objects.create(case=case, key=key, previous=existing.value if existing else None,
                                            had_override=existing is not None, value=cleaned, set_at=now,
                                            expires_at=now + timedelta(hours=hours))
    _timeline(case, K.EFFECT, f"{key} set to {cleaned} until {row.expires_at.isoformat()}: {reason}", by=by,
              key=key, value=cleaned, expires_at=row.expires_at.isoformat())
    _audit(case, V_THRESHOLD, by=by, reason=reason, after={"key": key, "value": cleaned,
                                                           "expires_at": row.expires_at.isoformat()})
    return row


def thresholds_revert_expired(*, now: datetime | None = None) -> list[str]:
    from core.services import config_reset, config_set

    now = now or timezone.now()
    reverted = []
    for row in TemporaryThreshold.objects.filter(reverted_at__isnull=True, expires_at__lte=now).order_by("pk"):
        with transaction.atomic():
            row = TemporaryThreshold.objects.select_for_update().get(pk=row.pk)
            if row.reverted_at is not None:
                continue
            why = f"temporary change by {row.case.reference} expired"
            if row.had_override:
                config_set(key=row.key, value=row.previous, by=None, reason=why)
            else:
                config_reset(key=row.key, by=None, reason=why)
            row.reverted_at = now
            row.save(update_fields=["reverted_at"])
            _timeline(row.case, K.EFFECT, f"{row.key} reverted: {why}", actor_label="scheduler", key=row.key)
            _audit(row.case, V_THRESHOLD_REVERTED, actor_label="scheduler", reason=why, after={"key": row.key})
            reverted.append(row.key)
    return reverted


# --- deadlines ---------------------------------------------------------------------------------------


def _lead_for(case: Case) -> AbstractBaseUser | None:
    leads = [u for u in integrity_staff() if u.groups.filter(name=INTEGRITY_LEAD).exists() or u.is_superuser]
    others = [u for u in leads if u.pk != case.assignee_id]
    return (others or leads or [None])[0]


def cases_enforce_deadlines(*, now: datetime | None = None) -> dict[str, int]:
    """The q2 schedule's work: notify on a breached deadline, then after the grace period
    act (raise the level, or reassign to an Integrity Lead) as staff configured; revert
    expired temporary thresholds. Each case is handled under its row lock, once per step."""
    now = now or timezone.now()
    grace = timedelta(hours=config_value("cases.overdue_grace_hours"))
    action = config_value("cases.overdue_action")
    counts = {"notified": 0, "escalated": 0, "reassigned": 0}
    overdue = Case.objects.filter(state=Case.State.OPEN, deadline_at__lte=now).order_by("deadline_at", "pk")
    for case_id in overdue.values_list("pk", flat=True):
        with transaction.atomic():
            case = Case.objects.select_for_update().get(pk=case_id)
            if case.state != Case.State.OPEN or case.deadline_at is None or case.deadline_at > now:
                continue
            late = now - case.deadline_at
            if case.overdue_step == 0:
                case.overdue_step = 1
                case.save(update_fields=["overdue_step"])
                message = f"Deadline breached by {int(late.total_seconds() // 60)} min"
                _timeline(case, K.OVERDUE, message, actor_label="scheduler", step=1)
                _audit(case, V_OVERDUE, actor_label="scheduler", reason=message, after={"step": 1})
                _notify(case, "Deadline breached", f"{message}; {action.replace('_', ' ')} in {grace}.",
                        actor_label="scheduler")
                counts["notified"] += 1
            elif case.overdue_step == 1 and late >= grace:
                if action == "raise_level" and case.level in (L.FLAG, L.INVESTIGATE):
                    case_escalate(case=case, to_level=_NEXT[case.level], by=None, actor_label="scheduler",
                                  reason=f"deadline breached by {late}; overdue action: raise the level")
                    counts["escalated"] += 1
                    continue
                lead = _lead_for(case)
                case.overdue_step = 2
                case.save(update_fields=["overdue_step"])
                if lead is None or lead.pk == case.assignee_id:
                    why = "no other Integrity Lead to reassign to"
                    _timeline(case, K.OVERDUE, f"Still overdue; {why}", actor_label="scheduler", step=2)
                    _audit(case, V_OVERDUE, actor_label="scheduler", reason=f"still overdue; {why}",
                           after={"step": 2})
                    _notify(case, "Still overdue", why, actor_label="scheduler")
                    continue
                case_assign(case=case, assignee=lead, by=None, actor_label="scheduler",
                            reason=f"deadline breached by {late}; overdue action: reassign to an Integrity Lead")
                counts["reassigned"] += 1
    counts["thresholds_reverted"] = len(thresholds_revert_expired(now=now))
    return counts
