"""Fingerprint builders shared by the novelty tests."""

from __future__ import annotations

from typing import Any

from challenges.novelty.fingerprint import Fingerprint

BASE: dict[str, Any] = {
    "bug_type": "off-by-one in loop bound",
    "bug_location": "data-processing-pipeline",
    "architecture": "event-driven-microservice",
    "domain": "healthcare-billing",
    "tech_stack": ["python", "fastapi", "postgres"],
    "solution_approach": "fix-boundary-condition",
    "complexity_tier": 3,
    "red_herring_types": ["misleading-log", "unrelated-test-failure"],
    "key_concepts": ["pagination", "cursor-based", "async"],
}


def fp_dict(**overrides: Any) -> dict[str, Any]:
    data = dict(BASE)
    data.update(overrides)
    return data


def fp(**overrides: Any) -> Fingerprint:
    return Fingerprint.from_dict(fp_dict(**overrides))
