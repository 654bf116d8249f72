"""Each release gate, shown passing on a real instance and failing on a case built to fail it."""

from __future__ import annotations

import dataclasses
import re

import pytest

from challenges.engine import validate
from challenges.engine.history import Snapshot, build_history, schedule
from challenges.engine.instance import CanaryRecord, FixRecord
from challenges.engine.model import Template, TemplateSpec
from tests.unit.engine.conftest import make_instance


@pytest.fixture(scope="module")
def inst():
    instance = make_instance("paged-listing-cache", "python", 1)
    # Tier 4: no visible test may fail because of the bug, so no misleading-test herring is drawn.
    assert instance.draw.bug_level == "orchestrator" and "misleading-test" not in instance.draw.red_herrings
    return instance


@pytest.fixture(scope="module")
def low_tier():
    instance = make_instance("booking-ledger", "python", 0)
    assert instance.tier == 1 and "misleading-test" in instance.draw.red_herrings
    return instance


@pytest.fixture(scope="module")
def report(inst):
    return validate(inst)


def test_a_generated_instance_passes_every_gate(report):
    assert report.passed, report.summary()
    assert [r.name for r in report.results] == ["history", "oracle", "canaries", "mutation", "visible", "static",
                                              "realism", "statement", "hints"]
    oracle = report.gate("oracle").details
    assert oracle["fail_to_pass"] and oracle["pass_to_pass"]
    assert report.gate("mutation").details["score"] >= 0.9
    assert report.gate("visible").details["failing_on_shipped"] == []
    assert report.gate("statement").details["statement_precision"] == "symptom"
    assert report.gate("hints").details["checked"] is True
    assert report.to_dict()["passed"] is True


def test_history_that_reveals_the_fix_fails(inst):
    leaky = [Snapshot("Initial import", {**inst.files, **inst.gold.files}), Snapshot("Refactor", dict(inst.files))]
    history = build_history(leaky, schedule(2, seed=1, time_base=1_700_000_000, project="x"))
    result = validate(dataclasses.replace(inst, history=history))
    gate = result.gate("history")
    assert not gate.passed and "gold-fixed region appears in history" in " ".join(gate.reasons)


def test_history_holding_a_fixed_line_in_other_surroundings_fails(inst):
    path = inst.gold_region.path
    fixed = inst.gold.files[path].splitlines(keepends=True)
    first, _last = inst.gold_region.lines
    # An earlier version whose neighbourhood differs (a comment moved in above the fix).
    earlier = "".join(fixed[: first] + ["        # keep listings in step\n"] + fixed[first:])
    snapshots = [Snapshot("Initial import", {**inst.files, path: earlier}), Snapshot("Refactor", dict(inst.files))]
    history = build_history(snapshots, schedule(2, seed=3, time_base=1_700_000_000, project="x"))
    gate = validate(dataclasses.replace(inst, history=history)).gate("history")
    assert not gate.passed and "contains a line of the gold fix" in " ".join(gate.reasons)


def test_bolt_on_fix_fails_the_history_gate(inst):
    bolt = FixRecord("gold", "new module", "diff --git a/extra/hotfix.py b/extra/hotfix.py\n", {"extra/hotfix.py": "x = 1\n"})
    gate = validate(dataclasses.replace(inst, gold=dataclasses.replace(inst.gold, patch=bolt.patch))).gate("history")
    assert not gate.passed and "bolt-on" in " ".join(gate.reasons)


def test_staging_markers_fail_the_history_gate(inst):
    path = inst.source_paths[0]
    marked = {**inst.files, path: inst.files[path] + "# FIXME: the cache\n"}
    gate = validate(dataclasses.replace(inst, files=marked)).gate("history")
    assert not gate.passed and "FIXME" in " ".join(gate.reasons)


def test_oracle_without_fail_to_pass_fails(inst):
    already_fixed = {**inst.files, **inst.gold.files}
    gate = validate(dataclasses.replace(inst, files=already_fixed)).gate("oracle")
    assert not gate.passed and "no fail-to-pass" in " ".join(gate.reasons)


def test_oracle_that_rejects_an_alternative_fix_fails(inst):
    fake = dataclasses.replace(inst.alternatives[0], files={p: inst.files[p] for p in inst.gold.files})
    gate = validate(dataclasses.replace(inst, alternatives=[fake, *inst.alternatives[1:]])).gate("oracle")
    assert not gate.passed and "rejects the alternative" in " ".join(gate.reasons)


def _weak_oracle(inst) -> dict[str, str]:
    """Keep only the one test that reproduces the bug (drop every other test method)."""
    path = next(p for p in inst.oracle_tests if "changes" in p)
    out, skipping = [], False
    for line in inst.oracle_files[path].splitlines():
        if line.startswith("class ") and "Handler" in line:
            break
        if line.startswith("    def test_"):
            skipping = not re.match(r"    def test_previous_\w+_drops", line)
        elif line.startswith("    def ") or (line and not line.startswith(" ")):
            skipping = False
        if not skipping:
            out.append(line)
    return {path: "\n".join(out) + "\n"}


