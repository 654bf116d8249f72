"""Builders for metric tests: generation draws and instances inside a chosen period."""

from __future__ import annotations

from datetime import datetime

from challenges.models import ChallengeTemplate, GenerationAttempt
from tests.integration.novelty import helpers as nh


def draws(template: ChallengeTemplate, at: datetime, **outcomes: int) -> list[GenerationAttempt]:
    """``outcome=count`` generation attempts recorded at ``at``."""
    made = []
    for outcome, count in outcomes.items():
        for _ in range(count):
            row = GenerationAttempt.objects.create(template=template, language="python", outcome=outcome, reason="t")
            GenerationAttempt.objects.filter(pk=row.pk).update(created_at=at)
            made.append(row)
    return made


def instance_at(at: datetime, *, uniqueness: float, released: bool = True, **fields):
    return nh.instance(created_at=at, released_at=at if released else None, uniqueness=uniqueness,
                       state="released" if released else "generated", **fields)
