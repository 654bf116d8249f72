"""Token n-gram overlap (spec 001 §1)."""

from __future__ import annotations

import pytest

from detection.analysis import InvalidParameterError, OverlapParams, ngram_overlap, patch_overlap

GOLD = """--- a/cache.py
+++ b/cache.py
@@ -89,6 +89,8 @@ class FileBasedCache(BaseCache):
     def has_key(self, key, version=None):
         fname = self._key_to_file(key, version)
-        return os.path.exists(fname)
+        if os.path.exists(fname):
+            with open(fname, "rb") as f:
+                return not self._is_expired(f)
+        return False
"""


def test_spec_example_is_full_overlap():
    assert ngram_overlap(GOLD, GOLD) == 1.0
    report = patch_overlap(GOLD, GOLD, params=OverlapParams(scope="whole"))
    assert report.flagged and report.max_overlap == 1.0


def test_overlap_counts_repeated_ngrams_of_the_patch():
    assert ngram_overlap("a b a b", "a b", n=2) == pytest.approx(2 / 3)
    assert ngram_overlap("a b c", "x y z", n=2) == 0.0
    assert ngram_overlap("a b", "a b c d e f", n=5) == 0.0  # too short to have a 5-gram


def test_threshold_is_strictly_above():
    a = "t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12"
    b = "t1 t2 t3 t4 t5 t6 t7 x x x x x"  # 3 of 8 five-grams shared: 0.375
    assert ngram_overlap(a, b) == pytest.approx(0.375)
    assert not patch_overlap(a, b).flagged
    assert patch_overlap(a, b, params=OverlapParams(threshold=0.37)).flagged


def test_added_lines_only_ignores_headers_and_context():
    independent = """--- a/cache.py
+++ b/cache.py
@@ -89,6 +89,7 @@ class FileBasedCache(BaseCache):
     def has_key(self, key, version=None):
         fname = self._key_to_file(key, version)
-        return os.path.exists(fname)
+        return os.path.isfile(fname) and not self._expired_at(fname)
"""
    whole = patch_overlap(independent, GOLD, params=OverlapParams(scope="whole"))
    added = patch_overlap(independent, GOLD)
    assert whole.max_overlap > 0.4 and whole.flagged
    assert added.max_overlap == 0.0 and not added.flagged


def test_canonical_solutions_are_compared_too():
    report = patch_overlap(GOLD, None, {"known": GOLD, "other": "nothing alike at all here ok"})
    assert [(f.reference, f.flagged) for f in report.findings] == [("known", True), ("other", False)]
    assert report.as_dict()["findings"][0]["overlap"] == 1.0


def test_parameters_are_validated():
    with pytest.raises(InvalidParameterError) as caught:
        OverlapParams(n=0)
    assert caught.value.field == "n"
    with pytest.raises(InvalidParameterError):
        OverlapParams(threshold=2)
    with pytest.raises(InvalidParameterError):
        OverlapParams(scope="lines")
