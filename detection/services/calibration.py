"""The quarterly red-team exercise (spec 003 "Calibration"): planted contamination in known
proportions and forms, run through the real API, scored against the detectors.

``calibration_run`` plays simulated populations (each: honest agents, a fast memoriser,
a canary fixer, a copy ring, a retry gamer; ``simulation.policies``) against current
instances in a new bout, waits for the verdicts and real-time detection, closes the bout
so the post-bout batch runs, then measures the detection rate on the planted units and
the false-positive rate on the honest ones, overall and per signal. Every planted
memorisation solve that no detector caught opens a template review (a Level 2 case on its
instance and template), as the spec requires. The result proposes a flag band for the
composite (``detection.metrics.tuning``) with its expected effect on both rates; staff
apply it, if they agree, by changing the setting with a reason (audited).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from core.config import config_value
from core.queue import enqueue_on_commit
from core.services import audit_event_record
from detection.metrics import ratio
from detection.metrics.tuning import propose_threshold
from detection.metrics_config import metric_bounds
from detection.selectors.detection_metrics import PLANTED_KINDS, per_signal, planted_units

POPULATION_SIZE = 6  # one of each kind of simulation.policies.population, copy ring twice


def calibration_measure(*, run_id: int) -> dict[str, Any]:
    """Detection and false-positive rates of one simulation run, overall and per signal."""
    units = planted_units(run_id=run_id)
    planted, clean = units["planted"], units["clean"]
    detected = sum(u["detected"] for u in planted)
    flagged = sum(u["detected"] for u in clean)
    detection, false_positive = metric_bounds("detection_rate"), metric_bounds("false_positive_rate")
    by_kind: dict[str, dict[str, Any]] = {}
    for u in planted + clean:
        row = by_kind.setdefault(u["kind"], {"units": 0, "detected": 0})
        row["units"] += 1
        row["detected"] += int(u["detected"])
    for row in by_kind.values():
        row["rate"] = ratio(row["detected"], row["units"])
    overall = {
        "detection_rate": ratio(detected, len(planted)), "planted": len(planted), "detected": detected,
        "false_positive_rate": ratio(flagged, len(clean)), "clean": len(clean), "flagged": flagged,
    }
    proposal = propose_threshold(
        setting="detection.threshold.flag", current=config_value("detection.threshold.flag"),
        planted=[u["composite"] for u in planted if u["composite"] is not None],
        clean=[u["composite"] for u in clean if u["composite"] is not None],
        false_positive_max=false_positive.target_max or 0.0)
    return {
        "overall": overall, "per_signal": per_signal(planted, clean), "by_kind": by_kind,
        "proposals": [proposal.as_dict()] if proposal else [],
        "targets": {"detection_rate_min": detection.target_min, "detection_rate_alert_below": detection.alert_min,
                    "false_positive_rate_max": false_positive.target_max,
                    "false_positive_rate_alert_above": false_positive.alert_max},
        "meets_targets": (overall["detection_rate"] is not None and overall["false_positive_rate"] is not None
                          and overall["detection_rate"] >= (detection.target_min or 0)
                          and overall["false_positive_rate"] <= (false_positive.target_max or 1)),
        "missed": [u for u in planted if not u["detected"]],
    }


def _open_template_reviews(missed: list[dict[str, Any]], *, by: AbstractBaseUser | None) -> list[int]:
    """A Level 2 case on the instance and template of each undetected memorisation solve."""
    from competition.models import BoutChallenge, Submission
    from detection.models import ContaminationCase
    from detection.services.cases import case_open

    opened = []
    for unit in missed:
        if unit["kind"] != "memoriser":
            continue
        solving = list(Submission.objects.filter(pk__in=unit["submissions"], result=Submission.Result.SOLVED))
        if not solving:
            continue
        challenge = BoutChallenge.objects.select_related("instance__template", "bout").get(pk=unit["challenge"])
        case = case_open(
            level=ContaminationCase.Level.INVESTIGATE, source=ContaminationCase.Source.STAFF,
            title="Red team: a memorised solve went undetected", instance=challenge.instance,
            template=challenge.instance.template, bout=challenge.bout, submissions=solving,
            reason="calibration exercise: a planted memorisation solve passed every detector; review the template",
            by=by, actor_label="calibration")
        opened.append(case.pk)
    return opened


@transaction.atomic
def calibration_run_request(*, populations: int, by: AbstractBaseUser, wait_seconds: float = 300) -> None:
    """Queue the exercise for a worker (the admin's button): it takes minutes. Audited."""
    from core.errors import ValidationFailed

    if not 1 <= populations <= 20:
        raise ValidationFailed("Between 1 and 20 populations.", code="populations_invalid",
                               extra={"field": "populations"})
    audit_event_record(verb="calibration.requested", target_type="calibration", target_id="red-team", actor=by,
                       after={"populations": populations}, reason="red-team exercise requested from the admin")
    enqueue_on_commit("detection.tasks.calibration_exercise", populations, float(wait_seconds),
                      getattr(by, "pk", None), task_name=f"calibration-{populations}")


def calibration_run(*, populations: int, wait_seconds: float, seed: int | None = None, base_url: str | None = None,
                    time_scale: float = 0.3, by: AbstractBaseUser | None = None) -> dict[str, Any]:
    """Run the exercise end to end and return its figures (see the module docstring)."""
    from competition.services.bouts import bout_transition
    from detection.services.batch import batch_run_now
    from simulation.services import simulation_run

    # No back-off: an agent refused for evaluations in flight moves on (its refused work is
    # not a unit), rather than polling its verdicts into the API's rate limit.
    run = simulation_run(agents=POPULATION_SIZE * populations, base_url=base_url, time_scale=time_scale,
                         wait_seconds=wait_seconds, seed=seed, backoff_seconds=0)
    bout = run.bout
    bout_transition(bout=bout, action="close", by=by, reason="calibration exercise finished",
                    actor_label="calibration")
    batch = batch_run_now(bout=bout, by=by)
    measured = calibration_measure(run_id=run.pk)
    reviews = _open_template_reviews(measured.pop("missed"), by=by)
    result = {"populations": populations, "agents": POPULATION_SIZE * populations, "bout": bout.handle,
              "simulation_run": run.pk, "batch_run": batch.pk, "template_reviews": reviews, **measured,
              "planted_kinds": list(PLANTED_KINDS)}
    audit_event_record(verb="calibration.run", target=run, actor=by, actor_label="calibration",
                       after={k: result[k] for k in ("overall", "per_signal", "template_reviews", "meets_targets",
                                                     "proposals")},
                       reason=f"red-team exercise with {populations} population(s) in bout {bout.handle}")
    return result
