"""What a composite score sets in motion (spec 003 "Response Protocol", minimal form).

``respond_to_composite`` is the one place a detection result touches scores. For now it
does the minimum honestly, each step an audit event with the composite's reason:

* quarantine (> 0.7): scoring of the challenge in the bout halts — every counted score on
  it goes under review, and so does every later solve of it (each later submission's
  detection finds the challenge quarantined);
* flag (> 0.4): the submission's score stays provisional for post-bout review (a final
  score goes back under review, the nearest state that "may be revised");
* log (> 0.2): logged for trend analysis.

It is idempotent: a composite is answered once per action level it reaches.
"""

from __future__ import annotations

from django.db import transaction

from competition.models import Score
from competition.services.scores import score_transition
from core.services import audit_event_record
from detection.models import CompositeScore
from detection.signals import action_rank

LOGGED_VERB = "detection.logged"
FLAGGED_VERB = "detection.flagged"
QUARANTINED_VERB = "detection.challenge_quarantined"
HALTED_VERB = "detection.score_halted"
ACTOR = "contamination detection"
COUNTED = (Score.State.PROVISIONAL, Score.State.FINAL)


def challenge_quarantined(*, challenge_id: int) -> CompositeScore | None:
    """The composite that quarantined this bout challenge, if any."""
    return (CompositeScore.objects.filter(submission__attempt__challenge_id=challenge_id,
                                          action=CompositeScore.Action.QUARANTINE)
            .order_by("created_at", "pk").first())


@transaction.atomic
def respond_to_composite(composite: CompositeScore) -> list[str]:
    """Apply the composite's action (see the module docstring); returns the verbs recorded."""
    composite = CompositeScore.objects.select_for_update().select_related(
        "submission__attempt__challenge").get(pk=composite.pk)
    submission = composite.submission
    challenge = submission.attempt.challenge
    done = composite.components.get("_responded", "none")
    recorded: list[str] = []
    context = {"submission": submission.handle, "challenge": challenge.handle, "value": composite.value,
               "action": composite.action}
    if action_rank(composite.action) > action_rank(done):
        if composite.action == CompositeScore.Action.LOG:
            audit_event_record(verb=LOGGED_VERB, target=submission, actor_label=ACTOR, after=context,
                               reason=composite.reason)
            recorded.append(LOGGED_VERB)
        elif composite.action == CompositeScore.Action.FLAG:
            score = Score.objects.filter(submission=submission).first()
            held = "no score to hold"
            if score is not None and score.state == Score.State.FINAL:
                score_transition(score=score, to_state=Score.State.UNDER_REVIEW, by=None, actor_label=ACTOR,
                                 reason=f"flagged for post-bout review: {composite.reason}")
                held = "final score put back under review"
            elif score is not None:
                held = f"score kept {score.state} for post-bout review"
            audit_event_record(verb=FLAGGED_VERB, target=submission, actor_label=ACTOR,
                               after={**context, "score": held}, reason=composite.reason)
            recorded.append(FLAGGED_VERB)
        elif composite.action == CompositeScore.Action.QUARANTINE:
            moved = 0
            for score in Score.objects.filter(challenge=challenge, state__in=COUNTED).order_by("pk"):
                score_transition(score=score, to_state=Score.State.UNDER_REVIEW, by=None, actor_label=ACTOR,
                                 reason=f"challenge {challenge.handle} quarantined, scoring halted: "
                                        f"{composite.reason}")
                moved += 1
            audit_event_record(verb=QUARANTINED_VERB, target=challenge, actor_label=ACTOR,
                               after={**context, "scores_under_review": moved}, reason=composite.reason)
            recorded.append(QUARANTINED_VERB)
        composite.components = {**composite.components, "_responded": composite.action}
        composite.save(update_fields=["components", "updated_at"])
    recorded += _halt_if_quarantined(submission=submission, challenge_id=challenge.pk)
    return recorded


def _halt_if_quarantined(*, submission, challenge_id: int) -> list[str]:
    """A solve of a quarantined challenge does not count while the quarantine stands."""
    quarantine = challenge_quarantined(challenge_id=challenge_id)
    score = Score.objects.filter(submission=submission, state__in=COUNTED).first()
    if quarantine is None or score is None:
        return []
    score_transition(score=score, to_state=Score.State.UNDER_REVIEW, by=None, actor_label=ACTOR,
                     reason=f"scoring of this challenge is halted (quarantined by submission "
                            f"{quarantine.submission.handle})")
    audit_event_record(verb=HALTED_VERB, target=submission, actor_label=ACTOR,
                       after={"quarantined_by": quarantine.submission.handle}, reason="challenge quarantined")
    return [HALTED_VERB]
