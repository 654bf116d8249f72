"""A minimal template exercises the framework end to end and every blueprint check."""

from __future__ import annotations

import dataclasses
import random

import pytest

from challenges.engine import TemplateError, draw, generate, validate
from challenges.engine.ir import Blueprint, Bug, Feature, Fix, Import, Module, Symptom
from challenges.engine.model import Template, TemplateSpec
from tests.unit.engine.lexicon_fixture import LEXICONS

CALC = '''"""Totals of {{things}}."""


def total(values):
    """The sum of ``values``."""
    result = 0
    {{[}}
    for index in {{!bound}}:
        result += values[index]
    {{]}}
    return result


def mean(values):
    return total(values) / len(values) if values else 0
'''

VISIBLE = '''import unittest

{{imports}}


class TotalTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(total([]), 0)
'''

HIDDEN = '''import unittest

{{imports}}


class TotalRulesTest(unittest.TestCase):
    def test_counts_every_value(self):
        self.assertEqual(total([1, 2, 3]), 6)

    def test_empty(self):
        self.assertEqual(total([]), 0)

    def test_mean(self):
        self.assertEqual(mean([0, 4]), 2)
'''


class Tiny(Template):
    spec = TemplateSpec(slug="tiny-total", title="Totals", family="logic-boundary", bug_class="loop bound",
                        bug_type="loop skips the first element", solution_approach="fix-loop-bound", tier=1,
                        languages=("python",), key_concepts=("sum",), architecture="library",
                        structures=("flat",), styles=("functional",), bug_levels=("utility",))
    tweak: dict = {}

    def build(self, ctx):
        modules = [Module("calc", "calc", CALC, role="util", feature="calc")]
        bp = Blueprint(
            package=ctx.project, summary="Totals.", modules=modules,
            tests=[Module("t", "calc", VISIBLE, test=True, feature="calc", imports=(Import("calc", ("total",)),))],
            oracle=[Module("h", "totals", HIDDEN, test=True, hidden=True,
                           imports=(Import("calc", ("mean", "total")),))],
            sites={"bound": "range(1, len(values))"}, names={"things": ctx.lex.noun("item", True)},
            bug=Bug("bound", Fix("gold", {"bound": "range(len(values))"}),
                    (Fix("explicit-start", {"bound": "range(0, len(values))"}),
                     Fix("reversed", {"bound": "reversed(range(len(values)))"})),
                    "utility", "The loop skips the first value.", "calc",
                    symptom=Symptom(title="Sums come out short", action="add up a list of amounts",
                                    observed="the first amount is missing from the result",
                                    expected="Every amount should be counted.",
                                    steps=("Add up 1, 2 and 3", "The result is 5"), vague="sums are low")),
            canaries=[], red_herrings=[], features=[Feature("calc", "Add totals", "Totals.")], settings={},
        )
        for key, value in self.tweak.items():
            setattr(bp, key, value(bp) if callable(value) else value)
        return bp


@pytest.fixture
def tiny(monkeypatch):
    from challenges.engine import model

    registry = dict(model._REGISTRY)
    registry["tiny-total"] = Tiny
    monkeypatch.setattr(model, "_REGISTRY", registry)
    monkeypatch.setattr(Tiny, "tweak", {})
    return Tiny


def _generate(tiny, seed=1):
    d = draw("tiny-total", "python", random.Random(seed), lexicons=LEXICONS)
    return generate(d, lexicon=next(lex for lex in LEXICONS if lex["key"] == d.lexicon_key))


def test_minimal_template_passes_every_gate(tiny):
    instance = _generate(tiny)
    assert "range(len(values))" in instance.gold.patch
    assert len(instance.history.commits) >= 8  # short histories are padded with housekeeping
    report = validate(instance)
    assert report.passed, report.summary()
    assert report.gate("oracle").details["fail_to_pass"] == ["tests/test_totals.py::TotalRulesTest::test_counts_every_value"]


@pytest.mark.parametrize(("tweak", "code"), [
    ({"bug": lambda bp: dataclasses.replace(bp.bug, alternatives=bp.bug.alternatives[:1])}, "blueprint_invalid"),
    ({"bug": lambda bp: dataclasses.replace(bp.bug, alternatives=(bp.bug.gold, bp.bug.alternatives[0]))},
     "fix_same_as_gold"),
    ({"bug": lambda bp: dataclasses.replace(bp.bug, site="nowhere")}, "blueprint_invalid"),
    ({"sites": {"bound": "range(len(values))"}}, "blueprint_invalid"),
    ({"features": []}, "blueprint_invalid"),
    ({"names": {}}, "template_name_unknown"),
    ({"tests": lambda bp: [dataclasses.replace(bp.tests[0], imports=(Import("missing", ("x",)),))]},
     "blueprint_invalid"),
    ({"oracle": lambda bp: [dataclasses.replace(bp.oracle[0], hidden=False)]}, "blueprint_invalid"),
])
def test_malformed_blueprints_are_refused_with_a_code(tiny, tweak, code):
    tiny.tweak = tweak
    with pytest.raises(TemplateError) as exc:
        _generate(tiny)
    assert exc.value.code == code


def _with_bug(**changes):
    return lambda bp: dataclasses.replace(bp.bug, **changes)


def test_statement_is_sealed_with_the_instance_and_rebuilt_byte_for_byte(tiny):
    from challenges.engine import rebuild

    instance = _generate(tiny)
    assert instance.statement.startswith(("**", "#"))
    assert "Sums come out short" in instance.statement
    assert instance.secrets_dict()["statement"] == instance.statement
    again = rebuild(instance.draw.to_json(), lexicon=next(lex for lex in LEXICONS
                                                            if lex["key"] == instance.draw.lexicon_key))
    assert again.statement.encode() == instance.statement.encode()
    assert again.statement_sha256 == instance.secrets_dict()["statement_sha256"]
    assert instance.difficulty["statement_precision"] == "reproduction"
    assert instance.difficulty["tier"] == 1


def test_an_instance_without_a_statement_is_refused(tiny):
    tiny.tweak = {"bug": _with_bug(symptom=None)}
    report = validate(_generate(tiny))
    assert not report.passed
    assert report.gate("statement").reasons == [
        "the instance has no task statement (the template gives no symptom data for this bug)"]


def test_a_statement_that_spells_the_fix_is_refused(tiny):
    tiny.tweak = {"bug": lambda bp: dataclasses.replace(bp.bug, symptom=dataclasses.replace(
        bp.bug.symptom, observed="the loop should use range len values instead"))}
    report = validate(_generate(tiny))
    assert not report.gate("statement").passed
    assert "3-word run" in report.gate("statement").reasons[0]


def test_the_masking_fix_must_fail_the_hidden_tests(tiny):
    tiny.tweak = {"bug": _with_bug(masking=Fix("drop-last", {"bound": "range(len(values) - 1)"}))}
    report = validate(_generate(tiny))
    assert report.passed, report.summary()
    assert report.gate("oracle").details["masking_rejected"] is True
    # A "masking" fix the oracle accepts means the hidden tests only check the surface.
    tiny.tweak = {"bug": _with_bug(masking=Fix("small-lists", {
        "bound": "range(1, len(values)) if len(values) > 3 else range(len(values))"}))}
    report = validate(_generate(tiny))
    assert not report.gate("oracle").passed
    assert any("shallow fix 'small-lists'" in r for r in report.gate("oracle").reasons)
