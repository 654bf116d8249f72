"""The metrics measured on detection records: planted cases, composites, canaries, cases.

Ground truth comes from simulated populations (``simulation.SimulatedAgent.kind``): the
memoriser, canary-fixer and copy-ring kinds are planted contamination, honest agents are
clean, retry gamers are neither (they game the metric, they do not recall answers). The
unit is one simulated agent on one bout challenge with at least one evaluated submission
received in the period; it is **detected** when any of those submissions was accused by its
own composite (a real-time flag or quarantine, or an agent-level post-bout finding: a copy
pair, pasted public code) or was put into a Level 2+ case by staff: the platform's own
decisions about that agent's work, not a raw signal, and not a challenge-level finding or an
automatic case about the challenge (which touch every solver of it). The definition lives in
``simulation.selectors.submissions_detected``, shared with the simulation's own outcome. Per signal, a signal
"fires" on a unit when its value reaches the flag band (``detection.threshold.flag``).
"""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean, median
from typing import Any

from core.config import config_value
from detection.metrics import MONTHLY, WEEKLY, Bounds, Measurement, Metric, Period, Source, ratio, register
from detection.metrics.figures import histogram
from detection.selectors.metrics import period_range
from simulation.selectors import ACCUSING, PLANTED, submissions_detected

# One definition of the planted kinds and of an accusing action, shared with the simulation's
# own detection outcome (bench.detection_rates), so the two figures count the same things.
PLANTED_KINDS = PLANTED
CLEAN_KINDS = ("honest",)
DETECTING_ACTIONS = ACCUSING
SCORE_EDGES = (0.0, 0.2, 0.4, 0.7, 1.0)


def planted_units(period: Period | None = None, *, run_id: int | None = None) -> dict[str, Any]:
    """Units (agent, bout challenge) of simulated agents in the period (or of one simulation
    run), split by ground truth, with whether each was detected and by which signals."""
    from competition.models import Submission
    from detection.models import CompositeScore, SubmissionSignal
    from simulation.models import SimulatedAgent

    agents = SimulatedAgent.objects.all() if run_id is None else SimulatedAgent.objects.filter(run_id=run_id)
    kinds = dict(agents.values_list("agent_id", "kind"))
    submissions = Submission.objects.filter(agent_id__in=list(kinds), state=Submission.State.DONE)
    if period is not None:
        submissions = submissions.filter(received_at__gte=period.start, received_at__lt=period.end)
    rows = list(submissions.values_list("pk", "agent_id", "attempt__challenge_id"))
    ids = [pk for pk, _, _ in rows]
    composites = dict(CompositeScore.objects.filter(submission_id__in=ids, value__isnull=False)
                      .values_list("submission_id", "value"))
    signal_min = config_value("detection.threshold.flag")
    fired: dict[int, set[str]] = defaultdict(set)
    for submission_id, kind in SubmissionSignal.objects.filter(
            submission_id__in=ids, value__gte=signal_min).values_list("submission_id", "kind"):
        fired[submission_id].add(kind)
    # Detection is the platform's decision about this agent's own work, defined once with the
    # simulation's own outcome (``submissions_detected``): its composite accusing it in real time
    # or by an agent-level post-bout finding, or staff putting it in a case. A challenge-level
    # finding (solve-rate anomaly, temporal cluster) or an automatic case about the challenge
    # touches every solver of it and accuses none of them.
    detected = {pk for pk, (caught, _context) in submissions_detected(ids).items() if caught}
    units: dict[tuple[int, int], dict[str, Any]] = {}
    for pk, agent_id, challenge_id in rows:
        unit = units.setdefault((agent_id, challenge_id), {"kind": kinds[agent_id], "submissions": [],
                                                          "detected": False, "signals": set(),
                                                          "agent": agent_id, "challenge": challenge_id,
                                                          "composite": None})
        unit["submissions"].append(pk)
        unit["detected"] |= pk in detected
        unit["signals"] |= fired.get(pk, set())
        if pk in composites:
            unit["composite"] = max(composites[pk], unit["composite"] or 0.0)
    planted = [u for u in units.values() if u["kind"] in PLANTED_KINDS]
    clean = [u for u in units.values() if u["kind"] in CLEAN_KINDS]
    return {"planted": planted, "clean": clean}


def _submission_ids(units, detected: bool | None = None) -> tuple[int, ...]:
    return tuple(sorted(pk for u in units if detected is None or u["detected"] == detected for pk in u["submissions"]))


