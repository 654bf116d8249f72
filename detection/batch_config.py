"""Staff-editable settings of the post-bout batch, provenance and trends (spec 003 numbers
as defaults), and the builders that turn them into the pure core's parameter objects."""

from __future__ import annotations

from core.config import Setting, config_values, declare, non_negative_number, positive_int, unit_interval
from detection.analysis import ConvergenceParams, ProvenanceParams
from detection.analysis.convergence import Band
from detection.batch import AnomalyParams, ClusterParams, TrendParams
from detection.batch.anomaly import SPEC_TIER_BANDS
from detection.batch.copies import CopyParams

_BANDS = [
    Setting(f"detection.anomaly.tier{tier}_{edge}", value,
            f"Expected solve rate of tier {tier}, {'lower' if edge == 'low' else 'upper'} edge of the spec band "
            "(used until enough calibration data exists; the upper edge is the reference).",
            validate=unit_interval, group="detection")
    for tier, band in SPEC_TIER_BANDS.items() for edge, value in zip(("low", "high"), band, strict=True)
]

declare(
    Setting("detection.batch.on_close", True, "Run the post-bout batch when a bout closes.", group="detection"),
    Setting("detection.batch.stale_minutes", 15, "A batch run queued or running longer than this is queued again "
            "(its task was lost).", validate=positive_int, group="detection"),
    Setting("detection.batch.max_tries", 3, "Times a batch run is started before it stays failed for staff.",
            validate=positive_int, group="detection"),
    Setting("detection.batch.pairs_shown", 5, "Most similar pairs of a challenge kept with their normal-form diff.",
            validate=positive_int, group="detection"),
    # Convergence (strategy 4): bands, tier adjustment, investigate line.
    Setting("detection.convergence.strong_distance", 0.15, "Convergence: a pair below this distance counts as strong.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.strong_share", 0.60, "Convergence: share of strong pairs to exceed for the strong score.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.strong_score", 0.9, "Convergence score when the strong band decides.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.moderate_distance", 0.20, "Convergence: a pair below this distance counts as moderate.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.moderate_share", 0.40, "Convergence: share of moderate pairs to exceed.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.moderate_score", 0.7, "Convergence score when the moderate band decides.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.weak_distance", 0.25, "Convergence: a pair below this distance counts as weak.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.weak_share", 0.20, "Convergence: share of weak pairs to exceed.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.weak_score", 0.4, "Convergence score when the weak band decides.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.base_score", 0.1, "Convergence score when no band decides.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.simple_tier_adjustment", 0.3,
            "Subtracted from the convergence score of tiers 1-2 (simple bugs converge naturally).",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.complex_tier_adjustment", 0.2,
            "Added to the convergence score of tiers 4-5 (complex bugs should not converge).",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.investigate_above", 0.6, "Convergence score above which the challenge is investigated.",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.copy_distance", 0.05,
            "Two solving patches closer than this are close copies (the copy-pair test counts them).",
            validate=unit_interval, group="detection"),
    Setting("detection.convergence.copy_measure", "verbatim",
            "What makes two solving patches close copies for the copy-pair test: 'verbatim' – the same added text "
            "(comments and names included, layout ignored); 'normal_form' – closer than the copy distance once "
            "normalised (catches disguised copies, but independent solvers of a simple bug converge there too).",
            choices=("verbatim", "normal_form"), group="detection"),
    Setting("detection.convergence.copy_min_challenges", 2,
            "Challenges on which two competitors must be close copies before the copy-pair test is made.",
            validate=positive_int, group="detection"),
    Setting("detection.convergence.copy_alpha", 0.01,
            "Chance (for independent solvers, estimated from the bout) below which two competitors close on "
            "several challenges are a copy pair and flagged.", validate=unit_interval, group="detection"),
    # Solve-rate anomaly.
    *_BANDS,
    Setting("detection.anomaly.investigate_pp", 20.0, "Solve rate above the expected rate by more than this many "
            "percentage points: investigate.", validate=non_negative_number, group="detection"),
    Setting("detection.anomaly.quarantine_pp", 35.0, "Solve rate above the expected rate by more than this many "
            "percentage points: quarantine.", validate=non_negative_number, group="detection"),
    Setting("detection.anomaly.min_attempts", 5, "Agents that must have attempted a challenge before its solve rate "
            "is judged.", validate=positive_int, group="detection"),
    Setting("detection.anomaly.min_calibration_attempts", 50, "Attempts of a tier in past closed bouts needed before "
            "the measured rate replaces the spec band.", validate=positive_int, group="detection"),
    Setting("detection.anomaly.calibration_days", 90, "Window of past closed bouts the calibrated rate is measured on.",
            validate=positive_int, group="detection"),
    # Temporal clustering.
    Setting("detection.temporal.null", "starts",
            "What solves are compared with: 'starts' keeps each solver's attempt start and re-pairs the challenge's "
            "own solve durations (immune to late starters and easy challenges); 'bout' draws from the arrivals of "
            "every challenge of the bout.", choices=("starts", "bout"), group="detection"),
    Setting("detection.temporal.share", 0.5, "Share of a challenge's solves the narrowest window must hold ('most').",
            validate=unit_interval, group="detection"),
    Setting("detection.temporal.min_solves", 3, "Solves a challenge needs before its timing is tested.",
            validate=positive_int, group="detection"),
    Setting("detection.temporal.permutations", 2000, "Random draws of the permutation test.",
            validate=positive_int, group="detection"),
    Setting("detection.temporal.alpha", 0.01, "Permutation p-value below which a challenge's solves are clustered.",
            validate=unit_interval, group="detection"),
    # Provenance.
    Setting("detection.provenance.min_share", 0.3, "Share of a snippet's fingerprints a source must hold to match.",
            validate=unit_interval, group="detection"),
    Setting("detection.provenance.min_fingerprints", 3, "Fingerprints a source must share with a snippet to match.",
            validate=positive_int, group="detection"),
    Setting("detection.provenance.max_sources", 20, "A fingerprint held by more sources is boilerplate and ignored.",
            validate=positive_int, group="detection"),
    Setting("detection.provenance.investigate_share", 0.5, "A solving patch holding at least this share of one "
            "indexed public source's fingerprints is investigated.", validate=unit_interval, group="detection"),
    Setting("detection.provenance.web_backend", "", "Web-search backend asked for solution snippets (empty: off). "
            "Only operators who have one set this.", group="detection"),
    # Trends.
    Setting("detection.trends.rising_months", 3, "Consecutive rising months of contamination score that retire a "
            "template.", validate=positive_int, group="detection"),
    Setting("detection.trends.min_rise", 0.0, "A month counts as rising only above the previous by more than this.",
            validate=non_negative_number, group="detection"),
    Setting("detection.trends.min_samples", 5, "Scored submissions a month needs before it has a score.",
            validate=positive_int, group="detection"),
)


