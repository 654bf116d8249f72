"""How detection did on a simulated bout: the declared kinds (ground truth, known only
here) against what the detectors found. Detection never reads this app; this reads
detection's rows afterwards, to score it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from competition.models import Submission
from detection.models import CompositeScore
from simulation.models import SimulationRun

PLANTED = ("memoriser", "canary_fixer", "copy_ring")
ACCUSING = ("flag", "quarantine")
# Post-bout findings about one agent (a copy pair, pasted public code); the others
# (solve-rate anomaly, temporal clustering, a converged challenge) are about a challenge.
AGENT_LEVEL_BATCH = ("convergence", "provenance")


def composite_accusation(action: str, components: dict[str, Any]) -> tuple[set[str], set[str]]:
    """What one submission's composite row says about its own agent: the findings that accuse
    it (real-time flag or quarantine, an agent-level post-bout finding) and the challenge-level
    post-bout findings that touch every solver of the challenge and so accuse nobody."""
    caught: set[str] = set()
    context: set[str] = set()
    components = components or {}
    realtime = components.get("realtime_action", action if "post_bout" not in components else "none")
    if realtime in ACCUSING:
        triggered = [k for k, c in components.items() if isinstance(c, dict) and c.get("trigger") in ACCUSING]
        caught.update(f"realtime:{k}" for k in triggered or ["composite"])
    for kind, taken in (components.get("post_bout") or {}).items():
        if taken in ACCUSING:
            (caught if kind in AGENT_LEVEL_BATCH else context).add(f"batch:{kind}")
    return caught, context


def submissions_detected(submission_ids: Iterable[int]) -> dict[int, tuple[set[str], set[str]]]:
    """Per submission that anything touched: ``(caught_by, challenge_level)``.

    The one definition of "detected" for simulated ground truth, read by this app's outcome
    and by detection's metrics (``planted_units``): a submission is detected when its own
    composite accuses its agent (``composite_accusation``) or staff put it in a Level 2+ case
    ("case:staff"); an automatic case about a challenge lists every solver and accuses none.
    """
    from detection.models import ContaminationCase

    ids = list(submission_ids)
    out: dict[int, tuple[set[str], set[str]]] = {}
    for pk, action, components in CompositeScore.objects.filter(submission_id__in=ids).values_list(
            "submission_id", "action", "components"):
        out[pk] = composite_accusation(action, components)
    for pk in ContaminationCase.submissions.through.objects.filter(
            submission_id__in=ids, contaminationcase__level__gte=ContaminationCase.Level.INVESTIGATE,
            contaminationcase__source=ContaminationCase.Source.STAFF).values_list("submission_id", flat=True):
        out.setdefault(pk, (set(), set()))[0].add("case:staff")
    return out


def simulation_detection_outcome(*, run: SimulationRun) -> dict[str, Any]:
    """Per simulated agent: flagged or not, and by which findings (``submissions_detected``);
    a challenge-level finding that touches every solver of a challenge is listed but accuses nobody."""
    agents = []
    for simulated in run.agents.select_related("agent").order_by("agent_id"):
        caught, context = set(), set()
        ids = Submission.objects.filter(agent=simulated.agent, attempt__challenge__bout=run.bout).values_list(
            "pk", flat=True)
        for own, challenge_level in submissions_detected(ids).values():
            caught |= own
            context |= challenge_level
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
