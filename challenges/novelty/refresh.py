"""Pool refresh decisions (spec 003, Strategy 3): quarterly refresh and "too easy".

Both functions are pure: they take statistics and return decisions with readable
reasons; the Django layer applies them and records one audit event per decision.

**Health score** of an active template, in ``[0, 1]`` (higher is healthier)::

    discrimination = 1 - |solve_rate - target_solve_rate| / max(target, 1 - target)
    novelty        = mean uniqueness of its instances (1 - max similarity, 0..1)
    cleanliness    = 1 - contamination_flags / attempts
    health = w_d * discrimination + w_n * novelty + w_c * cleanliness

with defaults ``target_solve_rate = 0.5``, ``w_d = 0.4``, ``w_n = 0.3``,
``w_c = 0.3``: a template that separates strong from weak agents, stays novel and
does not trigger contamination signals scores high. Templates with fewer than
``min_attempts`` attempts are not ranked (no data is not bad data).

**Quarterly refresh** retires ``floor(retire_fraction * active)`` (20%) of the
lowest-health ranked templates (ties: slug) and promotes the same number of ready
drafts, oldest first (ties: slug). Unless ``retire_without_replacement`` is set,
retirements are capped by the ready drafts so the pool never shrinks; the shortfall
is reported as a note.

**Too easy**: a bug class whose solve rate is at least ``solve_rate_threshold`` in
each of the last ``months`` complete calendar months (each with at least
``min_attempts_per_month`` attempts) is promoted one tier, or retired when already
at ``max_tier``. A missing or thin month means no decision (``keep``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from .errors import RotationError
from .fingerprint import TIER_MAX, TIER_MIN


def _aware(value: datetime, name: str) -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise RotationError("naive_datetime", f"{name} must be a timezone-aware datetime", field=name)
    return value


@dataclass(frozen=True, slots=True)
class RefreshPolicy:
    retire_fraction: float = 0.20
    target_solve_rate: float = 0.5
    discrimination_weight: float = 0.4
    novelty_weight: float = 0.3
    cleanliness_weight: float = 0.3
    min_attempts: int = 20
    retire_without_replacement: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.retire_fraction <= 1.0:
            raise RotationError("invalid_policy", "retire_fraction must be within 0..1", field="retire_fraction")
        if not 0.0 < self.target_solve_rate < 1.0:
            raise RotationError(
                "invalid_policy", "target_solve_rate must be strictly between 0 and 1", field="target_solve_rate"
            )
        weights = (self.discrimination_weight, self.novelty_weight, self.cleanliness_weight)
        if any(w < 0 for w in weights) or not math.isclose(sum(weights), 1.0, abs_tol=1e-9):
            raise RotationError("invalid_policy", "health weights must be >= 0 and sum to 1", field="health_weights")


@dataclass(frozen=True, slots=True)
class TemplateStats:
    slug: str
    attempts: int
    solves: int
    mean_uniqueness: float
    contamination_flags: int = 0

    def __post_init__(self) -> None:
        if self.attempts < 0 or not 0 <= self.solves <= self.attempts:
            raise RotationError("invalid_stats", f"{self.slug}: need 0 <= solves <= attempts", field="solves")
        if not 0 <= self.contamination_flags <= self.attempts:
            raise RotationError(
                "invalid_stats", f"{self.slug}: contamination_flags exceeds attempts", field="contamination_flags"
            )
        if not 0.0 <= self.mean_uniqueness <= 1.0:
            raise RotationError(
                "invalid_stats", f"{self.slug}: mean_uniqueness must be within 0..1", field="mean_uniqueness"
            )


@dataclass(frozen=True, slots=True)
class DraftTemplate:
    slug: str
    ready: bool
    created_at: datetime

    def __post_init__(self) -> None:
        _aware(self.created_at, "created_at")


@dataclass(frozen=True, slots=True)
class RefreshDecision:
    template: str
    action: str  # "retire" | "promote"
    reason: str
    health: float | None = None


@dataclass(frozen=True, slots=True)
class RefreshPlan:
    retire: tuple[RefreshDecision, ...]
    promote: tuple[RefreshDecision, ...]
    notes: tuple[str, ...]


def health_score(stats: TemplateStats, policy: RefreshPolicy = RefreshPolicy()) -> float:
    """The documented health score (module docstring); requires ``attempts > 0``."""
    if stats.attempts == 0:
        raise RotationError("invalid_stats", f"{stats.slug}: no attempts to score", field="attempts")
    rate = stats.solves / stats.attempts
    target = policy.target_solve_rate
    discrimination = 1.0 - abs(rate - target) / max(target, 1.0 - target)
    cleanliness = 1.0 - stats.contamination_flags / stats.attempts
    return (
        policy.discrimination_weight * discrimination
        + policy.novelty_weight * stats.mean_uniqueness
        + policy.cleanliness_weight * cleanliness
    )


def plan_quarterly_refresh(
    active: Sequence[TemplateStats],
    drafts: Sequence[DraftTemplate],
    policy: RefreshPolicy = RefreshPolicy(),
) -> RefreshPlan:
    """Which active templates to retire and which drafts to promote this quarter."""
    slugs = [s.slug for s in active]
    if len(set(slugs)) != len(slugs):
        raise RotationError("duplicate_template", "a template is listed twice", field="active")
    notes: list[str] = []
    target = math.floor(policy.retire_fraction * len(active) + 1e-9)
    ranked = sorted(
        ((health_score(s, policy), s) for s in active if s.attempts >= policy.min_attempts),
        key=lambda pair: (pair[0], pair[1].slug),
    )
    unranked = sorted(s.slug for s in active if s.attempts < policy.min_attempts)
    if unranked:
        notes.append(f"not ranked (fewer than {policy.min_attempts} attempts): {', '.join(unranked)}")
    ready = sorted((d for d in drafts if d.ready), key=lambda d: (d.created_at, d.slug))
    count = min(target, len(ranked))
    if count < target:
        notes.append(f"only {len(ranked)} templates have enough data; retiring {count} of {target}")
    if not policy.retire_without_replacement and len(ready) < count:
        notes.append(
            f"only {len(ready)} ready drafts; retiring {len(ready)} instead of {count} so the pool does not shrink"
        )
        count = len(ready)

    retire = tuple(
        RefreshDecision(
            template=stats.slug,
            action="retire",
            reason=(
                f"health {score:.3f} ranks {position} of {len(ranked)} "
                f"(bottom {policy.retire_fraction:.0%} = {target} of {len(active)} active)"
            ),
            health=score,
        )
        for position, (score, stats) in enumerate(ranked[:count], start=1)
    )
    promote = tuple(
        RefreshDecision(
            template=draft.slug,
            action="promote",
            reason=f"ready draft created {draft.created_at.astimezone(UTC):%Y-%m-%d}; replaces a retired template",
        )
        for draft in ready[: len(retire)]
    )
    return RefreshPlan(retire=retire, promote=promote, notes=tuple(notes))


@dataclass(frozen=True, slots=True)
class TooEasyPolicy:
    solve_rate_threshold: float = 0.80
    months: int = 3
    min_attempts_per_month: int = 20
    max_tier: int = TIER_MAX

    def __post_init__(self) -> None:
        if not 0.0 < self.solve_rate_threshold <= 1.0:
            raise RotationError(
                "invalid_policy", "solve_rate_threshold must be within (0, 1]", field="solve_rate_threshold"
            )
        if self.months < 1:
            raise RotationError("invalid_policy", "months must be >= 1", field="months")
        if not TIER_MIN <= self.max_tier <= TIER_MAX:
            raise RotationError("invalid_policy", "max_tier must be a valid tier", field="max_tier")


@dataclass(frozen=True, slots=True)
class MonthlySolves:
    month: date  # any day of the month; only year and month are used
    attempts: int
    solves: int

    def __post_init__(self) -> None:
        if self.attempts < 0 or not 0 <= self.solves <= self.attempts:
            raise RotationError("invalid_stats", "need 0 <= solves <= attempts", field="solves")


@dataclass(frozen=True, slots=True)
class BugClassRecord:
    bug_class: str
    tier: int
    history: tuple[MonthlySolves, ...]


@dataclass(frozen=True, slots=True)
class BugClassDecision:
    bug_class: str
    action: str  # "keep" | "promote_tier" | "retire"
    from_tier: int
    to_tier: int | None
    reason: str


def _previous_months(now: datetime, count: int) -> list[tuple[int, int]]:
    year, month = now.year, now.month
    out = []
    for _ in range(count):
        month -= 1
        if month == 0:
            year, month = year - 1, 12
        out.append((year, month))
    return out


def assess_too_easy(
    records: Sequence[BugClassRecord],
    now: datetime,
    policy: TooEasyPolicy = TooEasyPolicy(),
) -> list[BugClassDecision]:
    """One decision per bug class over the last ``policy.months`` complete months."""
    now = _aware(now, "now").astimezone(UTC)
    months = _previous_months(now, policy.months)
    decisions = []
    for record in records:
        by_month: dict[tuple[int, int], MonthlySolves] = {}
        for entry in record.history:
            key = (entry.month.year, entry.month.month)
            if key in by_month:
                raise RotationError(
                    "duplicate_month", f"{record.bug_class}: month {key[0]}-{key[1]:02d} listed twice", field="history"
                )
            by_month[key] = entry
        reason = None
        rates = []
        for year, month in months:
            entry = by_month.get((year, month))
            label = f"{year}-{month:02d}"
            if entry is None or entry.attempts < policy.min_attempts_per_month:
                reason = f"insufficient data in {label} (need {policy.min_attempts_per_month} attempts)"
                break
            rate = entry.solves / entry.attempts
            if rate < policy.solve_rate_threshold:
                reason = f"solve rate {rate:.0%} in {label} is below {policy.solve_rate_threshold:.0%}"
                break
            rates.append(f"{label} {rate:.0%}")
        if reason is not None:
            decisions.append(BugClassDecision(record.bug_class, "keep", record.tier, record.tier, reason))
            continue
        summary = (
            f"solve rate at or above {policy.solve_rate_threshold:.0%} for {policy.months} months ({', '.join(rates)})"
        )
        if record.tier < policy.max_tier:
            decisions.append(
                BugClassDecision(
                    record.bug_class,
                    "promote_tier",
                    record.tier,
                    record.tier + 1,
                    f"{summary}; promoted from tier {record.tier} to {record.tier + 1}",
                )
            )
        else:
            decisions.append(
                BugClassDecision(
                    record.bug_class,
                    "retire",
                    record.tier,
                    None,
                    f"{summary}; already at the top tier {policy.max_tier}, so retired",
                )
            )
    return decisions
