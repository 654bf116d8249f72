"""Reads behind a generation run's live progress page: what it has done so far, pass by pass."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.utils import timezone

from challenges.models import ContributorName, GenerationAttempt, GenerationRun
from core import formatting

#: Passes shown on the progress page, newest first.
RECENT_PASSES = 20


def generation_run_progress(*, run: GenerationRun) -> dict[str, Any]:
    """The run's state and counts, its passes by outcome and the latest passes with their reasons
    (plain JSON: the admin page polls it while the run is queued or running)."""
    run.refresh_from_db()
    outcomes = dict(run.attempts.values_list("outcome").annotate(n=Count("pk")))
    passes = list(run.attempts.select_related("template", "instance").order_by("-created_at", "-pk")[:RECENT_PASSES])
    labels = dict(GenerationAttempt.Outcome.choices)
    end = run.finished_at or timezone.now()
    flagged = outcomes.get(GenerationAttempt.Outcome.FLAGGED, 0)
    return {
        "id": run.pk,
        "state": run.state,
        "state_label": run.get_state_display(),
        "finished": run.state in (GenerationRun.State.DONE, GenerationRun.State.FAILED),
        "count": run.count,
        "released": run.released,
        "flagged": flagged,
        "passes": sum(outcomes.values()),
        "percent": round(100 * min(run.count, run.released + flagged) / run.count) if run.count else 100,
        "summary": (f"{run.released} of {formatting.plural(run.count, 'instance')} released"
                    + (f", {flagged} waiting for review" if flagged else "")
                    + f" after {formatting.plural(sum(outcomes.values()), 'pass', 'passes')}"),
        "outcomes": [{"outcome": key, "label": labels.get(key, key), "count": n} for key, n in sorted(outcomes.items())],
        "message": run.message,
        "elapsed": formatting.duration((end - run.created_at).total_seconds()),
        "created_at": formatting.when(run.created_at, seconds=True),
        "finished_at": formatting.when(run.finished_at, seconds=True) if run.finished_at else None,
        "recent": [
            {"at": formatting.when(a.created_at, seconds=True), "template": a.template.slug, "language": formatting.language(a.language),
             "outcome": a.outcome, "label": labels.get(a.outcome, a.outcome), "reason": a.reason[:600],
             "seconds": formatting.duration(a.seconds),
             "instance": str(a.instance.public_id)[:8] if a.instance_id else None}
            for a in passes
        ],
    }


def contributor_names_used() -> tuple[frozenset[str], frozenset[str]]:
    """The registry of contributor names other projects use: (full names, lower-case surnames)."""
    rows = list(ContributorName.objects.values_list("full_name", "surname"))
    return frozenset(name for name, _ in rows), frozenset(surname for _, surname in rows)
