"""The substrate intake gate: rig-confidence, recognisability and memorisation with reasons."""

from __future__ import annotations

import re

import pytest

from challenges.audit import AuditError
from challenges.audit.intake import (
    CompletionMemorisationProbe,
    IntakeParams,
    MemorisationProbe,
    NgramMemorisationProbe,
    Reference,
    Substrate,
    intake_report,
    memorisation,
    recognisability,
    rig_confidence,
)
from tests.unit.audit.builders import CLEAN_FILES

CANONICAL_LRU = '''
class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.cache = OrderedDict()

    def get(self, key):
        if key not in self.cache:
            return -1
        self.cache.move_to_end(key)
        return self.cache[key]

    def put(self, key, value):
        if key in self.cache:
            self.cache.move_to_end(key)
        self.cache[key] = value
        if len(self.cache) > self.capacity:
            self.cache.popitem(last=False)
'''


def renamed(text: str) -> str:
    """The same code with every name changed (what name-stripping must see through)."""
    table = {"LRUCache": "BerthMemo", "capacity": "slots", "cache": "held", "key": "vessel", "value": "berth",
             "get": "lookup", "put": "assign"}
    return re.sub(r"\b(" + "|".join(table) + r")\b", lambda m: table[m.group()], text)


def clean_substrate(**extra) -> Substrate:
    return Substrate({**CLEAN_FILES, **extra}, "tidewater", tier=2)


def test_realistic_codebase_scores_zero_on_rig():
    axis = rig_confidence(clean_substrate())
    assert axis.score == 0 and axis.passed and axis.reasons == ("no staging signal",)


def test_staged_codebase_is_blocked_with_reasons():
    staged = clean_substrate(**{
        "tidewater/ledger.py": CLEAN_FILES["tidewater/ledger.py"] + "# BUG #1: nights start at one\n",
        "tidewater/fault_injector.py": "ORACLE = 'hidden tests decide'\n",
        "scripts/orchestrate.py": "# red herring: harness entry\n",
        "tests/test_bug.py": "def test_regression_bug_12():\n    pass\n\ndef test_broken_release():\n    pass\n",
    })
    report = intake_report(staged)
    axis = report.rig_confidence
    assert axis.score > 60 and not axis.passed and not report.activatable
    text = "\n".join(axis.reasons)
    assert "staging marker" in text and "harness vocabulary" in text
    assert "tidewater/fault_injector.py" in text and "scripts/orchestrate.py" in text
    assert "test_regression_bug_12" in text and "test_broken_release" in text


def test_structure_signals():
    tiny = Substrate({"app.py": "x = 1\n", "tests/test_app.py": "def test_x():\n    pass\n"}, tier=4)
    axis = rig_confidence(tiny)
    assert axis.score == 20 and "tier 4 expects at least 6" in axis.reasons[0]
    giant = Substrate({"pkg/__init__.py": "from pkg import core, util\n", "pkg/core.py": "x = 1\n" * 400,
                       "pkg/util.py": "y = 2\n"}, tier=None)
    axis = rig_confidence(giant)
    assert axis.score == 20 and "pkg/core.py holds" in axis.reasons[0]


def test_javascript_imports_count_for_bolt_on_detection():
    files = {"src/index.js": "const { price } = require('./pricing');\nimport { clock } from './clock.js';\n",
             "src/pricing.js": "exports.price = 1;\n", "src/clock.js": "export const clock = 1;\n",
             "src/unused.js": "export const x = 1;\n"}
    axis = rig_confidence(Substrate(files))
    assert axis.score == 15 and "src/unused.js" in axis.reasons[0]


def test_threshold_is_a_parameter_and_above_means_blocked():
    staged = clean_substrate(**{"tidewater/extra.py": "# FIXME\n# XXX\n"})
    score = rig_confidence(staged).score
    assert rig_confidence(staged, IntakeParams(rig_threshold=score)).passed
    assert not rig_confidence(staged, IntakeParams(rig_threshold=score - 1)).passed
    with pytest.raises(AuditError) as info:
        IntakeParams(rig_threshold=120)
    assert info.value.field == "rig_threshold"


def test_recognisability_sees_through_renaming():
    reference = Reference("lru-cache", "from collections import OrderedDict\n" + CANONICAL_LRU, "canonical")
    disguised = clean_substrate(**{"tidewater/memo.py": "from collections import OrderedDict\n" + renamed(CANONICAL_LRU)})
    axis = recognisability(disguised, [reference])
    assert axis.score >= 90 and "canonical lru-cache" in axis.reasons[0]
    assert recognisability(clean_substrate(), [reference]).score <= 10
    assert axis.passed  # report-only by default (spec 000 v1)
    assert not recognisability(disguised, [reference], params=IntakeParams(recognisability_gated=True)).passed


def test_recognisers_are_pluggable_and_validated():
    def corpus(stripped: str, files):
        return (70.0, ["fingerprint matches corpus entry two-sum"]) if "class I" in stripped else (0.0, [])

    axis = recognisability(clean_substrate(), recognisers=[corpus])
    assert axis.score == 70 and axis.reasons == ("fingerprint matches corpus entry two-sum",)
    with pytest.raises(AuditError) as info:
        recognisability(clean_substrate(), recognisers=[lambda s, f: (140.0, [])])
    assert info.value.code == "recogniser_invalid"


def test_memorisation_default_probe_is_verbatim():
    reference = Reference("lru-cache", CANONICAL_LRU, "corpus")
    verbatim = memorisation(clean_substrate(**{"tidewater/memo.py": CANONICAL_LRU}), [reference])
    disguised = memorisation(clean_substrate(**{"tidewater/memo.py": renamed(CANONICAL_LRU)}), [reference])
    assert verbatim.score >= 95 and disguised.score < 30
    assert verbatim.reasons[0] == "probe ngram-overlap"
    assert isinstance(NgramMemorisationProbe(), MemorisationProbe)


def test_model_backed_probe_hook():
    substrate = clean_substrate()
    prompts: list[str] = []

    def remembers(prompt: str) -> str:
        prompts.append(prompt)
        path = re.search(r"file (\S+) from", prompt).group(1)
        return CLEAN_FILES[path]

    probe = CompletionMemorisationProbe(remembers, files=2)
    assert isinstance(probe, MemorisationProbe)
    axis = memorisation(substrate, probe=probe)
    assert axis.score == 100 and len(prompts) == 2
    assert all("tidewater" in p and "import" not in p for p in prompts)  # name-only, closed book
    assert memorisation(substrate, probe=CompletionMemorisationProbe(lambda p: "no idea")).score == 0
    with pytest.raises(AuditError) as info:
        memorisation(substrate, probe=_Broken())
    assert info.value.code == "probe_invalid"


class _Broken:
    name = "broken"

    def probe(self, subject):
        return -5.0, ["negative"]


def test_report_shape():
    data = intake_report(clean_substrate()).to_dict()
    assert data["activatable"] is True
    assert set(data) == {"activatable", "rig_confidence", "recognisability", "memorisation"}
    assert data["rig_confidence"] == {"axis": "rig_confidence", "score": 0, "threshold": 60, "gated": True,
                                      "passed": True, "reasons": ["no staging signal"]}
