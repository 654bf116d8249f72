"""Property: whatever patch headers, modes and paths an agent writes, tree preparation either
refuses with a stable code or yields a plain tree, and nothing outside the private tree is
ever created, modified or deleted."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from challenges.treeprep import CODES, PreparedTree, TreeRefused, is_test_path
from tests.security.tree_support import ORACLE, make_world

COMPONENTS = [
    "src", "tests", "app.py", "test_app.py", "__init__.py", "README.md", "bin", "run.sh", "new.py",
    "..", ".", "", ".git", ".GIT", ".git.", "git~1", "sub", "é", "日本語", "a b", "x\ny", "x\tz", "\\", 'a"b',
    "\x01", "\x7f", "-", "~", "x" * 300, "\u202e", "{", "}", " => ", "(100%)", "HOST",
]
MODES = ["100644", "100755", "120000", "0120000", "120000 ", "00120000\t", "160000", "100600", "040000", "644",
         "0100644", "1200000", "777777", "abc", ""]
CONTENTS = ["x", "HOST/secret.txt", "../../host/secret.txt", "/etc/passwd", "HOST/tests", "+++ ../../host/secret.txt"]

VALID = ["src/app.py", "tests/test_app.py", "tests/__init__.py", "README.md", "bin/run.sh", "src/new.py",
         "tests/test_new.py", "docs/é.md", "spec/x.test.js"]
HOSTILE = ["HOST/secret.txt", "../../host/secret.txt", "../host/tests/x.py", "tests", "spec", ".git/config"]
paths = st.one_of(
    st.sampled_from(VALID),
    st.sampled_from(VALID),
    st.sampled_from(HOSTILE),
    st.lists(st.sampled_from(COMPONENTS), min_size=1, max_size=4).map("/".join),
)
modes = st.one_of(st.just("100644"), st.just("100755"), st.sampled_from(MODES))


def _c_quote(text: str, octal_all: bool) -> str:
    out = []
    for byte in text.encode("utf-8", "surrogatepass"):
        char = chr(byte)
        if not octal_all and 32 <= byte < 127 and char not in '"\\':
            out.append(char)
        elif char in '"\\' and not octal_all:
            out.append("\\" + char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _spell(path: str, prefix: str, style: str) -> str:
    prefixed = prefix + path
    return prefixed if style == "raw" else _c_quote(prefixed, style == "octal")


@st.composite
def sections(draw) -> str:
    old = draw(paths)
    new = old if draw(st.integers(0, 4)) else draw(paths)
    style = draw(st.sampled_from(["raw", "raw", "quoted", "octal"]))
    prefix_a, prefix_b = ("a/", "b/") if draw(st.integers(0, 5)) else draw(st.sampled_from([("", ""), ("a//", "b//")]))
    a, b = _spell(old, prefix_a, style), _spell(new, prefix_b, style)
    mode, mode2 = draw(modes), draw(modes)
    content = draw(st.sampled_from(CONTENTS))
    kind = draw(st.sampled_from(["new", "delete", "modify", "rename", "copy", "mode", "bare"]))
    header = f"diff --git {a} {b}\n" if draw(st.integers(0, 5)) else ""
    if kind == "new":
        return f"{header}new file mode {mode}\n--- /dev/null\n+++ {b}\n@@ -0,0 +1 @@\n+{content}\n"
    if kind == "delete":
        return f"{header}deleted file mode {mode}\n--- {a}\n+++ /dev/null\n@@ -1 +0,0 @@\n-{content}\n"
    if kind == "modify":
        index = f"index 1111111..2222222 {mode}\n" if draw(st.booleans()) else ""
        return (f"{header}{index}--- {a}\n+++ {b}\n@@ -1,2 +1,3 @@\n def add(a, b):\n-    return a - b\n"
                f"+    return a + b\n+{content}\n")
    if kind in ("rename", "copy"):
        return f"{header}similarity index 100%\n{kind} from {_spell(old, '', style)}\n{kind} to {_spell(new, '', style)}\n"
    if kind == "mode":
        return f"{header}old mode {mode}\nnew mode {mode2}\n"
    return f"--- {a}\n+++ {b}\n@@ -1 +1 @@\n-# adder\n+{content}\n"


def _plain_tree(tree: Path) -> None:
    """Independently of the code under test: only directories and single-link regular files, all inside."""
    real = os.path.realpath(tree)
    for dirpath, dirnames, filenames in os.walk(tree, followlinks=False):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            info = path.lstat()
            assert stat.S_ISDIR(info.st_mode) or (stat.S_ISREG(info.st_mode) and info.st_nlink == 1), path
            assert os.path.realpath(path).startswith(real + os.sep), path


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(sections(), min_size=1, max_size=3), st.booleans())
def test_generated_patches_never_touch_anything_outside_the_private_tree(parts, junk_in_hunk):
    with tempfile.TemporaryDirectory() as tmp:
        world = make_world(Path(tmp))
        patch = "".join(parts).replace("HOST", str(world.host))
        if junk_in_hunk:
            patch = patch.replace("\n+", "\n+++ ../../host/secret.txt\n+", 1)
        before = world.snapshot()
        outcome = world.prepare(patch)
        assert world.snapshot() == before
        if isinstance(outcome, TreeRefused):
            event(outcome.code)
            assert outcome.code in CODES and outcome.message
            return
        event("prepared")
        assert isinstance(outcome, PreparedTree)
        _plain_tree(world.tree)
        tests_now = {str(p.relative_to(world.tree)) for p in world.tree.rglob("*")
                     if p.is_file() and is_test_path(str(p.relative_to(world.tree)))}
        tests_clean = {str(p.relative_to(world.clean)) for p in world.clean.rglob("*")
                       if p.is_file() and is_test_path(str(p.relative_to(world.clean))) and ".git" not in p.parts}
        assert tests_now == tests_clean | set(ORACLE)
        for rel in tests_clean:
            assert (world.tree / rel).read_bytes() == (world.clean / rel).read_bytes()