def per_signal(units_planted, units_clean) -> dict[str, dict[str, Any]]:
    """For each signal kind: the share of planted units it fired on and of clean units it fired on."""
    kinds = sorted({k for u in units_planted + units_clean for k in u["signals"]})
    out = {}
    for kind in kinds:
        hit_p = sum(kind in u["signals"] for u in units_planted)
        hit_c = sum(kind in u["signals"] for u in units_clean)
        out[kind] = {"detection_rate": ratio(hit_p, len(units_planted)), "planted_hits": hit_p,
                     "false_positive_rate": ratio(hit_c, len(units_clean)), "clean_hits": hit_c}
    return out


def _by_kind(units) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"units": 0, "detected": 0})
    for u in units:
        out[u["kind"]]["units"] += 1
        out[u["kind"]]["detected"] += int(u["detected"])
    return dict(out)


@register
class DetectionRate(Metric):
    key = "detection_rate"
    title = "Contamination detection rate"
    description = ("Share of planted contamination (simulated memorisers, canary fixers and copy rings, one unit per "
                   "agent and challenge) that the detectors caught: a composite of flag or quarantine, or a "
                   "Level 2+ case staff opened with it.")
    cadence = WEEKLY
    numerator_label = "planted cases detected"
    denominator_label = "planted cases"
    defaults = Bounds(target_min=0.95, alert_min=0.90)
    order = 10

    def measure(self, period: Period) -> Measurement:
        units = planted_units(period)
        planted = units["planted"]
        detected = sum(u["detected"] for u in planted)
        return Measurement(
            value=ratio(detected, len(planted)), numerator=detected, denominator=len(planted),
            sources=(Source("competition.submission", f"planted kinds {', '.join(PLANTED_KINDS)}, "
                            f"{period_range('received_at', period)}, detected", _submission_ids(planted, True), "numerator"),
                     Source("competition.submission", f"planted kinds, {period_range('received_at', period)}",
                            _submission_ids(planted), "denominator")),
            details={"by_kind": _by_kind(planted), "by_signal": per_signal(planted, units["clean"])},
        )


@register
class FalsePositiveRate(Metric):
    key = "false_positive_rate"
    title = "False positive rate"
    description = ("Share of clean work (simulated honest agents, one unit per agent and challenge) that the "
                   "detectors flagged all the same. Cases closed as false positives are shown alongside.")
    cadence = WEEKLY
    numerator_label = "clean cases flagged"
    denominator_label = "clean cases"
    defaults = Bounds(target_max=0.05, alert_max=0.10)
    order = 20

    def measure(self, period: Period) -> Measurement:
        from detection.models import ContaminationCase

        units = planted_units(period)
        clean = units["clean"]
        flagged = sum(u["detected"] for u in clean)
        resolved = ContaminationCase.objects.filter(resolved_at__gte=period.start, resolved_at__lt=period.end)
        false_positive = resolved.filter(outcome=ContaminationCase.Outcome.FALSE_POSITIVE)
        return Measurement(
            value=ratio(flagged, len(clean)), numerator=flagged, denominator=len(clean),
            sources=(Source("competition.submission", f"honest agents, {period_range('received_at', period)}, flagged",
                            _submission_ids(clean, True), "numerator"),
                     Source("competition.submission", f"honest agents, {period_range('received_at', period)}",
                            _submission_ids(clean), "denominator"),
                     Source("detection.contaminationcase", f"outcome false_positive, {period_range('resolved_at', period)}",
                            tuple(false_positive.order_by("pk").values_list("pk", flat=True)))),
            details={"cases_resolved": resolved.count(), "cases_false_positive": false_positive.count(),
                     "case_false_positive_share": ratio(false_positive.count(), resolved.count())},
        )


@register
class CanaryTriggerRate(Metric):
    key = "canary_trigger_rate"
    title = "Canary trigger rate"
    description = ("Share of agents meeting a canary that modified it (one count per agent, instance and canary), "
                   "over the canary interactions logged in the period.")
    cadence = WEEKLY
    numerator_label = "agent-canary pairs modified"
    denominator_label = "agent-canary pairs met"
    defaults = Bounds(target_min=0.15, target_max=0.30, alert_min=0.10, alert_max=0.40)
    bound_settings = {"target_min": "detection.canary.target_low", "target_max": "detection.canary.target_high",
                      "alert_min": "detection.canary.alert_below", "alert_max": "detection.canary.alert_above"}
    order = 50

    def measure(self, period: Period) -> Measurement:
        from detection.models import CanaryInteraction

        rows = CanaryInteraction.objects.filter(created_at__gte=period.start, created_at__lt=period.end)
        met: dict[tuple, list[int]] = {}
        modified: set[tuple] = set()
        template_of: dict[tuple, str] = {}
        for pk, agent_id, instance_id, canary_id, slug, was_modified in rows.order_by("pk").values_list(
                "pk", "agent_id", "instance_id", "canary_id", "instance__template__slug", "modified"):
            key = (agent_id, instance_id, canary_id)
            met.setdefault(key, []).append(pk)
            template_of[key] = slug
            if was_modified:
                modified.add(key)
        modified_ids = tuple(sorted(pk for key in modified for pk in met[key]))
        templates: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for key, slug in template_of.items():
            templates[slug][0] += 1
            templates[slug][1] += int(key in modified)
        return Measurement(
            value=ratio(len(modified), len(met)), numerator=len(modified), denominator=len(met),
            sources=(Source("detection.canaryinteraction", f"{period_range('created_at', period)}, modified", modified_ids,
                            "numerator"),
                     Source("detection.canaryinteraction", period_range("created_at", period),
                            tuple(pk for pks in met.values() for pk in pks), "denominator")),
            details={"by_template": {slug: {"met": n, "modified": m, "rate": ratio(m, n)}
                                     for slug, (n, m) in sorted(templates.items())}},
        )


