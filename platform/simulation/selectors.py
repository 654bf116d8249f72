"""How detection did on a simulated bout: the declared kinds (ground truth, known only
here) against what the detectors found. Detection never reads this app; this reads
detection's rows afterwards, to score it."""

from __future__ import annotations

from typing import Any

from detection.models import CompositeScore
from simulation.models import SimulationRun

PLANTED = ("memoriser", "canary_fixer", "copy_ring")
ACCUSING = ("flag", "quarantine")
# Post-bout findings about one agent (a copy pair, pasted public code); the others
# (solve-rate anomaly, temporal clustering, a converged challenge) are about a challenge.
AGENT_LEVEL_BATCH = ("convergence", "provenance")


def simulation_detection_outcome(*, run: SimulationRun) -> dict[str, Any]:
    """Per simulated agent: flagged or not, and by which signals. An agent is flagged when
    a submission of its own is flagged (or quarantined) by the real-time composite or by an
    agent-level post-bout finding; a challenge-level finding that touches every solver of
    a challenge is listed but accuses nobody."""
    agents = []
    for simulated in run.agents.select_related("agent").order_by("agent_id"):
        caught, context = set(), set()
        composites = CompositeScore.objects.filter(submission__agent=simulated.agent,
                                                   submission__attempt__challenge__bout=run.bout)
        for composite in composites:
            components = composite.components or {}
            realtime = components.get("realtime_action", composite.action if "post_bout" not in components
                                      else "none")
            if realtime in ACCUSING:
                triggered = [k for k, c in components.items() if isinstance(c, dict) and c.get("trigger") in ACCUSING]
                caught.update(f"realtime:{k}" for k in triggered or ["composite"])
            for kind, taken in (components.get("post_bout") or {}).items():
                if taken in ACCUSING:
                    (caught if kind in AGENT_LEVEL_BATCH else context).add(f"batch:{kind}")
        agents.append({"agent": simulated.agent_id, "kind": simulated.kind, "flagged": bool(caught),
                       "caught_by": sorted(caught), "challenge_level": sorted(context)})
    by_kind: dict[str, dict[str, int]] = {}
    for row in agents:
        counts = by_kind.setdefault(row["kind"], {"agents": 0, "flagged": 0})
        counts["agents"] += 1
        counts["flagged"] += row["flagged"]
    return {"bout": run.bout.handle, "agents": agents, "by_kind": by_kind}


def detection_rates(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """False-positive rate on honest solvers and detection rate on the planted kinds."""
    total: dict[str, dict[str, int]] = {}
    for outcome in outcomes:
        for kind, counts in outcome["by_kind"].items():
            into = total.setdefault(kind, {"agents": 0, "flagged": 0})
            into["agents"] += counts["agents"]
            into["flagged"] += counts["flagged"]
    honest = total.get("honest", {"agents": 0, "flagged": 0})
    planted = [total[k] for k in PLANTED if k in total]
    planted_agents = sum(c["agents"] for c in planted)
    return {
        "honest_false_positive_rate": honest["flagged"] / honest["agents"] if honest["agents"] else None,
        "planted_detection_rate": (sum(c["flagged"] for c in planted) / planted_agents) if planted_agents else None,
        "by_kind": {k: {**c, "rate": round(c["flagged"] / c["agents"], 4) if c["agents"] else None}
                    for k, c in sorted(total.items())},
    }
