"""The structured fingerprint of spec 003 Strategy 2 (compared by the Django dedup service)."""

from __future__ import annotations

from typing import Any

from challenges.engine.draw import Draw
from challenges.engine.ir import Blueprint
from challenges.engine.model import TemplateSpec

FINGERPRINT_FIELDS: tuple[str, ...] = (
    "bug_type", "bug_location", "architecture", "domain", "tech_stack",
    "solution_approach", "complexity_tier", "red_herring_types", "key_concepts",
)


def build_fingerprint(
    spec: TemplateSpec, draw: Draw, blueprint: Blueprint, domain: str, tech_stack: tuple[str, ...]
) -> dict[str, Any]:
    return {
        "bug_type": spec.bug_type,
        "bug_location": f"{blueprint.bug.location}@{draw.bug_level}",
        "architecture": f"{spec.architecture}/{draw.structure}/{draw.style}",
        "domain": domain,
        "tech_stack": list(tech_stack),
        "solution_approach": spec.solution_approach,
        "complexity_tier": spec.tier,
        "red_herring_types": sorted(draw.red_herrings),
        "key_concepts": sorted(set(spec.key_concepts) | {draw.bug_level, draw.style}),
    }


def fingerprint(instance: Any) -> dict[str, Any]:
    """The fingerprint dict of a ``GeneratedInstance`` (fields: ``FINGERPRINT_FIELDS``)."""
    return dict(instance.fingerprint)
