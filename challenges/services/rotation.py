"""Template rotation and pool refresh (spec 003, Strategy 3).

* ``rotation_pick`` - what the generation pipeline calls to choose the next template:
  an eligible ACTIVE template supporting the language, drawn with probability
  proportional to its rotation weight (``secrets.SystemRandom``), with the domains and
  stacks it may use now. Nothing eligible raises ``Conflict(code="no_eligible_template")``
  with every template's reasons in ``extra["templates"]``.
* ``template_set_state`` / ``template_set_tier`` - audited catalogue decisions.
* ``template_retire_emergency`` - retire a template at once (contamination response),
  with its unused pool instances.
* ``template_pool_refresh`` - the quarterly refresh: retire the bottom share by the health
  score of ``challenges.novelty.refresh`` (solve-rate discrimination, mean uniqueness,
  freedom from quarantine), promote as many ready drafts. A draft is *ready* when its
  intake gate ran and passed (``intake["passed"] is True``). Then every active template's
  measured solve rate is compared with its tier's band (``challenges.calibration.discrimination``):
  a tier proposal to promote or demote it, or a refresh flag with a lowered rotation weight.
* ``bug_class_too_easy_review`` - monthly: a bug class (per tier) solved at or above the
  threshold for the last N complete months is promoted a tier, or retired at the top.

The scheduled runs are idempotent per period: a second run in the same quarter (month)
finds the first run's audit event and does nothing, so a retried task never retires or
promotes twice.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate
from challenges.novelty import (
    BugClassRecord,
    DraftTemplate,
    MonthlySolves,
    TemplateStats,
    assess_too_easy,
    choose_weighted,
    health_score,
    plan_quarterly_refresh,
)
from challenges.novelty.fingerprint import canonical_text
from challenges.novelty.rotation import stack_key
from challenges.novelty_config import refresh_policy, too_easy_policy
from challenges.selectors.rotation import (
    bug_class_monthly_solves,
    lexicon_pool,
    rotation_calendar,
    rotation_evaluate,
    template_attempt_stats,
    template_stacks,
)
from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent
from core.services import audit_event_record

__all__ = [
    "RotationChoice", "bug_class_too_easy_review", "rotation_calendar", "rotation_pick", "template_pool_refresh",
    "template_retire_emergency", "template_set_state", "template_set_tier",
]


@dataclass(frozen=True)
class RotationChoice:
    template: ChallengeTemplate
    allowed_lexicon_keys: list[str]
    allowed_stacks: list[list[str]]
    weight: float
    reasons: list[str] = field(default_factory=list)


def _aware_now(now: datetime | None) -> datetime:
    now = now or timezone.now()
    if timezone.is_naive(now):
        raise ValidationFailed("now must be timezone-aware.", code="naive_datetime", extra={"field": "now"})
    return now


def rotation_pick(
    *, language: str | None, now: datetime | None = None, exclude_template_ids: frozenset[int] = frozenset()
) -> RotationChoice:
    """Choose the next template to generate from (see the module docstring). Reads only."""
    now = _aware_now(now)
    candidates = ChallengeTemplate.objects.filter(state=ChallengeTemplate.State.ACTIVE).order_by("slug")
    blocked: dict[str, list[str]] = {}
    usable = []
    for template in candidates:
        if language is not None and language not in template.languages:
            blocked[template.slug] = [f"does not support {language}"]
        elif template.pk in exclude_template_ids:
            blocked[template.slug] = ["excluded by the caller (rotated away after collisions)"]
        else:
            usable.append(template)
    evaluated = rotation_evaluate(usable, language=language, now=now)
    for template, result in evaluated:
        if not result.eligible:
            blocked[template.slug] = list(result.reasons)
    chosen = choose_weighted([result for _, result in evaluated], secrets.SystemRandom())
    if chosen is None:
        where = f" for {language}" if language else ""
        listing = "; ".join(f"{slug}: {', '.join(reasons)}" for slug, reasons in sorted(blocked.items()))
        hint = ("no active templates: templates start as drafts; activate them through the intake gate with "
                "manage.py activate_templates [SLUG...] or the template admin's Activate action")
        raise Conflict(
            f"No active template is eligible{where} now ({listing or hint})",
            code="no_eligible_template", extra={"templates": dict(sorted(blocked.items())), "language": language},
        )
    template = next(t for t, r in evaluated if r is chosen)
    keys = {canonical_text(k): k for k in lexicon_pool()}
    stacks = {stack_key(stack): list(stack) for stack in template_stacks(template, language)}
    eligible = [r for _, r in evaluated if r.eligible and r.weight > 0]
    total = sum(r.weight for r in eligible)
    return RotationChoice(
        template=template,
        allowed_lexicon_keys=[keys.get(d, d) for d in chosen.allowed_domains],
        allowed_stacks=[stacks.get(stack, list(stack)) for stack in chosen.allowed_stacks],
        weight=chosen.weight,
        reasons=[
            f"drawn from {len(eligible)} eligible of {len(candidates)} active templates"
            + (f" for {language}" if language else ""),
            f"weight {chosen.weight:.3f} of {total:.3f} ({chosen.uses} recent use(s))",
            f"{len(chosen.allowed_domains)} domains and {len(chosen.allowed_stacks)} stack combination(s) free",
        ] + ([f"{template.get_refresh_flag_display().lower()} (quarterly refresh lowered its weight: "
              f"{template.refresh_note})"] if template.refresh_flag else []),
    )


# --- catalogue decisions ----------------------------------------------------------------------


def _reason(reason: str) -> str:
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    return reason.strip()


@transaction.atomic
def template_set_state(
    *, template: ChallengeTemplate, state: str, by: AbstractBaseUser | None, reason: str, actor_label: str = ""
) -> ChallengeTemplate:
    """Promote, retire or re-draft a template, with a reason (audited)."""
    reason = _reason(reason)
    if state not in ChallengeTemplate.State.values:
        raise ValidationFailed(f"Unknown template state {state!r}.", code="state_invalid", extra={"field": "state"})
    template = ChallengeTemplate.objects.select_for_update().get(pk=template.pk)
    before = template.state
    if before == state:
        raise Conflict(f"{template.slug} is already {state}.", code="state_unchanged")
    template.state, template.state_reason = state, reason
    template.full_clean()
    template.save(update_fields=["state", "state_reason", "updated_at"])
    audit_event_record(verb=f"template.{state}", target=template, actor=by, actor_label=actor_label,
                       before={"state": before}, after={"state": state}, reason=reason)
    return template


@transaction.atomic
def template_set_tier(
    *, template: ChallengeTemplate, tier: int | None, by: AbstractBaseUser | None, reason: str, actor_label: str = ""
) -> ChallengeTemplate:
    """Set the staff tier override (``None`` clears it: the spec's tier applies again), audited.

    The override is staff-owned: ``template_sync`` never writes it, and the next generated
    instance carries the tier in force.
    """
    reason = _reason(reason)
    if tier is not None and (isinstance(tier, bool) or not isinstance(tier, int) or not 1 <= tier <= 5):
        raise ValidationFailed("A tier is a whole number from 1 to 5.", code="tier_invalid", extra={"field": "tier"})
    template = ChallengeTemplate.objects.select_for_update().get(pk=template.pk)
    before = {"tier": template.tier, "tier_override": template.tier_override}
    if template.tier_override == tier:
        raise Conflict(f"{template.slug} already has tier override {tier}.", code="tier_unchanged")
    template.tier_override = tier
    template.full_clean()
    template.save(update_fields=["tier_override", "updated_at"])
    template.refresh_from_db(fields=["tier"])
    audit_event_record(verb="template.tier_changed", target=template, actor=by, actor_label=actor_label,
                       before=before, after={"tier": template.tier, "tier_override": tier}, reason=reason)
    return template


@transaction.atomic
def template_retire_emergency(
    *, template: ChallengeTemplate, by: AbstractBaseUser | None, reason: str, actor_label: str = ""
) -> dict[str, Any]:
    """Retire a template now, and every instance of it still waiting in the pool.

    Instances already placed in a bout are left to the contamination response (their
    scores are that process's decision); generated or released instances never used in a
    bout are retired so nothing new from this template reaches agents. Idempotent.
    """
    from challenges.services.instances import instance_set_state

    reason = _reason(reason)
    template = ChallengeTemplate.objects.select_for_update().get(pk=template.pk)
    was = template.state
    if was != ChallengeTemplate.State.RETIRED:
        template_set_state(template=template, state=ChallengeTemplate.State.RETIRED, by=by,
                           reason=f"emergency retirement: {reason}", actor_label=actor_label)
    stock = (
        ChallengeInstance.objects.filter(
            template=template, state__in=[ChallengeInstance.State.GENERATED, ChallengeInstance.State.RELEASED]
        )
        .filter(bout_uses__isnull=True)
        .order_by("pk")
    )
    retired = []
    for instance in stock:
        instance_set_state(instance=instance, state=ChallengeInstance.State.RETIRED, by=by, actor_label=actor_label,
                           reason=f"template {template.slug} retired in an emergency: {reason}")
        retired.append(instance.pk)
    audit_event_record(verb="template.retired_emergency", target=template, actor=by, actor_label=actor_label,
                       before={"state": was}, after={"state": ChallengeTemplate.State.RETIRED,
                                                     "instances_retired": retired}, reason=reason)
    return {"template": template.slug, "was": was, "instances_retired": retired}


# --- scheduled decisions ----------------------------------------------------------------------


def _ran_since(verb: str, start: datetime) -> bool:
    return AuditEvent.objects.filter(verb=verb, occurred_at__gte=start).exists()


def _quarter_start(now: datetime) -> datetime:
    now = now.astimezone(UTC)
    return datetime(now.year, 3 * ((now.month - 1) // 3) + 1, 1, tzinfo=UTC)


def _month_start(now: datetime) -> datetime:
    now = now.astimezone(UTC)
    return datetime(now.year, now.month, 1, tzinfo=UTC)


REFRESH_VERB = "template_pool.refreshed"
TOO_EASY_VERB = "bug_classes.reviewed"
_SCHEDULER = "scheduler"


@transaction.atomic
def template_pool_refresh(*, now: datetime | None = None, force: bool = False) -> dict[str, Any]:
    """Quarterly: retire the bottom share of active templates by health, promote ready drafts."""
    now = _aware_now(now)
    if not force and _ran_since(REFRESH_VERB, _quarter_start(now)):
        return {"skipped": "already refreshed this quarter"}
    policy, period_days = refresh_policy()
    active = list(ChallengeTemplate.objects.select_for_update().filter(state=ChallengeTemplate.State.ACTIVE))
    stats = template_attempt_stats(since=now - timedelta(days=period_days), until=now)
    active_stats = [
        TemplateStats(slug=t.slug, attempts=int(s["attempts"]), solves=int(s["solves"]),
                      mean_uniqueness=s["mean_uniqueness"], contamination_flags=int(s["flags"]))
        for t in active
        for s in [stats.get(t.pk, {"attempts": 0, "solves": 0, "flags": 0, "mean_uniqueness": 1.0})]
    ]
    drafts = [
        DraftTemplate(slug=t.slug, ready=t.intake_checked_at is not None and t.intake.get("passed") is True,
                      created_at=t.created_at)
        for t in ChallengeTemplate.objects.select_for_update().filter(state=ChallengeTemplate.State.DRAFT)
    ]
    plan = plan_quarterly_refresh(active_stats, drafts, policy)
    by_slug = {t.slug: t for t in ChallengeTemplate.objects.filter(slug__in=[d.template for d in plan.retire + plan.promote])}
    for decision in plan.retire:
        template_set_state(template=by_slug[decision.template], state=ChallengeTemplate.State.RETIRED, by=None,
                           actor_label=_SCHEDULER, reason=f"quarterly refresh: {decision.reason}")
    # Promotion re-runs the substrate intake gate: a stored "passed" may predate a code or
    # threshold change, and no template becomes active without passing it now.
    from challenges.services.intake import template_activate_if_passing

    promoted = [
        decision.template for decision in plan.promote
        if template_activate_if_passing(template=by_slug[decision.template], by=None,
                                        reason=f"quarterly refresh: {decision.reason}")
    ]
    health = {s.slug: round(health_score(s, policy), 4) for s in active_stats if s.attempts >= policy.min_attempts}
    discrimination = _discrimination_refresh(now=now, period_days=period_days)
    summary = {
        "retired": [d.template for d in plan.retire], "promoted": promoted,
        "notes": list(plan.notes), "health": health, "discrimination": discrimination,
    }
    counts: dict[str, int] = {}
    for row in discrimination:
        counts[row["action"]] = counts.get(row["action"], 0) + 1
    measured = ", ".join(f"{action} {count}" for action, count in sorted(counts.items()))
    audit_event_record(
        verb=REFRESH_VERB, target_type="template_pool", target_id=f"{now.astimezone(UTC):%Y}-Q{(now.month - 1) // 3 + 1}",
        actor_label=_SCHEDULER, after=summary,
        reason=(f"quarterly refresh of {len(active)} active templates over {period_days} days: retired "
                f"{len(plan.retire)}, promoted {len(promoted)}" + (f"; {'; '.join(plan.notes)}" if plan.notes else "")
                + (f"; measured discrimination: {measured}" if measured else "")),
    )
    return summary


REFRESH_FLAGGED_VERB = "template.refresh_flagged"
REFRESH_CLEARED_VERB = "template.refresh_cleared"


def _discrimination_refresh(*, now: datetime, period_days: int) -> list[dict[str, Any]]:
    """Each active template's measured solve rate against its tier's band, acted on.

    Promotion and demotion open a tier proposal (staff accept it: the tier decides how new
    instances are generated and scored); a template that left the band of the top or bottom
    tier is flagged for harder (easier) variants and its rotation weight lowered at once, and
    the flag is cleared, weight restored, once its rate is back in band. See
    ``challenges.calibration.discrimination``.
    """
    from challenges.calibration.discrimination import (
        BOUTS,
        CALIBRATION,
        DEMOTE,
        KEEP,
        PROMOTE,
        REFRESH_EASIER,
        REFRESH_HARDER,
        discrimination_decision,
    )
    from challenges.calibration_config import calibration_bands
    from challenges.models import TierProposal
    from challenges.selectors.calibration import template_solve_samples
    from challenges.services.calibration import tier_proposal_open
    from core.config import config_value

    bands = calibration_bands()
    min_samples = config_value("rotation.refresh.discrimination_min_samples")
    factor = config_value("rotation.refresh.flagged_weight_factor")
    samples = template_solve_samples(since=now - timedelta(days=period_days), until=now)
    flags = {REFRESH_HARDER: ChallengeTemplate.RefreshFlag.NEEDS_HARDER,
             REFRESH_EASIER: ChallengeTemplate.RefreshFlag.NEEDS_EASIER}
    decisions = []
    for template in ChallengeTemplate.objects.select_for_update().filter(
            state=ChallengeTemplate.State.ACTIVE).order_by("slug"):
        own = samples.get(template.slug, {})
        decision = discrimination_decision(template=template.slug, tier=template.tier, bands=bands,
                                           min_samples=min_samples, calibration=own.get(CALIBRATION),
                                           bouts=own.get(BOUTS))
        row = {"template": template.slug, "action": decision.action, "tier": decision.tier,
               "to_tier": decision.to_tier, "rate": decision.rate, "sample": decision.sample,
               "reason": decision.reason}
        if decision.action in (PROMOTE, DEMOTE):
            proposal, outcome = tier_proposal_open(
                template=template, action=TierProposal.Action.RETIER, from_tier=decision.tier,
                to_tier=decision.to_tier, reason=f"quarterly refresh: {decision.reason}",
                evidence={"discrimination": decision.as_dict()}, actor_label=_SCHEDULER)
            row.update(proposal=proposal.pk, proposal_outcome=outcome)
        elif decision.action in flags:
            row["weight"] = _refresh_flag(template, flags[decision.action], decision.reason, factor)
        elif decision.action == KEEP and template.refresh_flag:
            row["weight"] = _refresh_clear(template, decision.reason)
        decisions.append(row)
    return decisions


def _refresh_flag(template: ChallengeTemplate, flag: str, reason: str, factor: float) -> float:
    """Flag ``template`` and lower its rotation weight (once per flag; a repeat refreshes the note)."""
    before = {"refresh_flag": template.refresh_flag, "weight": template.weight}
    if template.refresh_flag == flag:
        template.refresh_note = reason
        template.save(update_fields=["refresh_note", "updated_at"])
        return template.weight
    base = template.refresh_weight_before if template.refresh_weight_before is not None else template.weight
    template.refresh_flag, template.refresh_note = flag, reason
    template.refresh_weight_before, template.weight = base, round(base * factor, 6)
    template.full_clean()
    template.save(update_fields=["refresh_flag", "refresh_note", "refresh_weight_before", "weight", "updated_at"])
    audit_event_record(verb=REFRESH_FLAGGED_VERB, target=template, actor_label=_SCHEDULER, before=before,
                       after={"refresh_flag": flag, "weight": template.weight},
                       reason=f"quarterly refresh: {reason}; rotation weight × {factor:g}")
    return template.weight


def _refresh_clear(template: ChallengeTemplate, reason: str) -> float:
    """Clear the flag of a template back in band and restore the weight it had before."""
    before = {"refresh_flag": template.refresh_flag, "weight": template.weight}
    if template.refresh_weight_before is not None:
        template.weight = template.refresh_weight_before
    template.refresh_flag, template.refresh_note, template.refresh_weight_before = "", "", None
    template.full_clean()
    template.save(update_fields=["refresh_flag", "refresh_note", "refresh_weight_before", "weight", "updated_at"])
    audit_event_record(verb=REFRESH_CLEARED_VERB, target=template, actor_label=_SCHEDULER, before=before,
                       after={"refresh_flag": "", "weight": template.weight},
                       reason=f"quarterly refresh: {reason}; flag cleared, rotation weight restored")
    return template.weight


@transaction.atomic
def bug_class_too_easy_review(*, now: datetime | None = None, force: bool = False) -> dict[str, Any]:
    """Monthly: promote (or retire at the top tier) bug classes that stayed too easy."""
    now = _aware_now(now)
    month_start = _month_start(now)
    if not force and _ran_since(TOO_EASY_VERB, month_start):
        return {"skipped": "already reviewed this month"}
    policy = too_easy_policy()
    since = month_start
    for _ in range(policy.months):
        since = (since - timedelta(days=1)).replace(day=1)
    monthly = bug_class_monthly_solves(since=since, until=month_start)
    records = [
        BugClassRecord(bug_class=bug_class, tier=tier, history=tuple(
            MonthlySolves(month=date(year, month, 1), attempts=counts[0], solves=counts[1])
            for (year, month), counts in sorted(months.items())
        ))
        for (bug_class, tier), months in sorted(monthly.items())
    ]
    decisions = [d for d in assess_too_easy(records, now, policy) if d.action != "keep"]
    applied = []
    for decision in decisions:
        templates = ChallengeTemplate.objects.select_for_update().filter(
            state=ChallengeTemplate.State.ACTIVE, bug_class=decision.bug_class, tier=decision.from_tier
        ).order_by("slug")
        for template in templates:
            if decision.action == "retire":
                template_set_state(template=template, state=ChallengeTemplate.State.RETIRED, by=None,
                                   actor_label=_SCHEDULER, reason=f"too easy: {decision.reason}")
            else:
                template_set_tier(template=template, tier=decision.to_tier, by=None, actor_label=_SCHEDULER,
                                  reason=f"too easy: {decision.reason}")
            applied.append({"template": template.slug, "action": decision.action, "reason": decision.reason})
    audit_event_record(
        verb=TOO_EASY_VERB, target_type="bug_classes", target_id=f"{month_start:%Y-%m}", actor_label=_SCHEDULER,
        after={"decisions": applied},
        reason=(f"reviewed {len(records)} bug class/tier groups over {policy.months} complete months: "
                f"{len(applied)} template change(s)"),
    )
    return {"groups": len(records), "changes": applied}
