"""Skips debugging steps: read from the submitted trace (see ``detection.trace``)."""

from __future__ import annotations

from detection.signals.base import Signal, SignalResult, SubmissionFacts, register
from detection.trace import TraceInvalid, trace_debugging_findings, trace_parse

PATTERNS = (
    ("no_test", "trace.no_test_weight", "no test run"),
    ("edit_before_read", "trace.edit_before_read_weight", "an edit before any read or run of the code involved"),
    ("straight_line", "trace.straight_line_weight", "a straight line to the fault with no exploration"),
)


@register("skips_debugging")
class SkipsDebugging(Signal):
    title = "Skips debugging steps"
    description = ("From the submitted trace: edits before any read or run of the code involved, no test run, "
                   "a straight line to the fault with no exploration. A missing or free-form trace is unknown.")

    def evaluate(self, facts: SubmissionFacts, settings: dict) -> SignalResult:
        if facts.trace is None:
            return SignalResult(None, {"trace": "missing"}, "No trace was submitted: unknown.")
        try:
            steps = trace_parse(facts.trace)
        except TraceInvalid as exc:  # stored before the format was enforced
            return SignalResult(None, {"trace": "invalid", "error": exc.message}, f"Invalid trace: {exc.message}")
        if not steps:
            return SignalResult(None, {"trace": "free-form"}, "The trace has no steps in the documented format: "
                                                              "unknown.")
        findings = trace_debugging_findings(steps)
        weights = {name: settings[key] for name, key, _ in PATTERNS}
        total = sum(weights.values()) or 1.0
        shown = [label for name, _, label in PATTERNS if getattr(findings, name)]
        value = round(sum(w for name, w in weights.items() if getattr(findings, name)) / total, 4)
        evidence = {**findings.as_dict(), "weights": weights}
        if not shown:
            return SignalResult(value, evidence, f"The trace of {findings.steps} steps reads, explores and tests "
                                                 "before it submits.")
        return SignalResult(min(1.0, value), evidence,
                            f"The trace of {findings.steps} steps shows " + "; ".join(shown) + ".")
