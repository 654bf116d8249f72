"""The quarterly solve-time recalibration: proposals made from the period's honest solves,
accepted (settings written through the config service) or rejected by staff with a reason.

``solve_time_proposal_create`` reads the honest solves of the last
``detection.recalibration.window_days`` per tier (``detection.selectors.recalibration``),
runs the pure ``recalibrate_solve_time`` against the lines in force and stores the result;
an open proposal is superseded. Nothing reaches the timing signal until a staff member
accepts: ``solve_time_proposal_accept`` refuses a proposal whose "before" values no longer
match the settings (someone changed them since), so a stale measurement never overwrites a
newer decision.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.config import config_value
from core.errors import Conflict, ValidationFailed
from core.services import actor_or_none, audit_event_record, config_set
from detection.metrics.recalibration import TierRecalibration, recalibrate_solve_time
from detection.models import SolveTimeProposal
from detection.selectors.recalibration import honest_solve_seconds, recalibration_policy, timing_lines

PROPOSED = "solve_time.proposed"
SUPERSEDED = "solve_time.proposal_superseded"
ACCEPTED = "solve_time.proposal_accepted"
REJECTED = "solve_time.proposal_rejected"


def _tier_changes(result: TierRecalibration) -> dict[str, list[Any]]:
    """Settings accepting one tier's recalibration writes: key -> [stored value now, proposed value].

    A tier line stored as 0 follows the all-tier line, so a line is written when the proposed
    value differs from the value *in force*, and "before" is the stored value (what a later
    accept checks has not moved)."""
    prefix, tier = "detection.solve_time.", result.tier
    now, then = result.current, result.proposed
    lines = ((f"{prefix}investigate_below_tier{tier}", now.investigate_below, then.investigate_below),
             (f"{prefix}flag_below_tier{tier}", now.flag_below, then.flag_below),
             (f"{prefix}prior_minutes_tier{tier}", now.prior_minutes, then.prior_minutes))
    return {key: [config_value(key), after] for key, in_force, after in lines if in_force != after}


@transaction.atomic
def solve_time_proposal_create(*, by: AbstractBaseUser | None, actor_label: str = "",
                               now: datetime | None = None) -> SolveTimeProposal:
    """Measure the period's honest solves and store what they propose (see the module docstring)."""
    now = now or timezone.now()
    policy, window_days = recalibration_policy()
    since = now - timedelta(days=window_days)
    seconds, sources = honest_solve_seconds(since=since, until=now)
    results = recalibrate_solve_time(solves=seconds, current=timing_lines(), policy=policy, sources=sources)
    per_tier = {r.tier: _tier_changes(r) for r in results}
    changes = {key: pair for tier_changes in per_tier.values() for key, pair in tier_changes.items()}
    changed = [tier for tier, tier_changes in per_tier.items() if tier_changes]
    if changed:
        summary = (f"recalibrate tier{'s' if len(changed) > 1 else ''} {', '.join(map(str, changed))} from "
                   f"{sum(r.solves for r in results)} honest solves of the last {window_days} days; "
                   + "; ".join(r.reason for r in results if r.tier in changed))
    else:
        summary = (f"nothing to change from {sum(r.solves for r in results)} honest solves of the last "
                   f"{window_days} days: " + "; ".join(r.reason for r in results))
    state = SolveTimeProposal.State.OPEN if changes else SolveTimeProposal.State.NO_CHANGE
    for stale in SolveTimeProposal.objects.select_for_update().filter(state=SolveTimeProposal.State.OPEN):
        stale.state, stale.decided_at = SolveTimeProposal.State.SUPERSEDED, now
        stale.decision_reason = f"superseded by a newer measurement of {now:%Y-%m-%d %H:%M}"
        stale.save(update_fields=["state", "decided_at", "decision_reason"])
        audit_event_record(verb=SUPERSEDED, target=stale, actor=by, actor_label=actor_label,
                           before={"state": SolveTimeProposal.State.OPEN}, after={"state": stale.state},
                           reason=stale.decision_reason)
    proposal = SolveTimeProposal(
        state=state, period_start=since, period_end=now, tiers=[r.as_dict() for r in results], changes=changes,
        policy={"investigate_quantile": policy.investigate_quantile, "flag_quantile": policy.flag_quantile,
                "margin": policy.margin, "min_solves": policy.min_solves,
                "median_min_samples": policy.median_min_samples, "window_days": window_days},
        reason=summary, created_at=now, created_by=actor_or_none(by), actor_label=actor_label)
    proposal.full_clean()
    proposal.save()
    audit_event_record(verb=PROPOSED, target=proposal, actor=by, actor_label=actor_label,
                       after={"state": state, "changes": changes}, reason=summary[:2000])
    return proposal


def _reason(reason: str) -> str:
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    return reason.strip()


def _open(proposal: SolveTimeProposal) -> SolveTimeProposal:
    locked = SolveTimeProposal.objects.select_for_update().get(pk=proposal.pk)
    if locked.state != SolveTimeProposal.State.OPEN:
        raise Conflict(f"This proposal is {locked.get_state_display().lower()}, not open.", code="proposal_closed")
    return locked


@transaction.atomic
def solve_time_proposal_accept(*, proposal: SolveTimeProposal, by: AbstractBaseUser | None, reason: str,
                               actor_label: str = "") -> SolveTimeProposal:
    """Write the proposal's settings through the config service (each change audited), then close it."""
    reason = _reason(reason)
    proposal = _open(proposal)
    moved = {key: (config_value(key), before) for key, (before, _after) in proposal.changes.items()
             if config_value(key) != before}
    if moved:
        listing = ", ".join(f"{key} is {now} (measured against {before})" for key, (now, before) in moved.items())
        raise Conflict(f"Settings changed since this proposal was made: {listing}; make a new proposal.",
                       code="proposal_stale", extra={"changed": sorted(moved)})
    for key, (_before, after) in sorted(proposal.changes.items()):
        config_set(key=key, value=after, by=by,
                   reason=f"solve-time recalibration {proposal.pk} accepted: {reason}")
    proposal.state, proposal.decided_by, proposal.decided_at = (
        SolveTimeProposal.State.ACCEPTED, actor_or_none(by), timezone.now())
    proposal.decision_reason = reason
    proposal.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
    audit_event_record(verb=ACCEPTED, target=proposal, actor=by, actor_label=actor_label,
                       before={"state": SolveTimeProposal.State.OPEN},
                       after={"state": proposal.state, "settings": proposal.changes}, reason=reason)
    return proposal


@transaction.atomic
def solve_time_proposal_reject(*, proposal: SolveTimeProposal, by: AbstractBaseUser | None, reason: str,
                               actor_label: str = "") -> SolveTimeProposal:
    """Close the proposal without touching any setting, with the reason."""
    reason = _reason(reason)
    proposal = _open(proposal)
    proposal.state, proposal.decided_by, proposal.decided_at = (
        SolveTimeProposal.State.REJECTED, actor_or_none(by), timezone.now())
    proposal.decision_reason = reason
    proposal.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
    audit_event_record(verb=REJECTED, target=proposal, actor=by, actor_label=actor_label,
                       before={"state": SolveTimeProposal.State.OPEN}, after={"state": proposal.state}, reason=reason)
    return proposal
