"""A composite score acts only through cases: its action picks the level, once."""

from __future__ import annotations

import pytest

from challenges.models import ChallengeInstance
from detection.models import CompositeScore, ContaminationCase, SubmissionSignal
from detection.services.response import respond_to_composite

pytestmark = pytest.mark.django_db
L = ContaminationCase.Level


def _composite(submission, value, action, **signals):
    for kind, signal_value in signals.items():
        SubmissionSignal.objects.create(submission=submission, kind=kind, value=signal_value, weight=0.3,
                                        reason=f"{kind} fired")
    return CompositeScore.objects.create(submission=submission, value=value, action=action,
                                         components={"_responded": "none"}, reason=f"composite {value}")


def test_each_action_opens_or_raises_the_case_once(world):
    composite = _composite(world.flagged, 0.3, "log", solve_time=1.0, skips_debugging=0.0)
    (case,) = respond_to_composite(composite)
    assert (case.level, case.opened_label, case.composite) == (L.FLAG, "contamination detection", 0.3)
    # Only the signals that contributed are linked.
    assert list(case.signals.values_list("kind", flat=True)) == ["solve_time"]
    assert respond_to_composite(composite) == []
    assert world.states() == {"suspect": "provisional", "bystander": "provisional", "other": "provisional"}

    CompositeScore.objects.filter(pk=composite.pk).update(value=0.5, action="flag")
    (raised,) = respond_to_composite(composite)
    assert raised.pk == case.pk and raised.level == L.INVESTIGATE
    assert list(raised.held_scores.values_list("score_id", flat=True)) == [world.suspect_score.pk]

    CompositeScore.objects.filter(pk=composite.pk).update(value=0.8, action="quarantine")
    (quarantined,) = respond_to_composite(composite)
    assert quarantined.pk == case.pk and quarantined.level == L.QUARANTINE
    world.instance.refresh_from_db()
    assert world.instance.state == ChallengeInstance.State.QUARANTINED
    assert world.states() == {"suspect": "under_review", "bystander": "under_review", "other": "provisional"}
    composite.refresh_from_db()
    assert composite.components["_responded"] == "quarantine" and composite.components["_cases"] == [case.pk]
    assert ContaminationCase.objects.count() == 1


def test_a_clean_composite_opens_nothing(world):
    assert respond_to_composite(_composite(world.flagged, 0.1, "none", solve_time=0.3)) == []
    assert not ContaminationCase.objects.exists()
