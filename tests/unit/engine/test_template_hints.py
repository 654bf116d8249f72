"""Templates whose comments used to restate the rule their bug breaks declare that rule as
invariant phrases, and no fresh draw carries one near the fault at the tiers the hint audit
covers."""

from __future__ import annotations

import dataclasses
import random

import pytest

from challenges.engine import draw, generate
from challenges.engine.gates import GateConfig, hint_gate
from tests.unit.engine.test_templates import _lexicon, _lexicons

SLUGS = ("buffered-writer", "retrying-client", "order-lifecycle", "job-scheduler", "stock-reservation")
DRAWS = 20


@pytest.mark.parametrize("language", ["python", "javascript"])
@pytest.mark.parametrize("slug", SLUGS)
def test_no_draw_restates_the_broken_rule_near_the_fault(slug, language):
    levels = set()
    for seed in range(DRAWS):
        d = draw(slug, language, random.Random(seed), lexicons=_lexicons())
        instance = generate(d, lexicon=_lexicon(d.lexicon_key))
        assert instance.invariant, f"{slug} {d.bug_level} declares no invariant phrases"
        levels.add(d.bug_level)
        for tier in (3, 4, 5):
            gate = hint_gate(dataclasses.replace(instance, tier=tier), GateConfig())
            assert gate.passed and gate.details["checked"], (seed, tier, gate.reasons)
    assert len(levels) > 1
