"""Reads of measured difficulty: the JSON Lines export, measured versus expected per template
and tier, and the solve-time prior for the detection timing signal.

**Timing prior.** :func:`solve_time_prior` answers "how long does an honest, capable solver
take on a tier-N challenge?" from measurement rather than from spec 003's default of 5–240
human minutes (which flags every honest agent solve as impossibly fast). It pools, over the
last ``calibration.prior_window_days``:

* calibration results that were solved (server time from attempt start to the first passing
  submission), and
* honest bout solves: scores that still count (provisional or final: not under review, not
  invalidated), by entries that were not disqualified, on instances not quarantined. A bout
  that was turned into a calibration run is counted once, through the run.

Each tier gets the median, the 10/25/75/90 % quantiles, min, max and ``n`` (seconds), and
``sufficient`` says whether ``n`` reaches ``calibration.prior_min_solves``; below that a
consumer should keep its own default for that tier. Usage from detection::

    from challenges.selectors.calibration import solve_time_prior
    prior = solve_time_prior()          # {tier: SolveTimePrior}
    p = prior[4]
    if p.sufficient and solve_seconds < p.distribution.p10: ...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from challenges.calibration import (
    Measurement,
    Proposal,
    ResultRecord,
    RunRecord,
    TimeDistribution,
    dump_jsonl,
    measure,
    measure_by,
    monotone,
    propose,
    tier_trend,
    time_distribution,
)
from challenges.calibration.discrimination import BOUTS as DISCRIMINATION_BOUTS
from challenges.calibration.discrimination import CALIBRATION as DISCRIMINATION_CALIBRATION
from challenges.calibration.discrimination import SolveRateSample
from challenges.calibration.measure import TIERS
from challenges.calibration_config import calibration_bands, calibration_min_median_seconds
from challenges.models import CalibrationResult, CalibrationRun, ChallengeInstance, ChallengeTemplate, TierProposal
from core.config import config_value

# --- export ---------------------------------------------------------------------------------


def run_record(run: CalibrationRun) -> RunRecord:
    return RunRecord(run.key, run.label, run.source, run.bout_handle or None, run.recorded_at, run.notes)


def result_record(result: CalibrationResult, run_key: str) -> ResultRecord:
    return ResultRecord(run_key, result.instance_public_id, result.template.slug, result.template_version,
                        result.language, result.tier, result.solver, result.solved, result.attempts,
                        result.submissions, result.solve_seconds)


def calibration_export_text(*, run_keys: Iterable[str] | None = None) -> str:
    """The runs (all, or those named) and their results as canonical JSON Lines."""
    runs = CalibrationRun.objects.order_by("key")
    if run_keys is not None:
        runs = runs.filter(key__in=list(run_keys))
    runs = list(runs)
    keys = {run.pk: run.key for run in runs}
    results = CalibrationResult.objects.filter(run__in=runs).select_related("template")
    return dump_jsonl([run_record(r) for r in runs], [result_record(r, keys[r.run_id]) for r in results])


# --- measured versus expected ---------------------------------------------------------------


@dataclass(frozen=True)
class _Row:
    """A calibration result as the pure core reads it."""

    template: str
    tier: int
    instance: Any
    solver: str
    solved: bool
    solve_seconds: float | None


def _current_versions() -> dict[str, str]:
    from challenges.engine.model import registry

    return {slug: cls.spec.version for slug, cls in registry().items()}


def _rows(queryset: QuerySet[CalibrationResult], versions: dict[str, str]) -> list[_Row]:
    rows = []
    for slug, version, tier, instance, solver, solved, seconds in queryset.values_list(
            "template__slug", "template_version", "tier", "instance_public_id", "solver", "solved", "solve_seconds"):
        # A result measured on an older version of the template's code says nothing about today's.
        if version and slug in versions and versions[slug] != version:
            continue
        rows.append(_Row(slug, tier, instance, solver, solved, seconds))
    return rows


@dataclass(frozen=True)
class TemplateCalibration:
    template: ChallengeTemplate
    measurement: Measurement
    proposal: Proposal
    open_proposal: TierProposal | None = None

    @property
    def band(self) -> list[float]:
        return self.proposal.evidence["band"]


@dataclass(frozen=True)
class CalibrationOverview:
    templates: list[TemplateCalibration]
    per_tier: dict[int, Measurement]
    bands: dict[int, Any]
    monotone: bool
    results: int
    runs: int
    excluded_versions: int = 0
    notes: list[str] = field(default_factory=list)
    trend: str = ""


def calibration_overview() -> CalibrationOverview:
    """Per template (every non-retired one, plus any with results): measured solve rate and time
    against its tier's band, and what the measurement proposes; per tier the same, pooled."""
    bands = calibration_bands()
    min_instances = config_value("calibration.min_instances")
    floors = calibration_min_median_seconds()
    versions = _current_versions()
    everything = CalibrationResult.objects.all()
    rows = _rows(everything, versions)
    by_template: dict[str, list[_Row]] = {}
    for row in rows:
        by_template.setdefault(row.template, []).append(row)
    opened = {p.template_id: p for p in TierProposal.objects.filter(state=TierProposal.State.OPEN)}
    templates = ChallengeTemplate.objects.filter(
        ~Q(state=ChallengeTemplate.State.RETIRED) | Q(calibration_results__isnull=False)).distinct()
    out = []
    for template in templates.order_by("tier", "slug"):
        measurement = measure(by_template.get(template.slug, []))
        proposal = propose(template=template.slug, tier=template.tier, measurement=measurement, bands=bands,
                           min_instances=min_instances, min_median_seconds=floors)
        out.append(TemplateCalibration(template, measurement, proposal, opened.get(template.pk)))
    # Pooled per tier by each template's tier in force, so re-tiered templates count where they now sit.
    tier_of = {t.template.slug: t.template.tier for t in out}
    per_tier = measure_by(rows, lambda r: tier_of.get(r.template, r.tier))
    excluded = everything.count() - len(rows)
    notes = [f"{excluded} result(s) measured on an older template version are left out"] if excluded else []
    return CalibrationOverview(out, per_tier, bands, monotone(per_tier), len(rows), CalibrationRun.objects.count(),
                               excluded, notes, tier_trend(per_tier))


