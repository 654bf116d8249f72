"""Tree preparation against hostile patches and trees: one test per attack, real git, real files.

Each test asserts the refusal (its stable code) or the safe outcome, and that nothing
outside the private tree changed: the host files, the clean workspace, the scratch area.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from challenges.treeprep import PreparedTree, TreeRefused, check_patch_applies, prepare_tree
from challenges.treeprep.fsops import open_dir, remove_file, walk, write_file
from tests.security.tree_support import APP, GOLD, ORACLE, SECRET, TEST_APP, make_world, snapshot, tree_files


@pytest.fixture
def world(tmp_path):
    return make_world(tmp_path)


def _refused(world, patch: str, code: str) -> TreeRefused:
    before = world.snapshot()
    outcome = world.prepare(patch)
    assert isinstance(outcome, TreeRefused), f"expected {code}, the tree was prepared"
    assert outcome.code == code, (outcome.code, outcome.message)
    assert world.snapshot() == before
    return outcome


def _link_patch(path: str, target: str, mode_line: str) -> str:
    return (f"diff --git a/{path} b/{path}\n{mode_line}\nindex 0000000..1111111\n--- /dev/null\n+++ b/{path}\n"
            f"@@ -0,0 +1 @@\n+{target}\n\\ No newline at end of file\n")


def _drop_tests() -> str:
    return ("diff --git a/tests/__init__.py b/tests/__init__.py\ndeleted file mode 100644\n"
            "diff --git a/tests/test_app.py b/tests/test_app.py\ndeleted file mode 100644\n--- a/tests/test_app.py\n"
            "+++ /dev/null\n@@ -1,8 +0,0 @@\n" + "".join(f"-{line}\n" for line in TEST_APP.splitlines()))


# --- symbolic links in every spelling git accepts ---------------------------------------------

@pytest.mark.parametrize("mode_line", ["new file mode 120000", "new file mode 0120000", "new file mode 120000 ",
                                       "new file mode 00120000\t"])
def test_symlink_modes_in_every_spelling_are_refused(world, mode_line):
    # git itself accepts all of these spellings (checked: --numstat reads them as a new file).
    patch = _link_patch("evil", str(world.host / "secret.txt"), mode_line)
    probe = subprocess.run(["git", "apply", "--summary", "-"], input=patch.encode(), capture_output=True,
                           cwd=world.scratch, env={"PATH": "/usr/bin:/bin", "GIT_CEILING_DIRECTORIES": str(world.root)})
    assert probe.returncode == 0 and b"create mode 120000 evil" in probe.stdout
    _refused(world, patch, "patch_symlink")


def test_tests_symlink_to_a_host_directory_is_refused_and_the_oracle_lands_nowhere(world):
    patch = _drop_tests() + _link_patch("tests", str(world.host / "tests"), "new file mode 0120000")
    _refused(world, patch, "patch_symlink")
    assert list((world.host / "tests").iterdir()) == []


def test_symlinked_test_file_is_refused_before_the_restore_step(world):
    patch = _drop_tests() + _link_patch("tests/test_app.py", str(world.host / "secret.txt"), "new file mode 120000 ")
    _refused(world, patch, "patch_symlink")
    assert (world.host / "secret.txt").read_text() == SECRET


def test_mode_change_to_a_symlink_is_refused(world):
    _refused(world, "diff --git a/README.md b/README.md\nold mode 100644\nnew mode 0120000\n", "patch_symlink")


@pytest.mark.parametrize("mode, code", [("160000", "patch_submodule"), ("100600", "patch_mode_invalid"),
                                        ("040000", "patch_mode_invalid"), ("0100777", "patch_mode_invalid")])
def test_other_modes_are_refused(world, mode, code):
    _refused(world, _link_patch("thing", "x", f"new file mode {mode}"), code)


# --- paths that leave the tree -----------------------------------------------------------------

def test_plus_plus_plus_line_inside_a_hunk_is_content_not_a_path(world):
    # The line "+++ ../../host/secret.txt" below is an added line of src/app.py, not a header.
    patch = ("diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,4 @@\n"
             " def add(a, b):\n     return a - b\n+++ ../../host/secret.txt\n+--- a/../../host/hostdir/keep.txt\n")
    before = world.snapshot()
    prepared = world.prepare(patch)
    assert isinstance(prepared, PreparedTree), prepared
    assert [c.path for c in prepared.changes] == ["src/app.py"]
    assert (world.tree / "src" / "app.py").read_text() == APP + "++ ../../host/secret.txt\n--- a/../../host/hostdir/keep.txt\n"
    assert world.snapshot() == before
    assert (world.host / "secret.txt").read_text() == SECRET


@pytest.mark.parametrize("name, code", [
    ("../../host/secret.txt", "patch_path_outside"),
    ("src/../../host/x.py", "patch_path_outside"),
    ('"\\056\\056/\\056\\056/host/x.py"', "patch_path_outside"),  # quoted and octal-escaped ".."
    (".git/config", "patch_path_outside"),
    ("src/.GIT/hooks/x", "patch_path_outside"),
    ("sub/.git", "patch_path_outside"),
])
def test_paths_outside_the_tree_or_in_git_metadata_are_refused(world, name, code):
    quoted = name.startswith('"')
    a, b = (f'"a/{name[1:]}', f'"b/{name[1:]}') if quoted else (f"a/{name}", f"b/{name}")
    patch = f"diff --git {a} {b}\nnew file mode 100644\n--- /dev/null\n+++ {b}\n@@ -0,0 +1 @@\n+x\n"
    _refused(world, patch, code)


@pytest.mark.parametrize("header", ["+++ {abs}", "+++ b/{abs}", "+++ b//{abs}", '+++ "b/\\057{rel}"'])
def test_absolute_paths_never_leave_the_tree(world, header):
    # With -p1 git strips the first component of "/abs/path" (leaving a relative path inside
    # the tree); whatever it reports as absolute is refused.
    target = world.host / "planted.py"
    line = header.format(abs=target, rel=str(target).lstrip("/"))
    before = world.snapshot()
    outcome = world.prepare(f"--- /dev/null\n{line}\n@@ -0,0 +1 @@\n+x\n")
    if isinstance(outcome, TreeRefused):
        assert outcome.code == "patch_path_outside", outcome.message
    else:
        (change,) = outcome.changes
        assert not change.path.startswith("/") and (world.tree / change.path).read_text() == "x\n"
    assert not target.exists() and world.snapshot() == before


@pytest.mark.parametrize("kind", ["copy", "rename"])
@pytest.mark.parametrize("source", ["ABS", "../../host/secret.txt", '"\\057ABS"'])
def test_copy_or_rename_from_outside_the_workspace_is_refused(world, kind, source):
    # git apply checks the paths it writes but not a copy's source: "copy from /etc/passwd" applies.
    absolute = str(world.host / "secret.txt")
    source = source.replace("ABS", absolute.lstrip("/") if source.startswith('"') else absolute)
    patch = f"diff --git a/src/app.py b/src/stolen.py\nsimilarity index 100%\n{kind} from {source}\n{kind} to src/stolen.py\n"
    _refused(world, patch, "patch_copy_source")
    assert (world.host / "secret.txt").read_text() == SECRET


def test_rename_and_copy_inside_the_workspace_still_work(world):
    patch = ("diff --git a/src/app.py b/src/core/app.py\nsimilarity index 100%\nrename from src/app.py\n"
             "rename to src/core/app.py\ndiff --git a/README.md b/docs/README.md\nsimilarity index 100%\n"
             "copy from README.md\ncopy to docs/README.md\n")
    prepared = world.prepare(patch)
    assert isinstance(prepared, PreparedTree), prepared
    assert {(c.kind, c.source, c.path) for c in prepared.changes} == {
        ("rename", "src/app.py", "src/core/app.py"), ("copy", "README.md", "docs/README.md")}
    assert (world.tree / "src" / "core" / "app.py").read_text() == APP and not (world.tree / "src" / "app.py").exists()


# --- the test-file rule ---------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    ('"a/tests/test_app.py"', '"b/tests/test_app.py"'),
    ('"a/tests/test\\137app.py"', '"b/tests/test\\137app.py"'),  # \137 is "_"
    ("a/tests/test_app.py", "b/tests/test_app.py"),
])
def test_edits_to_test_files_are_reverted_however_the_name_is_spelled(world, a, b):
    patch = (f"diff --git {a} {b}\n--- {a}\n+++ {b}\n@@ -6,3 +6,3 @@\n class T(unittest.TestCase):\n"
             "     def test_add(self):\n-        self.assertEqual(add(1, 2), 3)\n+        self.assertEqual(1, 1)\n")
    prepared = world.prepare(patch)
    assert isinstance(prepared, PreparedTree), prepared
    assert [c.path for c in prepared.changes] == ["tests/test_app.py"]
    assert prepared.reverted == ("tests/test_app.py",)
    assert (world.tree / "tests" / "test_app.py").read_text() == TEST_APP


def test_new_deleted_renamed_and_copied_test_files_are_put_back(world):
    patch = ("diff --git a/tests/test_app.py b/tests/test_gone.py\nsimilarity index 100%\nrename from tests/test_app.py\n"
             "rename to tests/test_gone.py\ndiff --git a/src/app.py b/tests/test_copy.py\nsimilarity index 100%\n"
             "copy from src/app.py\ncopy to tests/test_copy.py\n"
             "diff --git a/tests/__init__.py b/tests/__init__.py\ndeleted file mode 100644\n")
    prepared = world.prepare(patch)
    assert isinstance(prepared, PreparedTree), prepared
    assert set(prepared.reverted) == {"tests/test_gone.py", "tests/test_copy.py", "tests/test_app.py",
                                      "tests/__init__.py"}
    files = tree_files(world.tree)
    assert {p for p in files if p.startswith("tests/")} == {"tests/__init__.py", "tests/test_app.py",
                                                            "tests/test_hidden.py"}
    assert files["tests/test_app.py"] == TEST_APP


# --- git's view of where the tree is ----------------------------------------------------------

def test_a_git_repository_planted_above_the_tree_changes_nothing(world):
    # Without GIT_CEILING_DIRECTORIES, git would take scratch/ as the repository and apply
    # the patch relative to it: silently to nothing, breaking even the gold patch.
    subprocess.run(["git", "init", "-q", str(world.scratch)], check=True, env={"PATH": "/usr/bin:/bin"})
    subprocess.run(["git", "init", "-q", str(world.root)], check=True, env={"PATH": "/usr/bin:/bin"})
    before = world.snapshot()
    prepared = world.prepare(GOLD)
    assert isinstance(prepared, PreparedTree), prepared
    assert (world.tree / "src" / "app.py").read_text() == APP.replace("a - b", "a + b")
    assert world.snapshot() == before


def test_check_patch_applies_leaves_no_trace(world):
    before = world.snapshot()
    assert [c.path for c in check_patch_applies(world.clean, GOLD, scratch=world.run_dir).changes] == ["src/app.py"]
    with pytest.raises(TreeRefused) as info:
        check_patch_applies(world.clean, GOLD.replace("a - b", "a * b"), scratch=world.run_dir)
    assert info.value.code == "patch_does_not_apply"
    assert world.snapshot() == before


# --- links and special files already in a tree ------------------------------------------------

def test_hard_link_in_the_clean_tree_is_refused_and_the_host_file_untouched(world):
    os.link(world.host / "secret.txt", world.clean / "src" / "linked.py")
    before = world.snapshot()
    outcome = world.prepare(GOLD)
    assert isinstance(outcome, TreeRefused) and outcome.code == "tree_hardlink"
    assert world.snapshot() == before


def test_fifo_in_the_clean_tree_is_refused_without_blocking(world):
    os.mkfifo(world.clean / "src" / "pipe")
    before = world.snapshot()
    outcome = world.prepare(GOLD)
    assert isinstance(outcome, TreeRefused) and outcome.code == "tree_special_file"
    assert world.snapshot() == before


def test_symlink_in_the_clean_tree_is_refused(world):
    os.symlink(world.host / "tests", world.clean / "spec")
    outcome = world.prepare(None)
    assert isinstance(outcome, TreeRefused) and outcome.code == "tree_symlink"
    assert list((world.host / "tests").iterdir()) == []


def test_writes_never_go_through_a_link_or_a_hard_link(world):
    # The last line of defence, on its own: a tree that already holds a symlinked directory,
    # a symlinked file, a hard link and a FIFO where the oracle and the tests are written.
    tree = world.scratch / "planted"
    (tree / "tests").mkdir(parents=True)
    os.symlink(world.host / "hostdir", tree / "spec")
    os.symlink(world.host / "secret.txt", tree / "tests" / "test_app.py")
    os.link(world.host / "hostdir" / "keep.txt", tree / "tests" / "test_kept.py")
    os.mkfifo(tree / "tests" / "test_pipe.py")
    before = snapshot(world.root, exclude=tree)
    with open_dir(tree) as fd:
        for rel, code in [("spec/new.py", "tree_symlink"), ("tests/test_app.py", "tree_symlink"),
                          ("tests/test_kept.py", "tree_hardlink"), ("tests/test_pipe.py", "tree_special_file")]:
            with pytest.raises(TreeRefused) as info:
                write_file(fd, rel, b"planted")
            assert info.value.code == code, rel
        with pytest.raises(TreeRefused):
            walk(fd)
        assert remove_file(fd, "tests/test_app.py")  # removes the link itself, not its target
    assert snapshot(world.root, exclude=tree) == before
    assert not (tree / "tests" / "test_app.py").exists()
    assert (world.host / "secret.txt").read_text() == SECRET


def test_oracle_paths_are_checked(world):
    for bad in ("../x.py", "/tmp/x.py", ".git/hooks/post-checkout", "tests//x.py"):
        outcome = world.prepare(None, oracle={bad: "x"})
        assert isinstance(outcome, TreeRefused) and outcome.code == "oracle_path_invalid", bad


def test_gold_patch_prepares_with_oracle_and_no_git_metadata(world):
    prepared = world.prepare(GOLD)
    assert isinstance(prepared, PreparedTree) and prepared.reverted == ()
    files = tree_files(world.tree)
    assert files["tests/test_hidden.py"] == ORACLE["tests/test_hidden.py"]
    assert ".git/HEAD" not in files and not (world.tree / ".git").exists()
    assert os.stat(world.tree / "bin" / "run.sh").st_mode & 0o111


def test_destination_must_be_new(world):
    world.tree.mkdir(parents=True)
    with pytest.raises(FileExistsError):
        prepare_tree(world.clean, world.tree, patch=None, oracle_files=ORACLE)
