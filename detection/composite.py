"""The composite contamination score (spec 003 "Real-Time Detection"), pure.

``contamination_score = sum(weight × value)`` over the signals whose value is known; an
unknown signal adds nothing and the composite says so, with the most it could have added
(``upper``). Thresholds: above ``quarantine`` → quarantine, above ``flag`` → flag, above
``log`` → log. A signal's own trigger (the spec's "Trigger" column: a solve under 10 % of
the median, a strong canonical match, a canary fix) raises the action to at least that
level; the reason names what decided it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from detection.signals.base import SignalResult, action_rank


@dataclass(frozen=True)
class Composite:
    value: float | None
    upper: float
    action: str
    components: dict[str, Any]
    reason: str


def threshold_action(value: float | None, *, quarantine: float, flag: float, log: float) -> str:
    if value is None:
        return "none"
    if value > quarantine:
        return "quarantine"
    if value > flag:
        return "flag"
    if value > log:
        return "log"
    return "none"


def composite_score(results: dict[str, SignalResult], weights: dict[str, float], *, quarantine: float, flag: float,
                    log: float) -> Composite:
    components: dict[str, Any] = {}
    total = 0.0
    unknown_weight = 0.0
    known = 0
    for key in sorted(results):
        result, weight = results[key], weights.get(key, 0.0)
        contribution = None if result.value is None else round(weight * result.value, 4)
        components[key] = {"value": result.value, "weight": weight, "contribution": contribution,
                           "trigger": result.trigger}
        if result.value is None:
            unknown_weight += weight
        else:
            known += 1
            total += weight * result.value
    value = round(min(1.0, total), 4) if known else None
    upper = round(min(1.0, total + unknown_weight), 4)
    by_threshold = threshold_action(value, quarantine=quarantine, flag=flag, log=log)
    action, why = by_threshold, []
    if value is None:
        why.append("no signal could be computed")
    else:
        line = {"quarantine": f"> {quarantine}", "flag": f"> {flag}", "log": f"> {log}"}.get(by_threshold,
                                                                                          f"<= {log}")
        parts = ", ".join(f"{k} {c['contribution']:.2f}" for k, c in components.items()
                          if c["contribution"])
        why.append(f"composite {value:.2f} ({parts or 'no signal above 0'}) {line}: {by_threshold}")
    for key, result in sorted(results.items()):
        if action_rank(result.trigger) > action_rank(action):
            action = result.trigger
        if result.trigger != "none":
            why.append(f"{key} demands {result.trigger}: {result.trigger_reason or result.reason}")
    unknown = [k for k, r in sorted(results.items()) if r.value is None]
    if unknown:
        why.append(f"unknown: {', '.join(unknown)} (could add up to {unknown_weight:.2f})")
    components["_thresholds"] = {"quarantine": quarantine, "flag": flag, "log": log}
    return Composite(value, upper, action, components, "; ".join(why) + ".")
