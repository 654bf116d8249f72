"""Canonical match: the changed functions against the canonical-fix library (spec
"Known Pattern Matching"), with spec 001's n-gram overlap against the gold patch beside it."""

from __future__ import annotations

from detection.analysis import AnalysisError, CanonicalParams, OverlapParams, match_patch, patch_overlap
from detection.signals.base import Signal, SignalResult, SubmissionFacts, register


def canonical_value(distance: float, *, strong_below: float, moderate_below: float) -> float:
    """1 for a strong match; 0.5 at the moderate line rising to 1 at the strong line; else 0."""
    if distance < strong_below:
        return 1.0
    if distance < moderate_below:
        span = max(moderate_below - strong_below, 1e-9)
        return round(0.5 + 0.5 * (moderate_below - distance) / span, 4)
    return 0.0


@register("canonical_match")
class CanonicalMatch(Signal):
    title = "Canonical match"
    description = ("Distance from the functions the patch changes to the closest canonical fix of the library "
                   "(textbook fixes of the contamination corpus, memorised fix shapes, staff entries); the n-gram "
                   "overlap with the gold patch is recorded beside it.")

    def evaluate(self, facts: SubmissionFacts, settings: dict) -> SignalResult:
        strong, moderate = settings["canonical.strong_below"], settings["canonical.moderate_below"]
        evidence: dict = {"strong_below": strong, "moderate_below": moderate}
        if facts.gold_patch:
            overlap = patch_overlap(facts.patch, facts.gold_patch, None,
                                    OverlapParams(n=settings["ngram.n"], threshold=settings["ngram.threshold"]))
            evidence["gold_overlap"] = {"overlap": round(overlap.max_overlap, 4), "flagged": overlap.flagged,
                                        "n": overlap.n, "threshold": overlap.threshold}
        library = [e for e in facts.library if e.language == facts.language]
        if not library:
            return SignalResult(None, evidence, f"No canonical fixes in {facts.language}: unknown.")
        try:
            report = match_patch(facts.patch, facts.workspace, facts.language, library,
                                 params=CanonicalParams(strong_below=strong, moderate_below=moderate))
        except AnalysisError as exc:
            evidence["error"] = {"code": exc.code, "message": str(exc)}
            return SignalResult(None, evidence, f"The patch could not be analysed ({exc.code}): unknown.")
        evidence.update(report.as_dict(top=3))
        overlap_note = ""
        if "gold_overlap" in evidence:
            overlap_note = f"; {evidence['gold_overlap']['overlap']:.0%} {evidence['gold_overlap']['n']}-gram " \
                           "overlap with the gold patch"
        best = report.best
        if best is None or not report.functions:
            return SignalResult(None, evidence, f"The patch changes no function that can be compared: unknown"
                                                f"{overlap_note}.")
        value = canonical_value(best.distance, strong_below=strong, moderate_below=moderate)
        said = f"Closest canonical fix {best.entry!r} ({best.title or best.bug_type}) at distance {best.distance:.3f}"
        if best.distance < strong:
            trigger = "flag" if settings["canonical.flag_on_strong"] else "none"
            return SignalResult(value, evidence, f"{said}: strong match (< {strong}){overlap_note}.", trigger,
                                "strong canonical match" if trigger != "none" else "")
        if best.distance < moderate:
            return SignalResult(value, evidence, f"{said}: moderate match (< {moderate}){overlap_note}.")
        return SignalResult(value, evidence, f"{said}: no match{overlap_note}.")