def test_oracle_too_weak_to_kill_mutants_fails(inst):
    weak = _weak_oracle(inst)
    gate = validate(dataclasses.replace(inst, oracle_files=weak, oracle_tests=list(weak))).gate("mutation")
    assert not gate.passed
    assert gate.details["survivors"] and gate.details["score"] < 0.9


def test_canary_without_guard_fails(inst):
    unguarded = [dataclasses.replace(inst.canaries[0], guard="test_nothing_guards_this"), *inst.canaries[1:]]
    gate = validate(dataclasses.replace(inst, canaries=unguarded)).gate("canaries")
    assert not gate.passed and "has no guard" in " ".join(gate.reasons)


def test_guard_that_does_not_catch_the_canary_fix_fails(inst):
    canary = inst.canaries[0]
    harmless: CanaryRecord = dataclasses.replace(canary, files={})
    gate = validate(dataclasses.replace(inst, canaries=[harmless, *inst.canaries[1:]])).gate("canaries")
    assert not gate.passed and "still passes" in " ".join(gate.reasons)


def test_unexpected_visible_failure_fails(low_tier):
    gate = validate(dataclasses.replace(low_tier, expected_visible_failures=[])).gate("visible")
    assert not gate.passed and "visible tests fail on shipped code" in " ".join(gate.reasons)


def test_a_visible_test_failing_on_the_bug_is_allowed_below_tier_3_only(low_tier):
    gate = validate(low_tier).gate("visible")
    assert gate.passed and gate.details["failing_on_bug"] == gate.details["failing_on_shipped"] != []
    gate = validate(dataclasses.replace(low_tier, tier=3)).gate("visible")
    assert not gate.passed
    assert "tier 3: visible tests fail because of the bug" in " ".join(gate.reasons)


def test_a_comment_restating_the_broken_rule_fails_the_hint_audit(inst):
    path = inst.gold_region.path
    lines = inst.files[path].splitlines(keepends=True)
    first, _ = inst.gold_region.lines
    indent = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
    hinted = "".join(lines[: first - 1] + [f"{indent}# previous owners must lose their pages too\n"]
                     + lines[first - 1:])
    clean = validate(dataclasses.replace(inst, invariant=("previous owners must lose their pages",)))
    assert clean.gate("hints").passed
    gate = validate(dataclasses.replace(inst, files={**inst.files, path: hinted},
                                        invariant=("previous owners must lose their pages",))).gate("hints")
    assert not gate.passed and "restates the rule it breaks" in gate.reasons[0]
    # Below tier 3 the audit does not apply.
    low = validate(dataclasses.replace(inst, tier=2, files={**inst.files, path: hinted},
                                       invariant=("previous owners must lose their pages",))).gate("hints")
    assert low.passed and low.details["checked"] is False


def test_a_statement_naming_the_faulty_code_fails_from_tier_4(inst):
    region = inst.gold.files[inst.gold_region.path][inst.gold_region.start:inst.gold_region.end]
    ident = next(tok for tok in re.findall(r"[A-Za-z_]+", region) if "_" in tok.strip("_"))
    leaky = inst.statement + f"\nMaybe look at `{ident}`.\n"
    gate = validate(dataclasses.replace(inst, statement=leaky)).gate("statement")
    assert not gate.passed and f"names {ident!r}" in " ".join(gate.reasons)
    assert validate(dataclasses.replace(inst, statement=leaky, tier=3)).gate("statement").passed


def test_lint_error_fails_the_static_gate(inst):
    path = inst.source_paths[0]
    broken = {**inst.files, path: "import os\n" + inst.files[path]}
    gate = validate(dataclasses.replace(inst, files=broken)).gate("static")
    assert not gate.passed and "F401" in " ".join(gate.reasons)


def test_a_patch_that_does_not_reproduce_the_validated_files_fails(inst):
    lines = inst.gold.patch.splitlines(keepends=True)
    added = next(i for i, line in enumerate(lines) if line.startswith("+") and not line.startswith("+++"))
    lines[added] = "+    " + lines[added][1:]  # an agent-facing patch that differs from what was validated
    broken = dataclasses.replace(inst.gold, patch="".join(lines))
    gate = validate(dataclasses.replace(inst, gold=broken)).gate("static")
    assert not gate.passed and "gold patch" in " ".join(gate.reasons)


