"""Applying unified diffs and finding the functions they change."""

from __future__ import annotations

import pytest

from detection.analysis import PatchError, analyse_tree, apply_patch, changed_functions

WORKSPACE = {
    "app/stats.py": (
        "import math\n"
        "\n"
        "\n"
        "def mean(xs):\n"
        "    return sum(xs) / len(xs)\n"
        "\n"
        "\n"
        "def spread(xs):\n"
        "    m = mean(xs)\n"
        "    return max(xs) - m\n"
        "\n"
        "\n"
        "def unrelated(a):\n"
        "    return a * 2\n"
    ),
    "README.md": "stats\n",
}

PATCH = """--- a/app/stats.py
+++ b/app/stats.py
@@ -3,5 +3,7 @@
 
 def mean(xs):
-    return sum(xs) / len(xs)
+    if not xs:
+        return 0.0
+    return sum(xs) / len(xs)
 
 
"""


def test_apply_patch_in_memory_and_mark_changed_lines():
    applied = apply_patch(WORKSPACE, PATCH)
    assert WORKSPACE["app/stats.py"].count("if not xs") == 0  # input untouched
    text = applied.files["app/stats.py"]
    assert "    if not xs:\n        return 0.0\n" in text
    # added lines, and for the removed line the line before it (the function's header)
    assert applied.changed_lines == {"app/stats.py": {4, 5, 6, 7}}


def test_hunk_at_an_offset_still_applies():
    shifted = {"app/stats.py": "# header\n# header\n" + WORKSPACE["app/stats.py"]}
    applied = apply_patch(shifted, PATCH)
    assert "if not xs" in applied.files["app/stats.py"]


def test_mismatched_context_is_a_patch_error():
    with pytest.raises(PatchError) as caught:
        apply_patch({"app/stats.py": "def mean(xs):\n    return 1\n"}, PATCH)
    assert caught.value.code == "analysis_patch_invalid" and caught.value.field == "patch"


def test_not_a_patch_is_a_patch_error():
    with pytest.raises(PatchError):
        apply_patch(WORKSPACE, "just some text")


def test_new_and_deleted_files():
    patch = ("--- /dev/null\n+++ b/app/new.py\n@@ -0,0 +1,2 @@\n+def new():\n+    return 1\n"
             "--- a/README.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-stats\n")
    applied = apply_patch(WORKSPACE, patch)
    assert applied.files["app/new.py"] == "def new():\n    return 1\n"
    assert "README.md" not in applied.files


def test_changed_functions_are_the_unit_not_the_whole_file():
    unit = changed_functions(PATCH, WORKSPACE, "python")
    assert [(f.path, f.start_line, f.end_line) for f in unit.functions] == [("app/stats.py", 4, 7)]
    assert unit.source.startswith("def mean(xs):")
    assert "unrelated" not in unit.tree.sexpr() and "spread" not in unit.tree.sexpr()
    analysed = analyse_tree("sub1", unit.tree, "python")
    assert analysed.size > 5


def test_same_fix_in_different_workspace_layouts_gives_the_same_unit():
    other_ws = {"app/stats.py": WORKSPACE["app/stats.py"].replace("def unrelated(a):\n    return a * 2\n",
                                                                   "def other(b):\n    return b + 3\n")}
    a = analyse_tree("a", changed_functions(PATCH, WORKSPACE, "python").tree, "python")
    b = analyse_tree("b", changed_functions(PATCH, other_ws, "python").tree, "python")
    assert a.prepared.digest == b.prepared.digest


def test_change_outside_functions_contributes_its_statement():
    patch = "--- a/app/stats.py\n+++ b/app/stats.py\n@@ -1,2 +1,2 @@\n-import math\n+import statistics\n \n"
    unit = changed_functions(patch, WORKSPACE, "python")
    assert [f.source for f in unit.functions] == ["import statistics"]


def test_java_method_inside_a_class_is_the_unit():
    source = ("class Cart {\n"
              "    int total(int[] xs) {\n"
              "        int t = 0;\n"
              "        for (int x : xs) t += x;\n"
              "        return t;\n"
              "    }\n"
              "\n"
              "    int count(int[] xs) {\n"
              "        return xs.length;\n"
              "    }\n"
              "}\n")
    patch = ("--- a/src/Cart.java\n+++ b/src/Cart.java\n@@ -3,3 +3,3 @@\n"
             "         int t = 0;\n-        for (int x : xs) t += x;\n+        for (int x : xs) t += Math.max(x, 0);\n"
             "         return t;\n")
    unit = changed_functions(patch, {"src/Cart.java": source}, "java")
    assert [(f.start_line, f.end_line) for f in unit.functions] == [(2, 6)]
    assert unit.source.startswith("int total(int[] xs)")
    assert "count" not in unit.tree.sexpr()


def test_changed_functions_before_the_patch_are_taken_from_the_original_workspace():
    from detection.analysis import changed_functions

    workspace = {"m.py": "def keep():\n    return 0\n\n\ndef fix(x):\n    return x + 1\n"}
    patch = "--- a/m.py\n+++ b/m.py\n@@ -5,2 +5,3 @@\n def fix(x):\n-    return x + 1\n+    y = x * 2\n+    return y\n"
    after = changed_functions(patch, workspace, "python")
    before = changed_functions(patch, workspace, "python", side="before")
    assert [(f.start_line, f.end_line) for f in after.functions] == [(5, 7)]
    assert [(f.start_line, f.end_line) for f in before.functions] == [(5, 6)]
    assert "x + 1" in before.source and "x * 2" in after.source