def template_calibration(template: ChallengeTemplate) -> TemplateCalibration:
    """One template's measurement against its tier's band, and its open proposal."""
    rows = _rows(CalibrationResult.objects.filter(template=template), _current_versions())
    measurement = measure(rows)
    proposal = propose(template=template.slug, tier=template.tier, measurement=measurement,
                       bands=calibration_bands(), min_instances=config_value("calibration.min_instances"),
                       min_median_seconds=calibration_min_median_seconds())
    return TemplateCalibration(template, measurement, proposal,
                               TierProposal.objects.filter(template=template, state=TierProposal.State.OPEN).first())


# --- the timing prior -----------------------------------------------------------------------


@dataclass(frozen=True)
class SolveTimePrior:
    tier: int
    distribution: TimeDistribution
    calibration_solves: int
    bout_solves: int
    sufficient: bool

    def as_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, **self.distribution.as_dict(), "calibration_solves": self.calibration_solves,
                "bout_solves": self.bout_solves, "sufficient": self.sufficient}


def _honest_bout_solves(since: datetime) -> list[tuple[int, float]]:
    from competition.models import Score

    counted = CalibrationRun.objects.exclude(bout_handle="").values("bout_handle")
    return list(
        Score.objects.filter(
            state__in=[Score.State.PROVISIONAL, Score.State.FINAL], entry__disqualified_at__isnull=True,
            submission__received_at__gte=since,
        )
        .exclude(challenge__instance__state=ChallengeInstance.State.QUARANTINED)
        .exclude(challenge__bout__handle__in=counted)
        .values_list("challenge__instance__tier", "solve_seconds")
    )


def solve_time_prior(*, now: datetime | None = None) -> dict[int, SolveTimePrior]:
    """Measured solve-time distribution per tier (seconds), every tier present (n may be 0)."""
    now = now or timezone.now()
    since = now - timedelta(days=config_value("calibration.prior_window_days"))
    minimum = config_value("calibration.prior_min_solves")
    calibrated = CalibrationResult.objects.filter(solved=True, solve_seconds__isnull=False,
                                                  run__recorded_at__gte=since).values_list("tier", "solve_seconds")
    seconds: dict[int, list[float]] = {tier: [] for tier in TIERS}
    counts = {tier: [0, 0] for tier in TIERS}
    for tier, value in calibrated:
        seconds[tier].append(value)
        counts[tier][0] += 1
    for tier, value in _honest_bout_solves(since):
        seconds[tier].append(value)
        counts[tier][1] += 1
    return {tier: SolveTimePrior(tier, time_distribution(seconds[tier]), counts[tier][0], counts[tier][1],
                                 len(seconds[tier]) >= minimum) for tier in TIERS}


# --- measured discrimination for the quarterly refresh ----------------------------------------


def template_solve_samples(*, since: datetime, until: datetime) -> dict[str, dict[str, SolveRateSample]]:
    """Per template slug, its tries and solves in ``[since, until)`` from each source.

    ``calibration``: results of runs recorded in the period, on the template's current version.
    ``bouts``: in closed bouts, each (entry, challenge) an eligible entry started counts as one
    try, solved when its score still counts (provisional or final).
    """
    from competition.models import Attempt, Bout, Score

    out: dict[str, dict[str, SolveRateSample]] = {}
    results = CalibrationResult.objects.filter(run__recorded_at__gte=since, run__recorded_at__lt=until)
    for slug, rows in sorted(_group(_rows(results, _current_versions()), lambda r: r.template).items()):
        out.setdefault(slug, {})[DISCRIMINATION_CALIBRATION] = SolveRateSample(
            DISCRIMINATION_CALIBRATION, len(rows), sum(1 for r in rows if r.solved), len({r.instance for r in rows}))
    closed = {"challenge__bout__state": Bout.State.CLOSED, "entry__disqualified_at__isnull": True}
    tries = set(Attempt.objects.filter(started_at__gte=since, started_at__lt=until, **closed).values_list(
        "entry_id", "challenge_id", "challenge__instance__template__slug", "challenge__instance_id"))
    scored = set(Score.objects.filter(state__in=[Score.State.PROVISIONAL, Score.State.FINAL], **closed)
                 .values_list("entry_id", "challenge_id"))
    by_template: dict[str, list[tuple[bool, int]]] = {}
    for entry_id, challenge_id, slug, instance_id in tries:
        by_template.setdefault(slug, []).append(((entry_id, challenge_id) in scored, instance_id))
    for slug, rows in by_template.items():
        out.setdefault(slug, {})[DISCRIMINATION_BOUTS] = SolveRateSample(
            DISCRIMINATION_BOUTS, len(rows), sum(1 for solved, _ in rows if solved), len({i for _, i in rows}))
    return out


def _group(rows, key) -> dict[Any, list]:
    groups: dict[Any, list] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return groups