def test_a_missing_test_file_fails_the_gates_instead_of_crashing(inst):
    ghost = [*inst.oracle_tests, "tests/test_not_there.py"]
    report = validate(dataclasses.replace(inst, oracle_tests=ghost))
    assert not report.passed and not report.gate("oracle").passed
    assert "not there" in " ".join(report.gate("oracle").reasons) or "no fail-to-pass" in " ".join(
        report.gate("oracle").reasons)


# --- Several cooperating faults: each cured alone must leave a hidden test failing. ---

TWO_FAULT_CALC = '''"""Totals and means of {{things}}."""


def total(values):
    """The sum of ``values``."""
    result = 0
    {{[}}
    for index in {{!bound}}:
        result += values[index]
    {{]}}
    return result


def spread(values):
    """The distance between the smallest and the largest value."""
    if not values:
        return 0
    low = high = values[0]
    for value in values[1:]:
        if value < low:
            low = value
        elif value > high:
            high = value
    return high - low


def mean(values):
    """The arithmetic mean of ``values`` (0 for none)."""
    if not values:
        return 0
    {{[}}
    count = {{!count}}
    return total(values) / count
    {{]}}
'''

TWO_FAULT_VISIBLE = '''import unittest

{{imports}}


class TotalTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(total([]), 0)
'''

TWO_FAULT_HIDDEN = '''import unittest

{{imports}}


class TotalRulesTest(unittest.TestCase):
    def test_counts_every_value(self):
        self.assertEqual(total([1, 2, 3]), 6)

    def test_empty(self):
        self.assertEqual(total([]), 0)

    def test_single_value(self):
        self.assertEqual(total([7]), 7)
{{mean_tests}}'''

MEAN_TESTS = '''
    def test_mean(self):
        self.assertEqual(mean([2, 4]), 3)

    def test_mean_of_one(self):
        self.assertEqual(mean([5]), 5)

    def test_mean_of_none(self):
        self.assertEqual(mean([]), 0)
'''


class TwoFaults(Template):
    """Two faults the gold fix cures together: a loop that skips the first value and a
    mean that divides by one too many."""

    spec = TemplateSpec(slug="tiny-two-faults", title="Totals", family="logic-boundary", bug_class="loop bound",
                        bug_type="loop skips the first element", solution_approach="fix-loop-bound", tier=1,
                        languages=("python",), key_concepts=("sum",), architecture="library",
                        structures=("flat",), styles=("functional",), bug_levels=("utility",))
    tweak: dict = {}
    mean_tests = MEAN_TESTS

    def build(self, ctx):
        from challenges.engine.ir import Blueprint, Bug, Feature, Fix, Import, Module, Symptom

        bp = Blueprint(
            package=ctx.project, summary="Totals.",
            modules=[Module("calc", "calc", TWO_FAULT_CALC, role="util", feature="calc")],
            tests=[Module("t", "calc", TWO_FAULT_VISIBLE, test=True, feature="calc",
                          imports=(Import("calc", ("total",)),))],
            oracle=[Module("h", "totals", TWO_FAULT_HIDDEN.replace("{{mean_tests}}", self.mean_tests), test=True,
                           hidden=True, imports=(Import("calc", ("mean", "total")),))],
            sites={"bound": "range(1, len(values))", "count": "len(values) + 1"},
            names={"things": ctx.lex.noun("item", True)},
            bug=Bug("bound", Fix("gold", {"bound": "range(len(values))", "count": "len(values)"}),
                    (Fix("explicit-start", {"bound": "range(0, len(values))", "count": "len(values)"}),
                     Fix("reversed", {"bound": "reversed(range(len(values)))", "count": "len(values) + 0"})),
                    "utility", "The loop skips the first value and the mean divides by one too many.", "calc",
                    symptom=Symptom(title="Averages come out low", action="average a list of amounts",
                                    observed="the result is lower than the amounts allow",
                                    expected="The average should use every amount.",
                                    steps=("Average 2 and 4", "The result is 1.33"), vague="averages are low"),
                    faults=("bound", "count")),
            canaries=[], red_herrings=[], features=[Feature("calc", "Add totals", "Totals.")], settings={},
        )
        for key, value in self.tweak.items():
            setattr(bp, key, value(bp) if callable(value) else value)
        return bp


@pytest.fixture
def two_faults(monkeypatch):
    from challenges.engine import model

    registry = dict(model._REGISTRY)
    registry["tiny-two-faults"] = TwoFaults
    monkeypatch.setattr(model, "_REGISTRY", registry)
    monkeypatch.setattr(TwoFaults, "tweak", {})
    monkeypatch.setattr(TwoFaults, "mean_tests", MEAN_TESTS)
    return TwoFaults


def _two_fault_instance():
    import random

    from challenges.engine import draw, generate
    from tests.unit.engine.lexicon_fixture import LEXICONS

    d = draw("tiny-two-faults", "python", random.Random(1), lexicons=LEXICONS)
    return generate(d, lexicon=next(lex for lex in LEXICONS if lex["key"] == d.lexicon_key))


