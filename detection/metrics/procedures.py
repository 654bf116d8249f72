"""The operating procedures of spec 003 as checklist definitions (Django-free).

Each cadence lists its items in the spec's order. An item with an ``automatic`` check key
is verified by the platform (``detection.services.procedures`` holds one function per
key) and carries the evidence it found; the others are signed off by a named staff member
with a note. Evidence may still be attached to a manual item (the spot-check sample, the
new corpus entries) so the person signing has what they need on the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from detection.metrics.periods import DAY, MONTH, QUARTER, WEEK

DAILY = "daily"
WEEKLY = "weekly"
MONTHLY = "monthly"
QUARTERLY = "quarterly"
CADENCE_PERIOD = {DAILY: DAY, WEEKLY: WEEK, MONTHLY: MONTH, QUARTERLY: QUARTER}


@dataclass(frozen=True)
class Step:
    key: str
    title: str
    guidance: str
    automatic: bool = False


PROCEDURES: dict[str, tuple[Step, ...]] = {
    DAILY: (
        Step("monitor_dashboard", "Monitor the real-time contamination dashboard",
             "Open the integrity dashboard; note anything unusual in the signals of the last 24 hours."),
        Step("review_level2_flags", "Review Level 2+ flags from the previous 24 hours",
             "Checked automatically: no open Level 2+ case is past its review deadline; the evidence lists the "
             "open ones of the last day.",
             automatic=True),
        Step("dedup_healthy", "Verify the fingerprint deduplication service is healthy",
             "Checked automatically: the dedup index answers a probe within its time budget and no "
             "fingerprint review has waited longer than a day.", automatic=True),
        Step("generation_success", "Check the generation pipeline success rate",
             "Checked automatically: the regeneration rate of the last 24 hours is within its target.",
             automatic=True),
    ),
    WEEKLY: (
        Step("publish_report", "Publish the weekly contamination report (primary metrics)",
             "Checked automatically: the previous week's report has been generated.", automatic=True),
        Step("canary_effectiveness", "Review canary effectiveness data",
             "Read the canary section of the weekly report; note templates whose canaries never trigger."),
        Step("corpus_audit", "Audit new entries in the known contamination corpus",
             "The evidence lists the entries added this week; confirm each is well-formed and in scope."),
        Step("spot_check", "Spot-check 5 random challenge instances for quality",
             "The evidence names five instances drawn at random from this week's releases; read each "
             "statement and workspace and sign off with what you found."),
    ),
    MONTHLY: (
        Step("trend_analysis", "Full trend analysis (secondary metrics)",
             "Checked automatically: the previous month's trend report has been generated.", automatic=True),
        Step("template_health", "Template health review",
             "Which templates are aging out: read the template health table of the monthly report."),
        Step("false_negative_estimate", "False negative estimation (sample-based audit)",
             "Audit a sample of unflagged solves; record the estimate in the note."),
        Step("corpus_update", "Update the contamination corpus with new public content",
             "Add new public content to the corpus; the evidence counts the entries added this month."),
    ),
    QUARTERLY: (
        Step("red_team", "Red team exercise", "Run the calibration exercise and attach its figures in the note."),
        Step("threshold_recalibration", "Threshold recalibration",
             "Review the proposed thresholds against the period's false-positive and false-negative outcomes."),
        Step("template_refresh", "Template pool refresh (retire 20 %, introduce 20 %)",
             "Checked automatically: a template pool refresh ran this quarter; the evidence lists each active "
             "template's measured solve rate against its tier's band and what the refresh did about it.",
             automatic=True),
        Step("solve_time_recalibration", "Solve time distribution recalibration",
             "Checked automatically: the platform proposes each tier's timing lines from the period's honest "
             "solves (the evidence is the proposal); it passes once staff accept or reject the proposal with a "
             "reason, or when no tier has a change to make.", automatic=True),
        Step("strategy_review", "Strategy effectiveness review",
             "Review which of the five strategies caught what this quarter."),
    ),
}


def steps(cadence: str) -> tuple[Step, ...]:
    return PROCEDURES[cadence]