def convergence_params() -> ConvergenceParams:
    c = config_values("detection.convergence.")
    return ConvergenceParams(
        bands=tuple(Band(name, c[f"{name}_distance"], c[f"{name}_share"], c[f"{name}_score"])
                    for name in ("strong", "moderate", "weak")),
        base_score=c["base_score"], simple_adjustment=-c["simple_tier_adjustment"],
        complex_adjustment=c["complex_tier_adjustment"], investigate_above=c["investigate_above"],
    )


def copy_params() -> CopyParams:
    c = config_values("detection.convergence.")
    measure = "verbatim" if c["copy_measure"] == "verbatim" else "distance"
    return CopyParams(distance=c["copy_distance"], min_challenges=c["copy_min_challenges"], alpha=c["copy_alpha"],
                      measure=measure)


def anomaly_params() -> AnomalyParams:
    a = config_values("detection.anomaly.")
    return AnomalyParams(
        tier_bands={tier: (a[f"tier{tier}_low"], a[f"tier{tier}_high"]) for tier in SPEC_TIER_BANDS},
        investigate_pp=a["investigate_pp"], quarantine_pp=a["quarantine_pp"], min_attempts=a["min_attempts"],
        min_calibration_attempts=a["min_calibration_attempts"],
    )


def cluster_params() -> ClusterParams:
    t = config_values("detection.temporal.")
    return ClusterParams(share=t["share"], min_solves=t["min_solves"], permutations=t["permutations"],
                         alpha=t["alpha"])


def provenance_params() -> ProvenanceParams:
    p = config_values("detection.provenance.")
    return ProvenanceParams(max_sources=p["max_sources"], min_fingerprints=p["min_fingerprints"],
                            min_share=p["min_share"])


def trend_params() -> TrendParams:
    t = config_values("detection.trends.")
    return TrendParams(rising_months=t["rising_months"], min_rise=t["min_rise"], min_samples=t["min_samples"])
