"""Canary modified: the patch changes a canary region of the instance (spec strategy 5)."""

from __future__ import annotations

from detection.signals.base import Signal, SignalResult, SubmissionFacts, register


@register("canary_modified")
class CanaryModified(Signal):
    title = "Canary modified"
    description = ("The patch changes code of a canary region (correct code that looks like a well-known bug), "
                   "located by the instance's sealed canary map and mapped through the patch.")

    def evaluate(self, facts: SubmissionFacts, settings: dict) -> SignalResult:
        # Imported here: detection.canaries imports detection.signals.base, so a module-level
        # import makes "import detection.canaries" first (e.g. from the admin) a cycle.
        from detection.canaries import canary_touches

        if not facts.canaries:
            return SignalResult(None, {"canaries": 0}, "The challenge has no canary: unknown.")
        touches = canary_touches(facts.patch, facts.canaries, excerpt_bytes=settings["canary.excerpt_bytes"])
        modified = [t for t in touches if t.modified]
        evidence = {"canaries": len(touches), "touches": [t.as_dict() for t in touches]}
        if not modified:
            return SignalResult(0.0, evidence, f"The patch leaves all {len(touches)} canary region(s) untouched.")
        names = ", ".join(f"{t.canary.name} ({t.canary.path}:{t.canary.lines[0]}-{t.canary.lines[1]})"
                          for t in modified)
        trigger = "flag" if settings["canary.flag_on_modified"] else "none"
        return SignalResult(1.0, evidence, f"The patch modifies canary code: {names}.", trigger,
                            "canary code modified" if trigger != "none" else "")
