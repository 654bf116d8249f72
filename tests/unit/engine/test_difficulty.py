"""The measured difficulty profile on small hand-made trees, in both languages, and on a
generated instance."""

from __future__ import annotations

import pytest

from challenges.engine.difficulty import (
    DifficultyFloor,
    DifficultyProfile,
    code_paths,
    content_words,
    grep_ranking,
    import_graph,
    is_package_marker,
    measure,
    profile_instance,
    shortfalls,
    summarise,
)
from tests.unit.engine.conftest import make_instance

# A chain: the test imports api; api -> service -> store -> codec (the fault, 3 hops away).
PY_FILES = {
    "shop/__init__.py": '"""Shop tools."""\n\n__version__ = "1.0.0"\n',
    "shop/api.py": "from shop.service import place\n\n\ndef handle(request):\n    return place(request)\n",
    "shop/service.py": "from . import store\n\n\ndef place(order):\n    return store.save(order)\n",
    "shop/store.py": "import json\n\nfrom shop.codec import encode\n\n\ndef save(order):\n"
                     "    return json.dumps(encode(order))\n",
    "shop/codec.py": "def encode(order):\n    # totals of each basket line\n    return dict(order)\n",
    "shop/unused.py": '"""Invoice totals basket refund refund."""\n\nTOTAL = 1\n',
    "tests/test_api.py": "from shop.api import handle\n\n\ndef test_handle():\n    assert handle({})\n",
    "tests/helpers.py": "from shop.store import save\n",
}
PY_HIDDEN = {
    "tests/test_hidden.py": "import unittest\n\nfrom shop.api import handle\n\n\n"
                            "class T(unittest.TestCase):\n    def test_total(self):\n        handle({})\n",
}

JS_FILES = {
    "src/api.js": "'use strict';\nconst { place } = require('./service');\nmodule.exports = { handle: (r) => place(r) };\n",
    "src/service.js": "const store = require('./lib/store.js');\nconst fs = require('node:fs');\n"
                      "module.exports = { place: (o) => store.save(o) };\n",
    "src/lib/store.js": "import { encode } from '../codec';\nexport function save(o) { return encode(o); }\n",
    "src/codec/index.js": "// totals of each basket line\nmodule.exports = { encode: (o) => o };\n",
    "test/api.test.js": "const { handle } = require('../src/api');\n",
}
JS_HIDDEN = {
    "test/hidden.test.js": "const { test } = require('node:test');\nconst { handle } = require('../src/api');\n"
                           "test('total', () => handle({}));\n",
}


def test_python_import_graph_resolves_absolute_relative_and_submodule_imports():
    graph = import_graph({**PY_FILES, **PY_HIDDEN}, "python")
    assert graph["shop/api.py"] == {"shop/service.py"}
    assert graph["shop/service.py"] == {"shop/store.py"}  # ``from . import store`` names the submodule
    assert graph["shop/store.py"] == {"shop/codec.py"}  # ``import json`` is not a project file
    assert graph["tests/test_hidden.py"] == {"shop/api.py"}


def test_javascript_import_graph_resolves_require_and_import_paths():
    graph = import_graph({**JS_FILES, **JS_HIDDEN}, "javascript")
    assert graph["src/api.js"] == {"src/service.js"}
    assert graph["src/service.js"] == {"src/lib/store.js"}  # node:fs is not a project file
    assert graph["src/lib/store.js"] == {"src/codec/index.js"}  # a directory's index.js
    assert graph["test/hidden.test.js"] == {"src/api.js"}


def _python(**changes):
    source, tests = code_paths(PY_FILES, "python")
    args = dict(language="python", files=PY_FILES, source_paths=source, test_paths=tests,
                fault_files=["shop/codec.py"], statement="The basket totals are wrong after a refund.",
                oracle_files=PY_HIDDEN, failing_tests=["tests/test_hidden.py::T::test_total"])
    return measure(**{**args, **changes})


def test_python_profile_measures_size_distance_and_grep_rank():
    profile = _python(visible_failing=False)
    # The package marker with only a docstring and __version__ is not source.
    assert profile.source_files == 5 and profile.test_files == 2
    assert profile.source_lines == sum(1 for p in ("api", "service", "store", "codec", "unused")
                                       for line in PY_FILES[f"shop/{p}.py"].splitlines() if line.strip())
    assert profile.fault_files == ("shop/codec.py",)
    assert profile.entry_modules == ("shop/api.py",)
    assert profile.causal_distance == 3 and profile.fault_distances == {"shop/codec.py": 3}
    # "basket", "totals", "refund" all sit in unused.py; codec.py holds two of them.
    assert profile.grep_rank == 2 and profile.grep_share == pytest.approx(2 / 5)
    assert profile.visible_failing is False


def test_distance_is_zero_when_the_failing_test_imports_the_fault_and_none_when_unreachable():
    assert _python(fault_files=["shop/api.py"]).causal_distance == 0
    unreachable = _python(fault_files=["shop/unused.py"])
    assert unreachable.causal_distance is None and unreachable.fault_distances == {"shop/unused.py": None}
    # Of two cooperating faults the nearer one sets the distance; both are recorded.
    both = _python(fault_files=["shop/codec.py", "shop/store.py"])
    assert both.causal_distance == 2 and both.fault_distances == {"shop/codec.py": 3, "shop/store.py": 2}


