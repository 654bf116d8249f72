"""A clean workspace, a "host" around it and a way to prove nothing outside the private tree moved.

The layout under one temporary directory::

    host/               stands for the worker's files: secret.txt, hostdir/, tests/ (a target for links)
    clean/workspace/    the clean workspace (with a .git), as the read-only cache holds it
    scratch/run/        the private directory of one preparation; the tree is scratch/run/workspace

``snapshot`` records every entry under the root except the private directory (kind, mode,
size, mtime, content digest, link target), so "the host is unchanged" is one comparison.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from challenges.treeprep import CODES, TreeRefused, prepare_tree

APP = "def add(a, b):\n    return a - b\n"
TEST_APP = "import unittest\n\nfrom src.app import add\n\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n"
ORACLE = {"tests/test_hidden.py": "import unittest\n\n\nclass H(unittest.TestCase):\n    def test_hidden(self):\n        pass\n"}
SECRET = "host secret: do not touch\n"
GOLD = """diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
"""


@dataclass
class World:
    root: Path
    host: Path
    clean: Path
    scratch: Path

    @property
    def run_dir(self) -> Path:
        return self.scratch / "run"

    @property
    def tree(self) -> Path:
        return self.run_dir / "workspace"

    def snapshot(self) -> dict[str, tuple]:
        return snapshot(self.root, exclude=self.run_dir)

    def prepare(self, patch: str | None, oracle: dict[str, str] | None = None):
        """Prepare into a fresh private directory; returns the PreparedTree or the TreeRefused."""
        if self.tree.exists():
            shutil.rmtree(self.tree)
        try:
            return prepare_tree(self.clean, self.tree, patch=patch, oracle_files=ORACLE if oracle is None else oracle)
        except TreeRefused as exc:
            assert exc.code in CODES
            return exc


def make_world(root: Path) -> World:
    host, clean, scratch = root / "host", root / "clean" / "workspace", root / "scratch"
    (host / "hostdir").mkdir(parents=True)
    (host / "tests").mkdir()
    (host / "secret.txt").write_text(SECRET)
    (host / "hostdir" / "keep.txt").write_text("keep\n")
    (clean / "src").mkdir(parents=True)
    (clean / "tests").mkdir()
    (clean / "bin").mkdir()
    (clean / ".git").mkdir()
    (clean / "src" / "app.py").write_text(APP)
    (clean / "src" / "__init__.py").write_text("")
    (clean / "tests" / "__init__.py").write_text("")
    (clean / "tests" / "test_app.py").write_text(TEST_APP)
    (clean / "README.md").write_text("# adder\n")
    (clean / "bin" / "run.sh").write_text("#!/bin/sh\necho run\n")
    os.chmod(clean / "bin" / "run.sh", 0o755)
    (clean / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (scratch / "run").mkdir(parents=True, mode=0o700)
    return World(root, host, clean, scratch)


def snapshot(root: Path, *, exclude: Path | None = None) -> dict[str, tuple]:
    found: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        if exclude is not None and (here == exclude or exclude in here.parents):
            dirnames[:] = []
            continue
        for name in [*dirnames, *filenames]:
            path = here / name
            if exclude is not None and path == exclude:
                continue
            info = path.lstat()
            rel = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                found[rel] = ("file", info.st_mode, info.st_size, info.st_mtime_ns, info.st_nlink,
                              hashlib.sha256(path.read_bytes()).hexdigest())
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", info.st_mode, info.st_mtime_ns)
            else:
                found[rel] = ("special", info.st_mode, info.st_mtime_ns)
    return found


def tree_files(tree: Path) -> dict[str, str]:
    return {str(p.relative_to(tree)): p.read_text() for p in sorted(tree.rglob("*")) if p.is_file()}
