"""Reads over detection records that other parts of the detection app provide.

Until contamination cases are recorded, these return None so callers can say so instead
of reporting zero.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


def open_cases_level2_plus(*, since: datetime) -> list[dict[str, Any]] | None:
    """Open Level 2+ contamination cases opened since ``since``; None when cases are not recorded."""
    return None


def integrity_summary(*, bout=None, season=None) -> dict[str, Any]:
    """The public integrity summary of a bout or season: how many scores are under review and
    how many were invalidated, out of all scores. Counts only: no signal, agent or challenge."""
    from django.db.models import Count, Q

    from competition.models import Score

    if (bout is None) == (season is None):
        raise ValueError("integrity_summary needs a bout or a season")
    scores = Score.objects.filter(challenge__bout=bout) if bout is not None else \
        Score.objects.filter(challenge__bout__season=season)
    counts = scores.aggregate(
        total=Count("pk"), under_review=Count("pk", filter=Q(state=Score.State.UNDER_REVIEW)),
        invalidated=Count("pk", filter=Q(state=Score.State.INVALIDATED)))
    return {**counts, "standing": counts["total"] - counts["under_review"] - counts["invalidated"]}
