import pytest

from competition.patchcheck import PatchRejected, check_patch

GOOD = """diff --git a/src/app/ledger.py b/src/app/ledger.py
--- a/src/app/ledger.py
+++ b/src/app/ledger.py
@@ -1,3 +1,3 @@
 def overlaps(a, b):
-    return a.start <= b.end
+    return a.start < b.end
"""


def test_good_patch_returns_touched_paths():
    assert check_patch(GOOD) == ["src/app/ledger.py"]


def test_new_file_from_dev_null_is_fine():
    patch = "--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+hello\n"
    assert check_patch(patch) == ["notes.txt"]


@pytest.mark.parametrize(
    "patch, code",
    [
        ("", "patch_empty"),
        ("   \n", "patch_empty"),
        (GOOD.replace("src/app/ledger.py", "../outside.py"), "patch_path_outside"),
        (GOOD.replace("a/src/app/ledger.py", "/etc/passwd"), "patch_path_outside"),
        (GOOD.replace("src/app/ledger.py", ".git/config"), "patch_path_outside"),
        (GOOD.replace("src/app/ledger.py", "src/./ledger.py"), "patch_path_invalid"),
        (GOOD.replace("src/app/ledger.py", "src\\ledger.py"), "patch_path_invalid"),
        (GOOD.replace("src/app/ledger.py", "src/.GIT/config"), "patch_path_outside"),
        ("diff --git a/x b/x\nnew file mode 120000\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+/etc/passwd\n", "patch_symlink"),
        # git reads modes as octal numbers followed by whitespace: these are symlinks too.
        ("diff --git a/x b/x\nnew file mode 0120000\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+/etc\n", "patch_symlink"),
        ("diff --git a/x b/x\nnew file mode 120000 \n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+/etc\n", "patch_symlink"),
        ("diff --git a/x b/x\nindex 0000000..1234567 120000\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+/etc\n", "patch_symlink"),
        ("diff --git a/x b/x\nnew file mode 160000\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+Subproject\n", "patch_submodule"),
        ("diff --git a/x b/x\nnew file mode 100600\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n", "patch_mode_invalid"),
        ("diff --git a/x.bin b/x.bin\nGIT binary patch\nliteral 3\n", "patch_binary"),
        ("Binary files a/x and b/x differ\n", "patch_binary"),
        ("just some words\n", "patch_malformed"),
        ("diff --git a/a b/b\nrename from ../../etc\nrename to b\n", "patch_copy_source"),
        ("diff --git a/a b/b\ncopy from /etc/passwd\ncopy to b\n", "patch_copy_source"),
        ("diff --git a/a b/b\ncopy from a\ncopy to ../b\n", "patch_path_outside"),
    ],
)
def test_bad_patches_are_refused_with_stable_codes(patch, code):
    with pytest.raises(PatchRejected) as info:
        check_patch(patch)
    assert info.value.code == code


def test_size_limit():
    big = GOOD + ("+# " + "x" * 100 + "\n") * 50
    with pytest.raises(PatchRejected) as info:
        check_patch(big, max_bytes=1024)
    assert info.value.code == "patch_too_large"
    assert check_patch(big, max_bytes=1024 * 1024) == ["src/app/ledger.py"]
