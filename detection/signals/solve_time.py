"""Solve time against the tier's measured solve-time distribution (spec "Timing Analysis")."""

from __future__ import annotations

import statistics

from detection.signals.base import Signal, SignalResult, SubmissionFacts, register


def solve_time_value(ratio: float, *, flag_below: float, investigate_below: float) -> float:
    """0 at or above the flag line, 0.5 just under it rising linearly to 1 at the
    investigate line, 1 below it."""
    if ratio >= flag_below:
        return 0.0
    if ratio < investigate_below:
        return 1.0
    span = max(flag_below - investigate_below, 1e-9)
    return round(0.5 + 0.5 * (flag_below - ratio) / span, 4)


def tier_lines(settings: dict, tier: int) -> tuple[float, float]:
    """(flag, investigate) lines of ``tier``: its recalibrated lines where set (non-zero), else the all-tier ones."""
    flag = settings.get(f"solve_time.flag_below_tier{tier}") or settings["solve_time.flag_below"]
    investigate = settings.get(f"solve_time.investigate_below_tier{tier}") or settings["solve_time.investigate_below"]
    return flag, investigate


@register("solve_time")
class SolveTime(Signal):
    title = "Solve time"
    description = ("Server-measured time from attempt start to this submission, as a share of the median solve "
                   "time of the tier (measured from stored solves once enough exist, the spec's prior before).")

    def evaluate(self, facts: SubmissionFacts, settings: dict) -> SignalResult:
        flag_below, investigate_below = tier_lines(settings, facts.tier)
        needed = settings["solve_time.min_samples"]
        measured = facts.tier_solve_times.seconds
        if facts.result != "solved":
            return SignalResult(None, {"result": facts.result}, "Not a solve: solve time is only judged on solves.")
        if len(measured) >= needed:
            median = statistics.median(measured)
            basis = f"the median of {len(measured)} measured solves of tier {facts.tier}"
            source = "measured"
        else:
            median = settings[f"solve_time.prior_minutes_tier{facts.tier}"] * 60.0
            basis = (f"the spec's prior median for tier {facts.tier} ({median / 60:g} min): only {len(measured)} "
                     f"measured solves of this tier, fewer than the {needed} needed to use the measured median")
            source = "prior"
        ratio = facts.solve_seconds / median if median > 0 else 1.0
        value = solve_time_value(ratio, flag_below=flag_below, investigate_below=investigate_below)
        evidence = {
            "solve_seconds": round(facts.solve_seconds, 3), "median_seconds": round(median, 3),
            "ratio": round(ratio, 4), "basis": source, "samples": len(measured), "min_samples": needed,
            "flag_below": flag_below, "investigate_below": investigate_below, "tier": facts.tier,
        }
        said = f"Solved in {facts.solve_seconds:.1f} s, {ratio:.0%} of {basis} ({median:.1f} s)"
        judged = [(seconds, m) for seconds, m in facts.agent_solves if m]
        below = sum(1 for seconds, m in judged if seconds < m) + (1 if ratio < 1 else 0)
        evidence["agent_solves_judged"], evidence["agent_sub_median"] = len(judged) + 1, below
        audit_from = settings["solve_time.agent_audit_solves"]
        if len(judged) + 1 >= audit_from and below == len(judged) + 1:
            evidence["agent_audit"] = True
            said += (f"; every one of the agent's {below} solves in this bout is under its tier's median "
                     "(consistently sub-median: agent-level audit)")
        if ratio < investigate_below:
            trigger = "flag" if settings["solve_time.flag_on_investigate"] and (
                source == "measured" or settings["solve_time.flag_on_prior"]) else "none"
            return SignalResult(value, evidence, f"{said}: under {investigate_below:.0%}, investigate.", trigger,
                                f"solve under {investigate_below:.0%} of the tier median" if trigger != "none" else "")
        if ratio < flag_below:
            return SignalResult(value, evidence, f"{said}: under {flag_below:.0%}, suspicious.")
        return SignalResult(value, evidence, f"{said}: within the expected range.")
