"""Score states and their transitions; every change is a ScoreEvent and an audit event."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from challenges.models import ChallengeInstance
from competition.errors import Conflict, ValidationFailed
from competition.models import BoutEntry, Score, ScoreEvent, Submission
from competition.scoring import ChallengeFacts, get_format
from core import formatting
from core.config import config_value
from core.services import actor_or_none, audit_event_record

S = Score.State
ALLOWED = {
    S.PROVISIONAL: {S.FINAL, S.UNDER_REVIEW, S.INVALIDATED},
    S.FINAL: {S.UNDER_REVIEW, S.INVALIDATED},
    S.UNDER_REVIEW: {S.PROVISIONAL, S.FINAL, S.INVALIDATED},
    # Invalidation can be overturned on appeal, back to review — never silently to counting.
    S.INVALIDATED: {S.UNDER_REVIEW},
}


def _event(score: Score, *, from_state: str, points_before, by, actor_label: str, reason: str) -> None:
    ScoreEvent.objects.create(
        score=score, occurred_at=timezone.now(), from_state=from_state, to_state=score.state,
        points_before=points_before, points_after=score.points, actor=actor_or_none(by),
        actor_label=actor_label, reason=reason,
    )
    audit_event_record(
        verb="score.changed", target=score, actor=by, actor_label=actor_label,
        before={"state": from_state, "points": str(points_before) if points_before is not None else None},
        after={"state": score.state, "points": str(score.points)}, reason=reason,
    )


@transaction.atomic
def score_record_solve(*, submission: Submission) -> Score | None:
    """Give the submission's agent its provisional score for the challenge, once.

    The first solving submission counts; later ones change nothing. A disqualified
    entry's solve is recorded straight as invalidated so the history stays complete.
    """
    attempt = submission.attempt
    entry = BoutEntry.objects.select_for_update().get(pk=attempt.entry_id)
    existing = Score.objects.filter(entry=entry, challenge=attempt.challenge_id).first()
    if existing is not None:
        return None
    bout = entry.bout
    challenge = attempt.challenge
    points = get_format(bout.scoring_format).points(ChallengeFacts(tier=challenge.instance.tier), bout.format_config)
    # A quarantined instance's scoring is halted: a solve is recorded, but under review.
    quarantined = challenge.instance.state == ChallengeInstance.State.QUARANTINED
    state = S.INVALIDATED if entry.disqualified_at else S.UNDER_REVIEW if quarantined else S.PROVISIONAL
    score = Score.objects.create(
        entry=entry, challenge=challenge, submission=submission, points=points,
        solve_seconds=(submission.received_at - attempt.started_at).total_seconds(), state=state,
    )
    reason = "solved by the hidden oracle"
    if entry.disqualified_at:
        reason += f"; agent disqualified: {entry.disqualified_reason}"
    elif quarantined:
        reason += f"; {config_value('cases.public_reason_review')}"
    _event(score, from_state="", points_before=None, by=None, actor_label="evaluation", reason=reason)
    return score


@transaction.atomic
def score_transition(
    *, score: Score, to_state: str, by: AbstractBaseUser | None, reason: str, actor_label: str = ""
) -> Score:
    if not reason.strip():
        raise ValidationFailed("A score change needs a reason.", code="reason_required", extra={"field": "reason"})
    score = Score.objects.select_for_update().get(pk=score.pk)
    if to_state == score.state:
        return score
    if to_state not in ALLOWED[score.state]:
        state = formatting.article(S(score.state).label.lower()).capitalize()
        raise Conflict(f"{state} score cannot become {S(to_state).label.lower()}.", code="score_transition_invalid",
                       extra={"from": score.state, "to": to_state})
    before = score.state
    score.state = to_state
    score.save(update_fields=["state", "updated_at"])
    _event(score, from_state=before, points_before=score.points, by=by, actor_label=actor_label, reason=reason)
    return score


@transaction.atomic
def score_withdraw(*, score: Score, by: AbstractBaseUser | None, reason: str, actor_label: str = "") -> Score:
    """A rescore found the solving submission no longer solves: the score is invalidated
    (kept, with its history) rather than deleted."""
    score = Score.objects.select_for_update().get(pk=score.pk)
    if score.state == S.INVALIDATED:
        return score
    before, points_before = score.state, score.points
    score.state = S.INVALIDATED
    score.save(update_fields=["state", "updated_at"])
    _event(score, from_state=before, points_before=points_before, by=by, actor_label=actor_label, reason=reason)
    return score


@transaction.atomic
def entry_disqualify(*, entry: BoutEntry, by: AbstractBaseUser | None, reason: str, public_reason: str = "") -> BoutEntry:
    """Disqualify an agent from its bout and invalidate its scores (idempotent).

    ``reason`` is for staff (the audit log); ``public_reason`` is what the competitor reads
    in the portal and in its score history (empty: "disqualified by the organisers").
    """
    if not reason.strip():
        raise ValidationFailed("Disqualification needs a reason.", code="reason_required", extra={"field": "reason"})
    entry = BoutEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.disqualified_at is not None:
        return entry
    entry.disqualified_at = timezone.now()
    entry.disqualified_reason = reason
    entry.disqualified_public_reason = public_reason.strip()[:300]
    entry.save(update_fields=["disqualified_at", "disqualified_reason", "disqualified_public_reason"])
    audit_event_record(verb="entry.disqualified", target=entry, actor=by,
                       after={"agent": entry.agent_id, "public_reason": entry.disqualified_public_reason},
                       reason=reason)
    shown = entry.disqualified_public_reason or "by the organisers"
    for score in Score.objects.filter(entry=entry).exclude(state=S.INVALIDATED):
        score_transition(score=score, to_state=S.INVALIDATED, by=by, reason=f"agent disqualified: {shown}")
    return entry