def test_two_cooperating_faults_get_a_region_and_a_partial_fix_each(two_faults):
    instance = _two_fault_instance()
    calc = instance.gold_region.path
    assert [r.path for r in instance.regions] == [calc, calc]
    texts = [instance.region_text(r) for r in instance.regions]
    assert "for index in range(len(values)):" in texts[0] and "count = len(values)" in texts[1]
    assert [p.label for p in instance.partial_fixes] == ["bound only", "count only"]
    bound_only = instance.partial_fixes[0].files[calc]
    assert "range(len(values))" in bound_only and "len(values) + 1" in bound_only
    assert instance.difficulty["faults"] == 2
    secrets = instance.secrets_dict()
    assert len(secrets["fault_regions"]) == 2 and [p["label"] for p in secrets["partial_fixes"]] == [
        "bound only", "count only"]
    report = validate(instance)
    assert report.passed, report.summary()
    assert report.gate("oracle").details["partial_rejected"] == {"bound only": True, "count only": True}
    # Both regions are mutated: more mutants than the first region alone yields.
    from challenges.sandbox import mutants

    first = instance.regions[0]
    alone = mutants(instance.gold.files[calc], language="python", region=(first.start, first.end))
    assert report.gate("mutation").details["mutants"] > len(alone)


def test_an_oracle_that_accepts_a_partial_fix_is_refused(two_faults):
    # Without the tests of the mean, curing the loop alone passes every hidden test.
    two_faults.mean_tests = ""
    report = validate(_two_fault_instance())
    oracle = report.gate("oracle")
    assert not oracle.passed
    assert oracle.details["partial_rejected"] == {"bound only": False, "count only": True}
    assert any("accept the partial fix 'bound only'" in r for r in oracle.reasons), oracle.reasons
    assert not any("'count only'" in r for r in oracle.reasons)


def test_single_fault_instances_carry_no_partial_fixes(inst):
    assert inst.fault_regions == () and inst.partial_fixes == [] and inst.regions == (inst.gold_region,)
    assert inst.difficulty["faults"] == 1


@pytest.mark.parametrize("faults", [("count",), ("bound", "nowhere"), ("bound", "bound")])
def test_malformed_fault_lists_are_refused(two_faults, faults):
    from challenges.engine import TemplateError

    two_faults.tweak = {"bug": lambda bp: dataclasses.replace(bp.bug, faults=faults)}
    with pytest.raises(TemplateError) as exc:
        _two_fault_instance()
    assert exc.value.code == "blueprint_invalid"


def test_a_fault_the_gold_fix_leaves_alone_is_refused(two_faults):
    from challenges.engine import TemplateError
    from challenges.engine.ir import Fix

    gold = Fix("gold", {"bound": "range(len(values))"})
    two_faults.tweak = {"bug": lambda bp: dataclasses.replace(bp.bug, gold=gold)}
    with pytest.raises(TemplateError) as exc:
        _two_fault_instance()
    assert exc.value.code == "blueprint_invalid" and "'count'" in str(exc.value)


def test_history_showing_the_second_fault_fixed_fails(two_faults):
    instance = _two_fault_instance()
    calc = instance.gold_region.path
    count_only = instance.partial_fixes[1].files[calc]
    leaky = [Snapshot("Initial import", {**instance.files, calc: count_only}), Snapshot("Refactor", dict(instance.files))]
    history = build_history(leaky, schedule(2, seed=1, time_base=1_700_000_000, project="x"))
    gate = validate(dataclasses.replace(instance, history=history)).gate("history")
    second = instance.regions[1]
    assert not gate.passed
    assert any(f"region ({calc} lines {second.lines[0]}-{second.lines[1]}) appears in history" in r
               for r in gate.reasons), gate.reasons


def test_the_hint_audit_covers_every_fault(two_faults):
    from challenges.engine.gates import GateConfig, hint_gate

    instance = dataclasses.replace(_two_fault_instance(), invariant=("one value per item",))
    calc = instance.gold_region.path
    marked = instance.files[calc].replace('(0 for none)."""\n',
                                          '(0 for none)."""\n    # Divide by one value per item.\n', 1)
    assert marked != instance.files[calc]
    hinted = dataclasses.replace(instance, files={**instance.files, calc: marked})
    gate = hint_gate(hinted, GateConfig(hint_tier=1))
    assert not gate.passed and "one value per item" in " ".join(gate.reasons)
    # The comment sits near the second fault only: auditing the first region alone misses it.
    first_only = dataclasses.replace(hinted, fault_regions=(instance.regions[0],))
    assert hint_gate(first_only, GateConfig(hint_tier=1)).passed
    assert hint_gate(instance, GateConfig(hint_tier=1)).passed
