"""What a composite score sets in motion: the response protocol's cases (spec 003).

``respond_to_composite`` is the one place a real-time detection result leads to action,
and it acts only through contamination cases: the composite's action picks the level
(log → L1 flag, flag → L2 investigate, quarantine → L3 quarantine) and
``case_open_from_signals`` opens a case on the challenge instance, or links the new
signals to the open case there and raises it. The case applies the level's effects
(held provisional scores, quarantine with scoring halted) with neutral reasons for
competitors; signals and composite reasons stay on the staff side.

It is idempotent: a composite is answered once per action level it reaches.
"""

from __future__ import annotations

from django.db import transaction

from detection.models import CompositeScore, ContaminationCase, SubmissionSignal
from detection.services.cases import case_open_from_signals
from detection.signals import action_rank

ACTOR = "contamination detection"
LEVELS = {
    CompositeScore.Action.LOG: ContaminationCase.Level.FLAG,
    CompositeScore.Action.FLAG: ContaminationCase.Level.INVESTIGATE,
    CompositeScore.Action.QUARANTINE: ContaminationCase.Level.QUARANTINE,
}


@transaction.atomic
def respond_to_composite(composite: CompositeScore) -> list[ContaminationCase]:
    """Open or escalate the case the composite's action calls for; returns the cases touched."""
    composite = CompositeScore.objects.select_for_update().select_related("submission").get(pk=composite.pk)
    done = composite.components.get("_responded", "none")
    level = LEVELS.get(composite.action)
    if level is None or action_rank(composite.action) <= action_rank(done):
        return []
    # The findings behind it: every signal of the submission that contributed something.
    signals = list(SubmissionSignal.objects.filter(submission=composite.submission, value__gt=0).order_by("pk"))
    if not signals:
        signals = list(SubmissionSignal.objects.filter(submission=composite.submission).order_by("pk"))
    cases = case_open_from_signals(signals=signals, level=level, composite=composite.value,
                                   reason=composite.reason or f"composite {composite.action}", actor_label=ACTOR)
    composite.components = {**composite.components, "_responded": composite.action,
                            "_cases": sorted(c.pk for c in cases)}
    composite.save(update_fields=["components", "updated_at"])
    return cases
