"""django-q2 tasks for challenges: thin, idempotent, each calls one service."""

from __future__ import annotations

from typing import Any


def hall_of_fame_recompute() -> dict[str, Any]:
    from challenges.services.novelty import hall_of_fame_recompute as recompute

    return recompute()


def template_pool_refresh() -> dict[str, Any]:
    from challenges.services.rotation import template_pool_refresh as refresh

    return refresh()


def bug_class_too_easy_review() -> dict[str, Any]:
    from challenges.services.rotation import bug_class_too_easy_review as review

    return review()


def tier_proposals_refresh() -> dict[str, Any]:
    """Daily: compare every template's measured difficulty with its tier's band (idempotent)."""
    from challenges.services.calibration import tier_proposals_refresh as refresh

    return refresh(by=None, actor_label="scheduler")


def generation_run_execute(run_id: int) -> str:
    from challenges.services.generation import generation_run_execute as execute

    run = execute(run_id=run_id)
    return f"{run.released}/{run.count} released ({run.state})"
