"""Reads of the post-bout batch: a run's report as the command and the admin show it."""

from __future__ import annotations

from typing import Any

from detection.models import BatchRun


def batch_run_report(*, run: BatchRun, with_pairs: bool = False) -> dict[str, Any]:
    """Everything a run found, per challenge (staff only: it names agents and signals)."""
    challenges = []
    for result in run.results.select_related("challenge__instance__template").order_by("challenge__position"):
        entry = {
            "challenge": result.challenge.handle, "position": result.challenge.position,
            "template": result.challenge.instance.template.slug, "tier": result.challenge.instance.tier,
            "solving": result.solving, "convergence": result.convergence, "anomaly": result.anomaly,
            "temporal": result.temporal, "provenance": result.provenance, "cases": result.actions,
            "closest": [{k: v for k, v in pair.items() if k != "normal_form_diff"} for pair in result.closest],
        }
        if with_pairs:
            entry["pairs"] = result.pairs
            entry["closest"] = result.closest
        challenges.append(entry)
    return {"run": run.pk, "bout": run.bout.handle, "state": run.state, "trigger": run.trigger,
            "progress": {"done": run.done, "total": run.total}, "summary": run.summary, "error": run.error,
            "challenges": challenges}
