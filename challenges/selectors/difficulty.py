"""Reads of measured difficulty per instance: what each tier's instances measure (size,
causal distance, grep rank), shown next to the measured solve rates."""

from __future__ import annotations

from typing import Any

from challenges.engine.difficulty import summarise
from challenges.models import ChallengeInstance


def instance_difficulty_by_tier() -> dict[int, dict[str, Any]]:
    """Per tier, the mean and median profile of its measured instances (rejected ones left out),
    with how many fall below the tier's floor. Tiers without a measured instance are absent."""
    rows = (ChallengeInstance.objects.exclude(state=ChallengeInstance.State.REJECTED)
            .exclude(difficulty_profile={}).values_list("tier", "difficulty_profile"))
    by_tier: dict[int, list[dict[str, Any]]] = {}
    for tier, profile in rows:
        by_tier.setdefault(tier, []).append(profile)
    return {tier: summarise(records) for tier, records in sorted(by_tier.items())}
