"""The tier-5 templates ship two cooperating faults at every level, with a masking fix.

The release gates (``test_templates.py``) prove each partial fix fails the hidden
tests; this checks the instances really carry two faults, so a template quietly
falling back to one fault is noticed.
"""

from __future__ import annotations

import random

import pytest

from challenges.engine import draw, generate, registry
from tests.unit.engine.test_templates import _lexicons

TWO_FAULT_TEMPLATES = ("connection-pool", "event-dedup-pipeline")


def _per_level(slug: str, language: str):
    lexicons = _lexicons()
    wanted = list(registry()[slug].spec.bug_levels)
    for seed in range(500):
        d = draw(slug, language, random.Random(seed), lexicons=lexicons)
        if d.bug_level in wanted:
            wanted.remove(d.bug_level)
            yield d
        if not wanted:
            return


@pytest.mark.parametrize("language", ["python", "javascript"])
@pytest.mark.parametrize("slug", TWO_FAULT_TEMPLATES)
def test_every_level_carries_two_faults_and_a_masking_fix(slug, language):
    levels = []
    for d in _per_level(slug, language):
        instance = generate(d)
        levels.append(d.bug_level)
        assert instance.tier == 5 and instance.difficulty["faults"] == 2
        assert len(instance.regions) == 2 and instance.regions[0] == instance.gold_region
        assert len(instance.partial_fixes) == 2
        fixed = {**instance.files, **instance.gold.files}
        for partial in instance.partial_fixes:
            # A partial fix cures one fault: the workspace changes, but not into the gold code.
            assert set(partial.files) <= set(instance.gold.files)
            patched = {**instance.files, **partial.files}
            assert patched != instance.files and patched != fixed
        assert instance.masking is not None and instance.masking.patch != instance.gold.patch
        for region in instance.regions:
            assert instance.region_text(region).strip()
    assert sorted(levels) == sorted(registry()[slug].spec.bug_levels)
