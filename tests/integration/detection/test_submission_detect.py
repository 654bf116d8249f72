"""Real-time detection on judged submissions: rows, composite, canary log, response, sweep."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models import Count

from challenges.models import ChallengeInstance
from competition.models import Score, ScoreEvent, Submission
from core.models import AuditEvent
from core.services import config_set
from detection.models import CanaryInteraction, CompositeScore, ContaminationCase, SubmissionSignal
from detection.services import detection_sweep, submission_detect
from tests import factories
from tests import instance_factory as f

from .conftest import CANARY_PATCH, judged

pytestmark = pytest.mark.django_db
CAREFUL = [{"action": "test", "target": "python -m unittest", "time": 5}, {"action": "search", "target": "overlaps"},
           {"action": "read", "target": "rooms/ledger.py"}, {"action": "edit", "target": "rooms/ledger.py"},
           {"action": "test", "target": "python -m unittest"}]


def _honest_field(challenge, count: int = 20, seconds: float = 1200.0) -> None:
    for n in range(count):
        judged(challenge, patch=f.GOLD_PATCH, seconds=seconds + n * 10, trace=CAREFUL)


def _signals(submission) -> dict[str, SubmissionSignal]:
    return {s.kind: s for s in SubmissionSignal.objects.filter(submission=submission)}


def test_a_canary_fix_is_flagged_and_logged_with_its_excerpt(challenge):
    submission = judged(challenge, patch=CANARY_PATCH, seconds=900, result=Submission.Result.NOT_SOLVED)
    composite = submission_detect(submission_id=submission.pk)
    signals = _signals(submission)
    assert set(signals) == {"solve_time", "canonical_match", "canary_modified", "skips_debugging"}
    assert signals["canary_modified"].value == 1.0 and signals["canary_modified"].weight == 0.20
    assert "booking-loop (rooms/service.py:9-11)" in signals["canary_modified"].reason
    assert signals["solve_time"].value is None and signals["skips_debugging"].value is None
    assert composite.action == CompositeScore.Action.FLAG and composite.value == pytest.approx(0.2)
    assert "canary_modified demands flag" in composite.reason and "unknown: " in composite.reason
    row = CanaryInteraction.objects.get(submission=submission)
    assert (row.canary_id, row.modified, row.otherwise_fixed) == ("booking-loop", True, False)
    assert row.agent_id == submission.agent_id and row.instance_id == challenge.instance_id
    assert "+            if overlaps(start, end, other_start, other_end) or start == other_start:" in row.excerpt
    # The flag opens an L2 case on the instance, the findings linked to it.
    case = ContaminationCase.objects.get(instance=challenge.instance)
    assert (case.level, case.opened_label) == (ContaminationCase.Level.INVESTIGATE, "contamination detection")
    assert list(case.submissions.all()) == [submission]
    assert set(case.signals.values_list("kind", flat=True)) == {"canary_modified"}


def test_an_honest_solve_is_clean_and_its_canary_row_says_untouched(challenge):
    _honest_field(challenge)
    submission = judged(challenge, patch=f.GOLD_PATCH, seconds=1100, trace=CAREFUL)
    composite = submission_detect(submission_id=submission.pk)
    signals = _signals(submission)
    assert signals["solve_time"].evidence["basis"] == "measured" and signals["solve_time"].evidence["samples"] == 20
    assert signals["solve_time"].value == 0.0 and signals["skips_debugging"].value == 0.0
    assert signals["canary_modified"].value == 0.0
    assert signals["canonical_match"].evidence["gold_overlap"]["overlap"] == 1.0
    assert composite.action == CompositeScore.Action.NONE and composite.value == 0.0
    row = CanaryInteraction.objects.get(submission=submission)
    assert not row.modified and row.otherwise_fixed and row.excerpt == ""
    assert Score.objects.get(submission=submission).state == Score.State.PROVISIONAL


def test_a_memorised_solve_is_flagged_and_its_score_held_provisional(challenge):
    _honest_field(challenge)
    straight = [{"action": "edit", "target": "rooms/ledger.py", "time": 1}]
    submission = judged(challenge, patch=f.GOLD_PATCH, seconds=4, trace=straight)
    composite = submission_detect(submission_id=submission.pk)
    signals = _signals(submission)
    assert signals["solve_time"].value == 1.0 and signals["skips_debugging"].value == 1.0
    assert composite.value == pytest.approx(0.45) and composite.action == CompositeScore.Action.FLAG
    assert "solve_time demands flag" in composite.reason
    assert Score.objects.get(submission=submission).state == Score.State.PROVISIONAL
    case = ContaminationCase.objects.get(instance=challenge.instance)
    assert case.level == ContaminationCase.Level.INVESTIGATE
    # Held provisional for the review: closing the bout will not finalise it.
    assert list(case.held_scores.filter(holding=True).values_list("score__submission", flat=True)) == [submission.pk]
    # A flagged solve no longer counts towards the tier's measured distribution.
    from detection.selectors import tier_solve_seconds

    assert 4.0 not in tier_solve_seconds(tier=challenge.instance.tier)


def test_rerunning_is_idempotent(challenge):
    submission = judged(challenge, patch=CANARY_PATCH, seconds=900, result=Submission.Result.NOT_SOLVED)
    first = submission_detect(submission_id=submission.pk)
    counts = (SubmissionSignal.objects.count(), CanaryInteraction.objects.count(), AuditEvent.objects.count())
    second = submission_detect(submission_id=submission.pk)
    assert second.pk == first.pk and (second.value, second.action) == (first.value, first.action)
    assert (SubmissionSignal.objects.count(), CanaryInteraction.objects.count(), AuditEvent.objects.count()) == counts
    assert not SubmissionSignal.objects.values("submission", "kind", "source").annotate(n=Count("id")).filter(n__gt=1)


def test_quarantine_halts_scoring_of_the_challenge(challenge):
    earlier = judged(challenge, patch=f.GOLD_PATCH, seconds=1500)
    config_set(key="detection.threshold.quarantine", value=0.15, by=None, reason="test: quarantine on a canary fix")
    culprit = judged(challenge, patch=CANARY_PATCH, seconds=900, result=Submission.Result.NOT_SOLVED)
    assert submission_detect(submission_id=culprit.pk).action == CompositeScore.Action.QUARANTINE
    assert Score.objects.get(submission=earlier).state == Score.State.UNDER_REVIEW
    event = ScoreEvent.objects.filter(score__submission=earlier).latest("id")
    # Competitors read a neutral reason; the signals stay on the case.
    assert event.actor_label == "contamination detection" and event.reason == "under integrity review"
    case = ContaminationCase.objects.get(instance=challenge.instance)
    assert case.level == ContaminationCase.Level.QUARANTINE
    challenge.instance.refresh_from_db()
    assert challenge.instance.state == ChallengeInstance.State.QUARANTINED
    assert AuditEvent.objects.filter(verb="instance.quarantined", target_id=str(challenge.instance_id)).count() == 1
    # A later solve of the quarantined challenge does not count either: recorded under review at once.
    later = judged(challenge, patch=f.GOLD_PATCH, seconds=1600, trace=CAREFUL)
    assert Score.objects.get(submission=later).state == Score.State.UNDER_REVIEW
    submission_detect(submission_id=later.pk)
    assert Score.objects.get(submission=later).state == Score.State.UNDER_REVIEW
    assert ScoreEvent.objects.get(score__submission=later).reason == "solved by the hidden oracle; under integrity review"


def test_errors_are_not_detected_and_the_sweep_scores_what_was_missed(challenge):
    missed = judged(challenge, patch=f.GOLD_PATCH, seconds=1500)
    errored = judged(challenge, patch=f.GOLD_PATCH, seconds=1500, result=Submission.Result.ERROR)
    queued = factories.submission(attempt=missed.attempt, seconds=10, result=Submission.Result.PENDING)
    assert submission_detect(submission_id=errored.pk) is None
    assert submission_detect(submission_id=queued.pk) is None
    assert detection_sweep() == {"scored": 1, "skipped": 0, "recalibrated": 0}
    assert CompositeScore.objects.filter(submission=missed).exists()
    assert detection_sweep() == {"scored": 0, "skipped": 0, "recalibrated": 0}
    # A rescore after detection makes it stale: the sweep scores it again.
    from django.utils import timezone

    Submission.objects.filter(pk=missed.pk).update(evaluation_finished_at=timezone.now())
    assert detection_sweep() == {"scored": 1, "skipped": 0, "recalibrated": 0}


def test_the_sweep_scores_prior_judged_solves_again_once_the_tier_is_measured(challenge):
    early = judged(challenge, patch=f.GOLD_PATCH, seconds=40, trace=CAREFUL)  # fast by the 35-minute prior
    composite = submission_detect(submission_id=early.pk)
    solve_time = SubmissionSignal.objects.get(submission=early, kind="solve_time")
    assert solve_time.evidence["basis"] == "prior" and solve_time.value == 1.0
    assert composite.action == CompositeScore.Action.LOG  # the prior alone never flags
    _honest_field(challenge, count=20, seconds=30)  # median 125 s: 40 s is 32 % of it
    assert detection_sweep()["recalibrated"] == 1
    solve_time.refresh_from_db()
    assert solve_time.evidence["basis"] == "measured" and solve_time.value == 0.0
    assert CompositeScore.objects.get(submission=early).action == CompositeScore.Action.NONE
    assert detection_sweep()["recalibrated"] == 0


def test_a_flag_after_the_bout_closed_puts_a_final_score_back_under_review(challenge):
    _honest_field(challenge)
    submission = judged(challenge, patch=f.GOLD_PATCH, seconds=4, trace=[{"action": "edit", "target": "x.py"}])
    score = Score.objects.get(submission=submission)
    Score.objects.filter(pk=score.pk).update(state=Score.State.FINAL)
    assert submission_detect(submission_id=submission.pk).action == CompositeScore.Action.FLAG
    score.refresh_from_db()
    assert score.state == Score.State.UNDER_REVIEW
    # The L2 case holds it; the competitor reads the neutral reason, not the signals.
    assert ScoreEvent.objects.filter(score=score).latest("id").reason == "under integrity review"
    case = ContaminationCase.objects.get(instance=challenge.instance)
    assert case.level == ContaminationCase.Level.INVESTIGATE and case.held_scores.get().score == score


def test_a_rescore_after_the_post_bout_batch_keeps_the_batch_findings(challenge):
    from detection.services.batch import _escalate

    _honest_field(challenge)
    submission = judged(challenge, patch=f.GOLD_PATCH, seconds=1100, trace=CAREFUL)
    assert submission_detect(submission_id=submission.pk).action in (CompositeScore.Action.NONE,
                                                                     CompositeScore.Action.LOG)
    with transaction.atomic():
        _escalate(submission, CompositeScore.Action.FLAG, ["copied from another agent's patch"],
                  {"convergence": CompositeScore.Action.FLAG})
    escalated = CompositeScore.objects.get(submission=submission)
    realtime_action = escalated.components["realtime_action"]
    assert escalated.action == CompositeScore.Action.FLAG
    # Real time runs again (a re-evaluation, the sweep): the batch's half of the record stays.
    rescored = submission_detect(submission_id=submission.pk)
    rescored.refresh_from_db()
    assert rescored.action == CompositeScore.Action.FLAG
    assert rescored.components["post_bout"] == {"convergence": CompositeScore.Action.FLAG}
    assert rescored.components["realtime_action"] == realtime_action
    assert "post-bout: copied from another agent's patch" in rescored.reason
    assert rescored.reason.count("post-bout: ") == 1
    assert set(rescored.components) >= {"solve_time", "canonical_match", "_upper", "_responded"}
