"""Canonical matching of a patch's changed functions against the shipped library."""

from __future__ import annotations

import json

import pytest

from challenges.engine.model import FAMILIES
from detection.analysis.canonical_fixes import (
    CanonicalLibraryError,
    change_shape,
    load_library,
    match_patch,
    parse_entry,
)
from detection.analysis.errors import PatchError


@pytest.fixture(scope="module")
def library():
    return load_library()


def test_the_shipped_library_covers_every_family_in_python_and_javascript(library):
    families = {e.family for e in library if e.family}
    assert families == set(FAMILIES)
    assert {e.language for e in library} >= {"python", "javascript"}
    corpus_keys = {json.loads(line)["key"] for line in open("challenges/data/contamination_corpus.jsonl")}
    textbook = [e for e in library if e.corpus_key]
    assert len(textbook) >= 5 and all(e.corpus_key in corpus_keys for e in textbook)
    assert all(e.before for e in library)  # every shipped entry is a change, not only a result


WORKSPACE_TWO_SUM = {"solution.py": (
    "def pair_indices(values, goal):\n"
    "    index_of = {}\n"
    "    for position, value in enumerate(values):\n"
    "        index_of[value] = position\n"
    "        if goal - value in index_of:\n"
    "            return [index_of[goal - value], position]\n"
    "    return []\n")}
PATCH_TWO_SUM = """--- a/solution.py
+++ b/solution.py
@@ -1,7 +1,7 @@
 def pair_indices(values, goal):
     index_of = {}
     for position, value in enumerate(values):
-        index_of[value] = position
         if goal - value in index_of:
             return [index_of[goal - value], position]
+        index_of[value] = position
     return []
"""


def test_the_textbook_fix_of_a_corpus_problem_is_a_strong_match(library):
    report = match_patch(PATCH_TWO_SUM, WORKSPACE_TWO_SUM, "python", library)
    assert report.best.entry == "two-sum/py" and report.level == "strong"
    assert report.best.shape == 1.0 and report.best.shape_match
    as_dict = report.as_dict()
    assert as_dict["functions"] == [{"path": "solution.py", "start_line": 1, "end_line": 7}]
    assert as_dict["thresholds"]["strong_below"] == 0.10


WORKSPACE_LOCK = {"inventory/stock.py": (
    "import threading\n\n\n"
    "class Stock:\n"
    "    def __init__(self):\n"
    "        self.counts = {}\n"
    "        self.guard = threading.Lock()\n\n"
    "    def take(self, sku, qty):\n"
    "        audit('take', sku)\n"
    "        if self.counts.get(sku, 0) >= qty:\n"
    "            with self.guard:\n"
    "                self.counts[sku] -= qty\n"
    "                return True\n"
    "        return False\n")}
PATCH_LOCK = """--- a/inventory/stock.py
+++ b/inventory/stock.py
@@ -9,7 +9,7 @@
     def take(self, sku, qty):
         audit('take', sku)
-        if self.counts.get(sku, 0) >= qty:
-            with self.guard:
+        with self.guard:
+            if self.counts.get(sku, 0) >= qty:
                 self.counts[sku] -= qty
                 return True
         return False
"""


def test_a_memorised_fix_shape_is_recognised_in_unrelated_code(library):
    report = match_patch(PATCH_LOCK, WORKSPACE_LOCK, "python", library)
    lock = next(m for m in report.matches if m.entry == "concurrency/check-under-lock/py")
    assert lock.shape_match and lock.shape >= 0.8
    # another domain's function: not *this* solution, so no spec level
    assert lock.level is None
    others = [m for m in report.matches if m.entry != lock.entry and m.shape_match]
    assert others == []


def test_an_unrelated_fix_matches_nothing(library):
    workspace = {"calc.py": "def area(w, h):\n    return w + h\n"}
    patch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def area(w, h):\n-    return w + h\n+    return w * h\n"
    report = match_patch(patch, workspace, "python", library)
    assert report.level is None
    assert not any(m.shape_match for m in report.matches)


def test_bug_type_restricts_the_entries_compared(library):
    report = match_patch(PATCH_TWO_SUM, WORKSPACE_TWO_SUM, "python", library, bug_type="concurrency-ordering")
    assert {m.bug_type for m in report.matches} == {"concurrency-ordering"}


def test_a_patch_that_does_not_apply_is_a_patch_error(library):
    with pytest.raises(PatchError):
        match_patch(PATCH_LOCK, WORKSPACE_TWO_SUM, "python", library)


@pytest.mark.parametrize(("change", "field"), [
    ({"language": "cobol"}, "language"),
    ({"after": "def broken(:\n"}, "after"),
    ({"id": ""}, "id"),
    ({"source": "rumour"}, "source"),
    ({"colour": "red"}, "colour"),
])
def test_bad_entries_are_refused_with_the_field(change, field):
    entry = {"id": "x", "bug_type": "t", "language": "python", "after": "def f():\n    return 1\n"}
    with pytest.raises(CanonicalLibraryError) as caught:
        parse_entry({**entry, **change})
    assert caught.value.field == field and caught.value.code == "analysis_canonical_invalid"


def test_duplicate_ids_are_refused(tmp_path):
    line = json.dumps({"id": "x", "bug_type": "t", "language": "python", "after": "def f():\n    return 1\n"})
    path = tmp_path / "lib.jsonl"
    path.write_text(line + "\n" + line + "\n")
    with pytest.raises(CanonicalLibraryError):
        load_library(path)


def test_change_shape_is_signed_token_trigrams():
    shape = change_shape(["cmp=<=", "id", "id", ")"], ["cmp=<", "id", "id", ")"])
    assert shape == {("-", "cmp=<="), ("+", "cmp=<")}
