"""Staff-editable settings of the integrity metrics, reports and operating schedule.

For every registered metric, its target and alert thresholds (the spec's values are the
defaults) are settings ``metrics.<key>.target_min`` / ``target_max`` / ``alert_min`` /
``alert_max``; only the bounds a metric has are declared. The expected solve rate per tier
is the post-bout batch's band (``detection.anomaly.tierN_low|high``, spec 003 "Post-Bout
Detection"); a metric whose thresholds another capability declares (the canary trigger
band, ``detection.canary.*``) reads them from there instead of declaring a second copy.
"""

from __future__ import annotations

from core.config import Setting, declare, non_negative_number, positive_int, unit_interval
from detection.metrics import BOUND_NAMES, Bounds, metric, metrics, setting_key

GROUP = "integrity metrics"

_BOUND_WORDS = {
    "target_min": "Target: at least", "target_max": "Target: at most",
    "alert_min": "Alert when below", "alert_max": "Alert when above",
}


def declare_metric_settings() -> None:
    for m in metrics():
        validator = unit_interval if m.unit in ("ratio", "score") else non_negative_number
        for bound in BOUND_NAMES:
            default = getattr(m.defaults, bound)
            if default is None or bound in m.bound_settings:
                continue
            declare(Setting(setting_key(m.key, bound), float(default), f"{m.title}. {_BOUND_WORDS[bound]} this value.",
                            validate=validator, group=GROUP))


def metric_bounds(key: str) -> Bounds:
    """The thresholds in force for ``key``: the declared settings, with staff overrides."""
    from core.config import config_value, config_values

    found = metric(key)
    values = config_values(f"metrics.{key}.")
    values.update({bound: config_value(setting) for bound, setting in found.bound_settings.items()})
    return Bounds(**{bound: values.get(bound, getattr(found.defaults, bound)) for bound in BOUND_NAMES})


declare(
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
