"""django-q2 entry point of the post-bout batch (thin: reload by id, call the service)."""

from __future__ import annotations

from detection.services.batch import batch_run_execute


def batch_run_task(run_id: int) -> dict:
    run = batch_run_execute(run_id=run_id)
    return {"run": run.pk, "state": run.state, "done": run.done, "total": run.total}


def template_trends_task() -> dict:
    from detection.services.trends import template_trends_update

    return template_trends_update()


def batch_sweep_task() -> dict:
    from detection.services.batch import batch_runs_recover

    return batch_runs_recover()
