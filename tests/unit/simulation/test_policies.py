import random

import pytest

from simulation import policies
from tests.instance_factory import GOLD_PATCH


def test_population_has_every_kind_and_a_ring():
    kinds = policies.population(8)
    assert set(kinds) == set(policies.KINDS)
    assert kinds.count("copy_ring") == 2 and kinds.count("honest") == 3
    assert policies.population(2) == ["honest", "memoriser"]


@pytest.mark.parametrize("kind", policies.KINDS)
def test_plans_are_scaled_and_well_formed(kind):
    steps = policies.plan(kind, tier=3, rng=random.Random(1), time_scale=0.01)
    assert steps and all(step.delay >= 0 for step in steps)
    assert {s.patch for s in steps} <= {"gold", "alternative", "canary", "wrong", "noop", "ring"}


def test_memoriser_is_fast_and_honest_is_slower():
    rng = random.Random(3)
    fast = [policies.plan("memoriser", tier=4, rng=rng, time_scale=1)[0].delay for _ in range(50)]
    slow = [policies.plan("honest", tier=4, rng=rng, time_scale=1)[0].delay for _ in range(50)]
    assert max(fast) <= 1.0 < min(slow)


def test_mutate_fix_changes_only_an_added_line():
    wrong = policies.mutate_fix(GOLD_PATCH)
    assert wrong != GOLD_PATCH
    changed = [(a, b) for a, b in zip(GOLD_PATCH.splitlines(), wrong.splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and changed[0][0].startswith("+")


def test_vary_keeps_the_patch_applicable_but_distinct():
    a, b = policies.vary(GOLD_PATCH, 1), policies.vary(GOLD_PATCH, 2)
    assert len({GOLD_PATCH, a, b}) == 3
    assert [line.rstrip() for line in a.splitlines()] == [line.rstrip() for line in GOLD_PATCH.splitlines()]


def test_personalise_adds_an_own_comment_and_keeps_the_patch_well_formed():
    written = {policies.personalise(GOLD_PATCH, random.Random(seed)) for seed in range(40)}
    assert GOLD_PATCH in written and len(written) > 10  # some write no comment; the rest differ
    for patch in written - {GOLD_PATCH}:
        added = [line for line in patch.splitlines() if line.startswith("+") and not line.startswith("+++")]
        assert added[0].lstrip("+").lstrip().startswith("# ")
        header = next(line for line in patch.splitlines() if line.startswith("@@"))
        new_count = int(header.split("+")[1].split(" ")[0].split(",")[1])
        body = [line for line in patch.splitlines()[patch.splitlines().index(header) + 1:]]
        assert new_count == sum(1 for line in body if not line.startswith("-"))


def test_traces_are_in_the_api_format_and_tell_the_kinds_apart():
    from detection.trace import trace_debugging_findings, trace_parse

    patch = "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-a\n+b\n"
    assert policies.patch_paths(patch) == ["src/app.py"]
    rng = random.Random(3)
    memorised = trace_debugging_findings(trace_parse(policies.trace("memoriser", paths=["src/app.py"], rng=rng)))
    assert memorised.no_test and memorised.edit_before_read and memorised.straight_line
    honest = [policies.trace("honest", paths=["src/app.py"], rng=rng) for _ in range(20)]
    assert None in honest  # some honest agents report nothing
    for steps in filter(None, honest):
        findings = trace_debugging_findings(trace_parse(steps))
        assert not (findings.no_test or findings.edit_before_read or findings.straight_line)
