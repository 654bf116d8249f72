"""Staff-editable settings of fingerprint dedup and template rotation (spec 003, Strategies 2-3).

Every number of the spec is declared here with the spec's value as its default; the
services read them on each call through ``novelty_settings`` / ``rotation_settings`` so a
change in the admin applies to the next check or pick without a restart.

Weights are relative: if staff leave them not summing to 1 they are scaled to sum to 1
(so scores stay comparable with the thresholds) and each check says so in its reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from challenges.novelty import (
    CodeThresholds,
    Enforcement,
    NoveltyError,
    RefreshPolicy,
    RotationPolicy,
    Thresholds,
    TooEasyPolicy,
    Weights,
    WindowPolicy,
)
from core.config import Setting, config_values, declare, declares, non_negative_number, positive_int, unit_interval
from core.errors import ValidationFailed

WEIGHT_DEFAULTS: dict[str, float] = {
    "bug_type": 0.30,
    "solution_approach": 0.25,
    "architecture": 0.15,
    "domain": 0.10,
    "tech_stack": 0.10,
    "key_concepts": 0.05,
    "red_herring_types": 0.03,
    "complexity_tier": 0.02,
    # The spec gives bug_location no weight: it is reported in explanations only.
    "bug_location": 0.0,
}


@declares(bool)
def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("must be true or false")
    return value


@declares(float, 0)
def _positive_number(value: Any) -> float:
    value = non_negative_number(value)
    if value <= 0:
        raise ValueError("must be greater than 0")
    return value


@declares(float, 0, 1)
def _open_unit_interval(value: Any) -> float:
    value = unit_interval(value)
    if not 0.0 < value < 1.0:
        raise ValueError("must be strictly between 0 and 1")
    return value


@declares(int, 1, 5)
def _tier(value: Any) -> int:
    value = positive_int(value)
    if value > 5:
        raise ValueError("must be a tier between 1 and 5")
    return value


_DEDUP = "dedup"
_ROTATION = "rotation"
_REFRESH = "template refresh"

declare(
    *(
        Setting(
            f"novelty.weight.{field}", weight,
            f"Similarity weight of the fingerprint field {field} (relative; scaled so all weights sum to 1).",
            validate=unit_interval, group=_DEDUP,
        )
        for field, weight in WEIGHT_DEFAULTS.items()
    ),
    Setting("novelty.reject_above", 0.70, "Similarity above which a new instance is rejected and regenerated.",
            validate=unit_interval, group=_DEDUP),
    Setting("novelty.flag_from", 0.50, "Similarity from which an instance waits for manual review before release.",
            validate=unit_interval, group=_DEDUP),
    Setting("novelty.note_from", 0.30, "Similarity from which an accepted instance is noted for trend analysis.",
            validate=unit_interval, group=_DEDUP),
    Setting("novelty.corpus_reject_above", 0.50,
            "Similarity to a known-contamination entry above which an instance is rejected regardless of the window.",
            validate=unit_interval, group=_DEDUP),
    Setting("novelty.window_days", 90, "Days of recent instances every new instance is compared against.",
            validate=positive_int, group=_DEDUP),
    Setting("novelty.hall_of_fame_size", 100, "How many of the most-solved challenges form the hall of fame.",
            validate=positive_int, group=_DEDUP),
    Setting("novelty.nearest_k", 5, "Nearest matches kept per comparison set to explain a decision.",
            validate=positive_int, group=_DEDUP),
    Setting("novelty.code.reject_above", 0.50,
            "Code-structure similarity (identifier-erased, max of Jaccard and containment) above which a new "
            "instance is rejected and redrawn, when code dedup is enforced.",
            validate=unit_interval, group=_DEDUP),
    Setting("novelty.code.flag_from", 0.35,
            "Code-structure similarity from which a new instance waits for manual review before release.",
            validate=unit_interval, group=_DEDUP),
    Setting("novelty.code.enforcement", "observe",
            "What code dedup does with its verdict: 'enforce' redraws above the reject threshold and queues the "
            "review band for review; 'review' queues both for review; 'observe' records and shows the decision "
            "but lets generation go on. Observe by default: today's generator makes siblings of one template "
            "~0.9 similar, so enforcing would stop generation after one instance per template and language.",
            choices=("observe", "review", "enforce"), group=_DEDUP),
    Setting("rotation.cooldown_days", 14, "Days a template rests after one of its instances is released.",
            validate=non_negative_number, group=_ROTATION),
    Setting("rotation.family_window_days", 7, "Rolling window, in days, of the per-family release limit.",
            validate=non_negative_number, group=_ROTATION),
    Setting("rotation.family_max_in_window", 2, "Most releases from one template family in the rolling window.",
            validate=positive_int, group=_ROTATION),
    Setting("rotation.domain_reuse_days", 30, "Days before a template may use the same domain lexicon again.",
            validate=non_negative_number, group=_ROTATION),
    Setting("rotation.stack_reuse_days", 60, "Days before a template may use the same tech-stack combination again.",
            validate=non_negative_number, group=_ROTATION),
    Setting("rotation.min_lexicon_pool", 50, "Fewest enabled domain lexicons naming draws may come from.",
            validate=positive_int, group=_ROTATION),
    Setting("rotation.weight_half_life_days", 30,
            "Half-life, in days, of a past use's effect on a template's selection weight.",
            validate=_positive_number, group=_ROTATION),
    Setting("rotation.refresh.retire_fraction", 0.20, "Share of active templates retired by the quarterly refresh.",
            validate=unit_interval, group=_REFRESH),
    Setting("rotation.refresh.period_days", 91, "Days of solve data the quarterly refresh scores templates on.",
            validate=positive_int, group=_REFRESH),
    Setting("rotation.refresh.target_solve_rate", 0.5,
            "Solve rate at which a template discriminates best (health score).",
            validate=_open_unit_interval, group=_REFRESH),
    Setting("rotation.refresh.weight.discrimination", 0.4, "Health-score weight of discrimination.",
            validate=unit_interval, group=_REFRESH),
    Setting("rotation.refresh.weight.novelty", 0.3, "Health-score weight of mean instance uniqueness.",
            validate=unit_interval, group=_REFRESH),
    Setting("rotation.refresh.weight.cleanliness", 0.3, "Health-score weight of freedom from contamination.",
            validate=unit_interval, group=_REFRESH),
    Setting("rotation.refresh.min_attempts", 20, "Fewest attempts for a template to be ranked by health.",
            validate=positive_int, group=_REFRESH),
    Setting("rotation.refresh.retire_without_replacement", False,
            "Retire the bottom share even when too few ready drafts can replace them.",
            validate=_boolean, group=_REFRESH),
    Setting("rotation.refresh.discrimination_min_samples", 20,
            "Fewest tries of a template (calibration results, else closed-bout tries) before the quarterly refresh "
            "judges its solve rate against its tier's band (fewer: measured again next quarter).",
            validate=positive_int, group=_REFRESH),
    Setting("rotation.refresh.flagged_weight_factor", 0.5,
            "Factor on the rotation weight of a template that left the band of the top (or bottom) tier, until "
            "its solve rate is back in band.", validate=unit_interval, group=_REFRESH),
    Setting("rotation.too_easy.solve_rate", 0.80,
            "Monthly solve rate at or above which a bug class counts as too easy.",
            validate=unit_interval, group=_REFRESH),
    Setting("rotation.too_easy.months", 3, "Consecutive complete months a bug class must stay too easy.",
            validate=positive_int, group=_REFRESH),
    Setting("rotation.too_easy.min_attempts_per_month", 20, "Fewest attempts in a month for it to count.",
            validate=positive_int, group=_REFRESH),
    Setting("rotation.too_easy.max_tier", 5, "Top tier: a too-easy bug class already here is retired.",
            validate=_tier, group=_REFRESH),
)


# --- readers: settings as the pure core's policy objects ------------------------------


def _policy(build: Callable[[], Any]) -> Any:
    try:
        return build()
    except NoveltyError as exc:
        raise ValidationFailed(
            f"Inconsistent novelty settings: {exc.message}", code=exc.code,
            extra={"field": exc.extra.get("field", "settings")},
        ) from exc


@dataclass(frozen=True)
class NoveltySettings:
    weights: Weights
    thresholds: Thresholds
    window: WindowPolicy
    k: int
    #: Set when staff weights did not sum to 1 and were scaled.
    weights_note: str = ""


def novelty_settings() -> NoveltySettings:
    values = config_values("novelty.")
    raw = {field: float(values[f"weight.{field}"]) for field in WEIGHT_DEFAULTS}
    total = sum(raw.values())
    if total <= 0:
        raise ValidationFailed("Every novelty weight is 0.", code="weights_all_zero", extra={"field": "novelty.weight"})
    note = ""
    if abs(total - 1.0) > 1e-9:
        raw = {field: value / total for field, value in raw.items()}
        note = f"staff weights summed to {total:.3f} and were scaled to sum to 1"
    return _policy(lambda: NoveltySettings(
        weights=Weights(**raw),
        thresholds=Thresholds(
            reject=values["reject_above"], flag=values["flag_from"], note=values["note_from"],
            corpus_reject=values["corpus_reject_above"],
        ),
        window=WindowPolicy(days=values["window_days"], hall_of_fame_size=values["hall_of_fame_size"]),
        k=values["nearest_k"],
        weights_note=note,
    ))


@dataclass(frozen=True)
class CodeDedupSettings:
    thresholds: CodeThresholds
    enforcement: Enforcement
    window: WindowPolicy
    k: int


def code_dedup_settings() -> CodeDedupSettings:
    values = config_values("novelty.")
    return _policy(lambda: CodeDedupSettings(
        thresholds=CodeThresholds(reject=values["code.reject_above"], flag=values["code.flag_from"]),
        enforcement=Enforcement(values["code.enforcement"]),
        window=WindowPolicy(days=values["window_days"], hall_of_fame_size=values["hall_of_fame_size"]),
        k=values["nearest_k"],
    ))


def rotation_policy() -> RotationPolicy:
    v = config_values("rotation.")
    return _policy(lambda: RotationPolicy(
        cooldown_days=v["cooldown_days"], family_window_days=v["family_window_days"],
        family_max_in_window=v["family_max_in_window"], domain_reuse_days=v["domain_reuse_days"],
        stack_reuse_days=v["stack_reuse_days"], min_lexicon_pool=v["min_lexicon_pool"],
        weight_half_life_days=v["weight_half_life_days"],
    ))


def refresh_policy() -> tuple[RefreshPolicy, int]:
    """The quarterly refresh policy and the days of solve data it scores on."""
    v = config_values("rotation.refresh.")
    policy = _policy(lambda: RefreshPolicy(
        retire_fraction=v["retire_fraction"], target_solve_rate=v["target_solve_rate"],
        discrimination_weight=v["weight.discrimination"], novelty_weight=v["weight.novelty"],
        cleanliness_weight=v["weight.cleanliness"], min_attempts=v["min_attempts"],
        retire_without_replacement=v["retire_without_replacement"],
    ))
    return policy, v["period_days"]


def too_easy_policy() -> TooEasyPolicy:
    v = config_values("rotation.too_easy.")
    return _policy(lambda: TooEasyPolicy(
        solve_rate_threshold=v["solve_rate"], months=v["months"],
        min_attempts_per_month=v["min_attempts_per_month"], max_tier=v["max_tier"],
    ))