def test_only_the_failing_tests_files_are_entry_points():
    hidden = {**PY_HIDDEN, "tests/test_direct.py": "from shop.codec import encode\n"}
    assert _python(oracle_files=hidden).causal_distance == 3
    assert _python(oracle_files=hidden, failing_tests=["tests/test_direct.py::test_x"]).causal_distance == 0
    # Without a fail-to-pass record every hidden test file counts.
    assert _python(oracle_files=hidden, failing_tests=[]).causal_distance == 0


def test_a_test_helper_module_is_looked_through():
    hidden = {"tests/test_hidden.py": "from tests.helpers import save\n"}
    profile = _python(oracle_files=hidden, failing_tests=["tests/test_hidden.py::test_x"])
    assert profile.entry_modules == ("shop/store.py",) and profile.causal_distance == 1


def test_javascript_profile():
    source, tests = code_paths(JS_FILES, "javascript")
    assert source == ["src/api.js", "src/codec/index.js", "src/lib/store.js", "src/service.js"]
    assert tests == ["test/api.test.js"]
    profile = measure(language="javascript", files=JS_FILES, source_paths=source, test_paths=tests,
                      fault_files=["src/codec/index.js"], statement="Basket totals are off by one line.",
                      oracle_files=JS_HIDDEN, failing_tests=["test/hidden.test.js > total"], visible_failing=True)
    assert profile.causal_distance == 3 and profile.entry_modules == ("src/api.js",)
    assert profile.source_files == 4 and profile.grep_rank == 1 and profile.grep_share == pytest.approx(1 / 4)
    assert profile.visible_failing is True


def test_grep_words_and_ties():
    assert content_words("The customer's totals were WRONG, and it is odd.") == {"customer", "totals", "wrong", "odd"}
    rank, share, words = grep_ranking("refund totals", {"a.py": "refund totals", "b.py": "Totals, REFUND",
                                                        "c.py": "nothing"}, ["b.py"])
    assert (rank, share, words) == (1, round(2 / 3, 4), 2)  # tied with a.py: both read first
    assert grep_ranking("", {"a.py": "x"}, ["a.py"]) == (None, None, 0)


def test_package_marker():
    assert is_package_marker('"""Docs."""\n# comment\n__all__ = ["x"]\n')
    assert not is_package_marker("from .core import run\n")


def test_shortfalls_against_a_tier_floor():
    profile = _python()
    assert shortfalls(profile, DifficultyFloor(10, 5, 3), 5) == []
    reasons = shortfalls(profile, DifficultyFloor(5000, 40, 4), 5)
    assert reasons == [
        f"{profile.source_lines} lines of non-test source; tier 5 asks for at least 5000",
        "5 source files; tier 5 asks for at least 40",
        "the fault is 3 module boundaries from what the failing tests import; tier 5 asks for at least 4",
    ]
    direct = _python(fault_files=["shop/api.py"])
    assert shortfalls(direct, DifficultyFloor(0, 0, 1), 2) == [
        "the failing tests import the faulty module directly; tier 2 asks for at least 1"]
    assert "not reachable" in shortfalls(_python(fault_files=["shop/unused.py"]), DifficultyFloor(0, 0, 1), 2)[0]
    # A floor of 0 never asks for reachability.
    assert shortfalls(_python(fault_files=["shop/unused.py"]), DifficultyFloor(0, 0, 0), 1) == []


def test_profile_round_trips_through_json():
    profile = _python(visible_failing=True)
    assert DifficultyProfile.from_dict(profile.to_dict()) == profile


def _every_template_and_language():
    from challenges.engine import registry

    return [(slug, language) for slug, cls in sorted(registry().items()) for language in cls.spec.languages]


@pytest.mark.parametrize(("template", "language"), _every_template_and_language())
def test_profile_of_a_generated_instance(template, language):
    instance = make_instance(template, language, 1)
    profile = profile_instance(instance, failing_on_bug=[])
    assert profile.source_files == len(instance.source_paths) == instance.difficulty["source_files"]
    assert profile.source_lines == instance.difficulty["source_lines"]
    assert profile.fault_files == tuple(sorted(instance.gold.files))
    assert profile.causal_distance is not None and profile.entry_modules
    assert profile.grep_rank is not None and 1 <= profile.grep_rank <= profile.source_files
    assert profile.visible_failing is False
    # The generator's list of source modules and the path rule used for backfills agree.
    assert code_paths(instance.files, language)[0] == sorted(instance.source_paths)


def test_summarise_means_and_medians_leave_missing_measures_out():
    records = [
        {"source_lines": 100, "source_files": 4, "causal_distance": 0, "grep_rank": 1, "visible_failing": True,
         "check": {"shortfalls": []}},
        {"source_lines": 300, "source_files": 6, "causal_distance": None, "grep_rank": 3, "visible_failing": False,
         "check": {"shortfalls": ["too small"]}},
        {"source_lines": 200, "source_files": 8, "causal_distance": 2, "grep_rank": None},
    ]
    summary = summarise(records)
    assert summary["instances"] == 3 and summary["unreachable"] == 1
    assert summary["visible_failing"] == 1 and summary["below_floor"] == 1
    assert summary["mean"] == {"source_lines": 200.0, "source_files": 6.0, "causal_distance": 1.0, "grep_rank": 2.0}
    assert summary["median"] == {"source_lines": 200.0, "source_files": 6.0, "causal_distance": 1.0, "grep_rank": 2.0}
    assert summarise([])["mean"]["source_lines"] is None