@register
class MeanTimeToDetect(Metric):
    key = "mean_time_to_detect"
    title = "Mean time to detect"
    description = ("Mean time from the evidence (the submission that first showed it) to the contamination case "
                   "being opened, over the cases opened in the period.")
    cadence = WEEKLY
    unit = "hours"
    numerator_label = "hours to detect, summed"
    denominator_label = "cases opened"
    defaults = Bounds(target_max=2.0, alert_max=8.0)
    order = 60

    def measure(self, period: Period) -> Measurement:
        from detection.models import ContaminationCase

        rows = list(ContaminationCase.objects.filter(opened_at__gte=period.start, opened_at__lt=period.end,
                                                     time_to_detect_seconds__isnull=False)
                    .order_by("pk").values_list("pk", "time_to_detect_seconds"))
        hours = [s / 3600 for _, s in rows]
        return Measurement(
            value=ratio(sum(hours), len(hours)), numerator=round(sum(hours), 4), denominator=len(hours),
            sources=(Source("detection.contaminationcase", f"{period_range('opened_at', period)} and time_to_detect set",
                            tuple(pk for pk, _ in rows)),),
            details={"median_hours": median(hours) if hours else None, "max_hours": max(hours, default=None)},
        )


@register
class ContaminationScoreDistribution(Metric):
    key = "contamination_score_distribution"
    title = "Contamination score distribution"
    description = ("Composite contamination scores of the submissions scored in the period: the value is the share "
                   "at or above the flag band (0.4); the details hold the histogram over the spec's bands and the "
                   "median, to see the baseline and its drift.")
    cadence = MONTHLY
    numerator_label = "composites ≥ 0.4"
    denominator_label = "composites"
    defaults = Bounds(target_max=0.05, alert_max=0.15)
    alerts = False
    order = 110

    def measure(self, period: Period) -> Measurement:
        from detection.models import CompositeScore

        rows = list(CompositeScore.objects.filter(created_at__gte=period.start, created_at__lt=period.end,
                                                  value__isnull=False).order_by("pk").values_list("pk", "value"))
        values = [v for _, v in rows]
        high = [pk for pk, v in rows if v >= 0.4]
        return Measurement(
            value=ratio(len(high), len(values)), numerator=len(high), denominator=len(values),
            sources=(Source("detection.compositescore", f"{period_range('created_at', period)}, value >= 0.4", tuple(high),
                            "numerator"),
                     Source("detection.compositescore", period_range("created_at", period), tuple(pk for pk, _ in rows),
                            "denominator")),
            details={"edges": list(SCORE_EDGES), "histogram": histogram(values, SCORE_EDGES),
                     "median": median(values) if values else None, "mean": fmean(values) if values else None},
        )


@register
class FalseNegativeEstimate(Metric):
    key = "false_negative_estimate"
    title = "False negative estimate"
    description = ("Share of planted contamination over the month that no detector caught (the red-team estimate "
                   "of what slips through).")
    cadence = MONTHLY
    numerator_label = "planted cases missed"
    denominator_label = "planted cases"
    defaults = Bounds(target_max=0.05, alert_max=0.10)
    order = 160

    def measure(self, period: Period) -> Measurement:
        planted = planted_units(period)["planted"]
        missed = sum(not u["detected"] for u in planted)
        return Measurement(
            value=ratio(missed, len(planted)), numerator=missed, denominator=len(planted),
            sources=(Source("competition.submission", f"planted kinds, {period_range('received_at', period)}, not detected",
                            _submission_ids(planted, False), "numerator"),
                     Source("competition.submission", f"planted kinds, {period_range('received_at', period)}",
                            _submission_ids(planted), "denominator")),
            details={"by_kind": _by_kind(planted)},
        )
