"""Staff-editable settings of the integrity metrics, reports and operating schedule.

For every registered metric, its target and alert thresholds (the spec's values are the
defaults) are settings ``metrics.<key>.target_min`` / ``target_max`` / ``alert_min`` /
``alert_max``; only the bounds a metric has are declared. The expected solve rate per tier
is the band of spec 003 "Post-Bout Detection" (calibrated quarterly).
"""

from __future__ import annotations

from core.config import Setting, declare, non_negative_number, positive_int, unit_interval
from detection.metrics import BOUND_NAMES, Bounds, metric, metrics, setting_key

GROUP = "integrity metrics"

EXPECTED_SOLVE_RATES = {1: (0.85, 0.95), 2: (0.65, 0.80), 3: (0.40, 0.60), 4: (0.20, 0.35), 5: (0.05, 0.15)}

_BOUND_WORDS = {
    "target_min": "Target: at least", "target_max": "Target: at most",
    "alert_min": "Alert when below", "alert_max": "Alert when above",
}


def declare_metric_settings() -> None:
    for m in metrics():
        validator = unit_interval if m.unit in ("ratio", "score") else non_negative_number
        for bound in BOUND_NAMES:
            default = getattr(m.defaults, bound)
            if default is None:
                continue
            declare(Setting(setting_key(m.key, bound), float(default), f"{m.title}. {_BOUND_WORDS[bound]} this value.",
                            validate=validator, group=GROUP))


def metric_bounds(key: str) -> Bounds:
    """The thresholds in force for ``key``: the declared settings, with staff overrides."""
    from core.config import config_values

    found = metric(key)
    values = config_values(f"metrics.{key}.")
    return Bounds(**{bound: values.get(bound, getattr(found.defaults, bound)) for bound in BOUND_NAMES})


declare(
    *(Setting(f"metrics.expected_solve_rate.tier{tier}.{end}", value,
              f"Expected solve rate of tier {tier}: {'lower' if end == 'min' else 'upper'} edge of the band.",
              validate=unit_interval, group=GROUP)
      for tier, band in EXPECTED_SOLVE_RATES.items() for end, value in zip(("min", "max"), band, strict=True)),
    Setting("metrics.solve_rate.min_attempts", 10,
            "Finished attempts a tier needs in a period before its solve rate is judged against the band.",
            validate=positive_int, group=GROUP),
    Setting("reports.spot_check_count", 5,
            "Instances drawn at random for the weekly spot check (spec: 5).", validate=positive_int, group=GROUP),
    Setting("reports.history_periods", 12,
            "Periods of history the reports and dashboards chart for each metric.", validate=positive_int,
            group=GROUP),
    Setting("procedures.overdue_grace_hours", 24,
            "Hours after a checklist's period ends before its open items are overdue and the roles notified.",
            validate=non_negative_number, group=GROUP),
    Setting("procedures.dedup_probe_ms", 500,
            "Time budget of the daily dedup health probe, in milliseconds (spec: < 500 ms per comparison).",
            validate=positive_int, group=GROUP),
    Setting("procedures.review_max_wait_hours", 24,
            "A pending fingerprint review older than this fails the daily dedup health check.",
            validate=positive_int, group=GROUP),
)
