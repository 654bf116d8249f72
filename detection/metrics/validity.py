"""The validity checklist of spec 001 §6 for a bout or season report (Django-free).

Four threats stand between a score and a capability estimate. For each, the platform's
evidence and a judgement: **met** (the evidence answers the threat), **partly met** (some
evidence, or an answer with a known limit) or **open** (no evidence yet). Every judgement
carries the reason a reader needs to check it.

- contamination: scores under review or invalidated by the detectors, and the dedup
  uniqueness every instance had when generated;
- test adequacy: the mutation score of each instance's hidden tests (the release gate)
  and the measured difficulty of the instances against their tier's expected band;
- metric gaming through retries: pass@1 published next to pass@k, with k and n;
- benchmark-to-production gap: the cost and latency distributions, and the limit every
  synthetic benchmark has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

MET = "met"
PARTLY = "partly_met"
OPEN = "open"
LABELS = {MET: "Met", PARTLY: "Partly met", OPEN: "Open"}


@dataclass(frozen=True)
class Threat:
    key: str
    title: str
    state: str
    reason: str
    evidence: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return LABELS[self.state]

    def as_dict(self) -> dict:
        return {"key": self.key, "title": self.title, "state": self.state, "label": self.label,
                "reason": self.reason, "evidence": list(self.evidence)}


@dataclass(frozen=True)
class InstanceFacts:
    uniqueness: float | None
    mutation_score: float | None


@dataclass(frozen=True)
class TierFacts:
    tier: int
    attempts: int
    solved: int
    expected_min: float
    expected_max: float


@dataclass(frozen=True)
class ValidityFacts:
    scores: int
    under_review: int
    invalidated: int
    instances: Sequence[InstanceFacts]
    tiers: Sequence[TierFacts]
    mutation_threshold: float
    decided_attempts: int
    solved_attempts: int
    k: int
    pass_at_k: Sequence[float] = field(default_factory=tuple)  # one per agent with a figure
    challenges_below_k: int = 0
    agents: int = 0
    agents_reporting_cost: int = 0
    latency_count: int = 0
    latency_p50: float | None = None
    latency_p95: float | None = None


def _pct(x: float) -> str:
    return f"{x * 100:.0f} %"


def contamination(f: ValidityFacts) -> Threat:
    evidence = [f"{f.scores} score{'s' if f.scores != 1 else ''}: {f.under_review} under review, "
                f"{f.invalidated} invalidated by the contamination checks"]
    known = [i.uniqueness for i in f.instances if i.uniqueness is not None]
    if known:
        evidence.append(f"{len(known)} of {len(f.instances)} instances checked for novelty when generated; "
                        f"uniqueness mean {sum(known) / len(known):.2f}, lowest {min(known):.2f}")
    if not f.instances or not known:
        return Threat("contamination", "Data contamination", OPEN,
                      "no instance of this report has a novelty check on record", tuple(evidence))
    if f.under_review:
        return Threat("contamination", "Data contamination", PARTLY,
                      f"{f.under_review} score{'s are' if f.under_review != 1 else ' is'} still under review",
                      tuple(evidence))
    if len(known) < len(f.instances):
        return Threat("contamination", "Data contamination", PARTLY,
                      "some instances have no novelty check on record", tuple(evidence))
    return Threat("contamination", "Data contamination", MET,
                  "every instance was generated fresh and checked for novelty; no score is awaiting review"
                  + (" (invalidated scores are excluded from the figures)" if f.invalidated else ""),
                  tuple(evidence))


def test_adequacy(f: ValidityFacts) -> Threat:
    scores = [i.mutation_score for i in f.instances if i.mutation_score is not None]
    evidence = []
    if scores:
        below = sum(s < f.mutation_threshold for s in scores)
        evidence.append(f"mutation score of the hidden tests: {len(scores)} of {len(f.instances)} instances measured, "
                        f"lowest {min(scores):.2f}, {below} below the {f.mutation_threshold:.2f} gate")
    for t in f.tiers:
        if t.attempts:
            evidence.append(f"tier {t.tier}: {t.solved} of {t.attempts} attempts solved ({_pct(t.solved / t.attempts)}); "
                            f"expected {_pct(t.expected_min)}–{_pct(t.expected_max)}")
    if not scores:
        return Threat("test_adequacy", "Test adequacy", OPEN, "no mutation score is on record for these instances",
                      tuple(evidence))
    if len(scores) < len(f.instances) or any(s < f.mutation_threshold for s in scores):
        return Threat("test_adequacy", "Test adequacy", PARTLY,
                      "not every instance's hidden tests are measured at or above the mutation gate", tuple(evidence))
    return Threat("test_adequacy", "Test adequacy", MET,
                  f"every instance's hidden tests kill at least {_pct(f.mutation_threshold)} of mutants of the fix",
                  tuple(evidence))


def retries(f: ValidityFacts) -> Threat:
    if not f.decided_attempts:
        return Threat("retries", "Metric gaming through retries", OPEN, "no attempt has been decided yet")
    evidence = [f"pass@1 {_pct(f.solved_attempts / f.decided_attempts)} over n = {f.decided_attempts} decided attempts"]
    if f.pass_at_k:
        evidence.append(f"pass@{f.k} per agent from {_pct(min(f.pass_at_k))} to {_pct(max(f.pass_at_k))}")
    if f.challenges_below_k:
        evidence.append(f"{f.challenges_below_k} agent-challenge pairs had fewer than k = {f.k} attempts "
                        "(scored solved only if solved)")
        return Threat("retries", "Metric gaming through retries", PARTLY,
                      f"pass@1 and pass@{f.k} are published with k and n, but some challenges had fewer than k "
                      "attempts", tuple(evidence))
    return Threat("retries", "Metric gaming through retries", MET,
                  f"pass@1 is published next to pass@{f.k}, with k and n", tuple(evidence))


def production_gap(f: ValidityFacts) -> Threat:
    evidence = []
    if f.agents:
        evidence.append(f"cost reported by {f.agents_reporting_cost} of {f.agents} agents")
    if f.latency_count:
        evidence.append(f"latency p50 {f.latency_p50:.0f} s, p95 {f.latency_p95:.0f} s over {f.latency_count} attempts")
    if not f.latency_count:
        return Threat("production_gap", "Benchmark-to-production gap", OPEN, "no latency has been measured yet",
                      tuple(evidence))
    return Threat("production_gap", "Benchmark-to-production gap", PARTLY,
                  "cost and latency distributions are published; the challenges are synthetic, so their difficulty "
                  "may not match the real bugs of a given codebase", tuple(evidence))


def validity_checklist(facts: ValidityFacts) -> list[Threat]:
    return [contamination(facts), test_adequacy(facts), retries(facts), production_gap(facts)]
