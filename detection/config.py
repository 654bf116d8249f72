"""Staff-editable settings of contamination detection (spec 003 "Real-Time Detection",
"Timing Analysis", "Known Pattern Matching", "Canary Deployment Rules", "Measuring
Deception Effectiveness"; spec 001 n-gram overlap). The spec's numbers are the defaults."""

from typing import Any

from core.config import Setting, declare, declares, positive_int, unit_interval


@declares(bool)
def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("must be true or false")
    return value


@declares(float, 0)
def positive_minutes(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("must be a number of minutes")
    if value <= 0:
        raise ValueError("must be more than 0")
    return float(value)


G = "detection"

declare(
    # Composite weights and thresholds (spec table "Real-Time Detection").
    Setting("detection.weight.solve_time", 0.30, "Weight of the solve-time signal in the composite score.",
            validate=unit_interval, group=G),
    Setting("detection.weight.canonical_match", 0.35, "Weight of the canonical-match signal in the composite score.",
            validate=unit_interval, group=G),
    Setting("detection.weight.canary_modified", 0.20, "Weight of the canary-modified signal in the composite score.",
            validate=unit_interval, group=G),
    Setting("detection.weight.skips_debugging", 0.15,
            "Weight of the skips-debugging-steps signal in the composite score.", validate=unit_interval, group=G),
    Setting("detection.threshold.quarantine", 0.70,
            "Composite above which the challenge is quarantined and its scoring halted.", validate=unit_interval,
            group=G),
    Setting("detection.threshold.flag", 0.40,
            "Composite above which a submission is flagged for post-bout review (scored provisionally).",
            validate=unit_interval, group=G),
    Setting("detection.threshold.log", 0.20, "Composite above which a submission is logged for trend analysis.",
            validate=unit_interval, group=G),
    # Solve time (spec "Timing Analysis").
    Setting("detection.solve_time.flag_below", 0.30,
            "Solve time below this share of the tier median is suspicious (value 0.5 at the line, rising).",
            validate=unit_interval, group=G),
    Setting("detection.solve_time.investigate_below", 0.10,
            "Solve time below this share of the tier median is fully suspicious (value 1).",
            validate=unit_interval, group=G),
    Setting("detection.solve_time.min_samples", 20,
            "Measured solves of a tier needed before its median replaces the spec's prior.",
            validate=positive_int, group=G),
    Setting("detection.solve_time.flag_on_investigate", True,
            "A solve faster than the investigate line flags the submission whatever the composite "
            "(spec: automatic flag).", validate=boolean, group=G),
    Setting("detection.solve_time.flag_on_prior", False,
            "The automatic flag also applies while the tier's median is still the spec's prior (off: capable agents "
            "solve far faster than the human-minute prior, so only a measured median flags by itself).",
            validate=boolean, group=G),
    Setting("detection.solve_time.agent_audit_solves", 3,
            "Solves in one bout, all under their tier's median, that call for an agent-level audit (spec: "
            "consistent sub-median times across challenges).", validate=positive_int, group=G),
    *[Setting(f"detection.solve_time.prior_minutes_tier{tier}", minutes,
              f"Prior median solve time of tier {tier}, in minutes, used until enough solves are measured.",
              validate=positive_minutes, group=G)
      for tier, minutes in ((1, 8.0), (2, 18.0), (3, 35.0), (4, 70.0), (5, 150.0))],
    # Per-tier lines set by the quarterly solve-time recalibration; 0 leaves the tier on the all-tier line.
    *[Setting(f"detection.solve_time.{line}_below_tier{tier}", 0.0,
              f"{label} line of tier {tier} as a share of its median (0: the all-tier line applies).",
              validate=unit_interval, group=G)
      for tier in (1, 2, 3, 4, 5)
      for line, label in (("investigate", "Investigate"), ("flag", "Flag"))],
    # Quarterly solve-time recalibration (spec "Calibration", "Operational Procedures").
    Setting("detection.recalibration.investigate_quantile", 0.01,
            "Quantile of a tier's honest solve times the proposed investigate line starts from.",
            validate=unit_interval, group=G),
    Setting("detection.recalibration.flag_quantile", 0.05,
            "Quantile of a tier's honest solve times the proposed flag line starts from.",
            validate=unit_interval, group=G),
    Setting("detection.recalibration.margin", 0.25,
            "Share taken off each quantile so the proposed lines sit below the fastest honest solves.",
            validate=unit_interval, group=G),
    Setting("detection.recalibration.min_solves", 30,
            "Honest solves of a tier in the period needed before its lines are recalibrated (fewer: kept).",
            validate=positive_int, group=G),
    Setting("detection.recalibration.window_days", 91,
            "Days of honest solves (calibration results and closed bouts) a recalibration reads.",
            validate=positive_int, group=G),
    # Canonical match (spec "Known Pattern Matching") and n-gram overlap (spec 001).
    Setting("detection.canonical.strong_below", 0.10,
            "Distance to a canonical solution below which the match is strong (value 1).",
            validate=unit_interval, group=G),
    Setting("detection.canonical.moderate_below", 0.20,
            "Distance to a canonical solution below which the match is moderate (value 0.5 to 1).",
            validate=unit_interval, group=G),
    Setting("detection.canonical.flag_on_strong", True,
            "A strong canonical match flags the submission whatever the composite (spec: automatic investigation).",
            validate=boolean, group=G),
    Setting("detection.ngram.n", 5, "Token n-gram length of the overlap with the gold patch (spec 001).",
            validate=positive_int, group=G),
    Setting("detection.ngram.threshold", 0.40, "N-gram overlap with the gold patch above which it is noted.",
            validate=unit_interval, group=G),
    # Canary modified (spec "Canary Deployment Rules").
    Setting("detection.canary.flag_on_modified", True,
            "A patch that modifies canary code flags the submission whatever the composite (spec: solutions that "
            "modify canary code are flagged).", validate=boolean, group=G),
    Setting("detection.canary.excerpt_bytes", 1024, "Most bytes of patch kept per canary interaction.",
            validate=positive_int, group=G),
    Setting("detection.canary.target_low", 0.15, "Lower end of the target canary trigger rate.",
            validate=unit_interval, group=G),
    Setting("detection.canary.target_high", 0.30, "Upper end of the target canary trigger rate.",
            validate=unit_interval, group=G),
    Setting("detection.canary.alert_below", 0.10, "Trigger rate below which a canary is too obvious (alert).",
            validate=unit_interval, group=G),
    Setting("detection.canary.alert_above", 0.40, "Trigger rate above which a canary may be unfair (alert).",
            validate=unit_interval, group=G),
    Setting("detection.canary.real_bug_above", 0.50,
            "Trigger rate above which the canary may be a real bug (review).", validate=unit_interval, group=G),
    Setting("detection.canary.min_agents", 5, "Agents that must have attempted before a trigger rate alerts.",
            validate=positive_int, group=G),
    # Skips debugging steps (trace analysis).
    Setting("detection.trace.no_test_weight", 0.40,
            "Share of the skips-debugging value for a trace with no test run.", validate=unit_interval, group=G),
    Setting("detection.trace.edit_before_read_weight", 0.30,
            "Share of the skips-debugging value for editing code before reading or running it.",
            validate=unit_interval, group=G),
    Setting("detection.trace.straight_line_weight", 0.30,
            "Share of the skips-debugging value for a straight line to the fault with no exploration.",
            validate=unit_interval, group=G),
    # The sweep that catches evaluated submissions the real-time task missed.
    Setting("detection.sweep_batch", 200, "Most missed submissions one sweep scores.", validate=positive_int,
            group=G),
)
