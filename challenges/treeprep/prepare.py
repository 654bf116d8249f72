"""Build the private tree an evaluation runs on: clean copy + patch − test edits + hidden tests."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from challenges.treeprep import errors as e
from challenges.treeprep.errors import TreeRefused
from challenges.treeprep.fsops import copy_tree, open_dir, read_file, remove_file, walk, write_file
from challenges.treeprep.gitpatch import PatchEntry, apply_patch, read_patch

_TEST_FILE = re.compile(r"(^|/)(tests?|__tests__|spec)/|(^|/)test_[^/]*\.py$|_test\.py$|\.(test|spec)\.[cm]?js$")


def is_test_path(path: str) -> bool:
    """Whether ``path`` is a test file: an agent's edits to those never count."""
    return bool(_TEST_FILE.search(path))


@dataclass(frozen=True)
class PreparedTree:
    root: Path
    changes: tuple[PatchEntry, ...] = ()  # every file of the patch, as git reported it
    reverted: tuple[str, ...] = ()  # test files put back to the clean workspace's state


def _oracle_path(path: str) -> str:
    relative = PurePosixPath(path)
    if not path or relative.is_absolute() or any(part in ("..", ".git") for part in relative.parts) \
            or relative.as_posix() != path:
        raise TreeRefused(e.ORACLE_PATH_INVALID, f"oracle file path {path!r} is not a plain path inside the "
                                                 "workspace.", path)
    return path


def _restore_tests(clean_fd: int, tree_fd: int, clean_tests: Mapping[str, int], is_test: Callable[[str], bool]
                   ) -> list[str]:
    """Every test file ends as in the clean workspace, whatever the patch did or how it named it.

    The rule reads the tree as it is after ``git apply`` rather than the patch text, so no
    spelling of a name in the patch (quoted, escaped, renamed, copied) can escape it.
    """
    reverted = []
    now = walk(tree_fd)
    for rel in sorted((p for p in now.files if is_test(p) and p not in clean_tests), reverse=True):
        remove_file(tree_fd, rel)
        reverted.append(rel)
    for rel, bits in sorted(clean_tests.items()):
        original = read_file(clean_fd, rel)
        if original is None:
            raise TreeRefused(e.TREE_CONFLICT, f"{rel!r} disappeared from the clean workspace.", rel)
        mode = 0o755 if bits & 0o111 else 0o644
        if read_file(tree_fd, rel) != original or now.files.get(rel) != mode:
            write_file(tree_fd, rel, original, mode)
            reverted.append(rel)
    return sorted(set(reverted))


def prepare_tree(clean_tree: Path, dest: Path, *, patch: str | None, oracle_files: Mapping[str, str],
                 is_test: Callable[[str], bool] = is_test_path) -> PreparedTree:
    """Make ``dest`` (which must not exist; its parent must be private to this evaluation).

    1. copy the clean tree without its ``.git``, regular files and directories only;
    2. read the patch with git (paths, modes, rename and copy sources) and apply it with git;
    3. refuse the tree if it now holds a link, a hard link or a special file;
    4. put every test file back as it was in the clean tree;
    5. write the hidden oracle files.
    Steps 4 and 5 open every path component without following links. Raises ``TreeRefused``.
    """
    for path in oracle_files:
        _oracle_path(path)
    dest.mkdir(mode=0o700)
    changes: tuple[PatchEntry, ...] = ()
    reverted: tuple[str, ...] = ()
    with open_dir(clean_tree) as clean_fd, open_dir(dest) as tree_fd:
        clean = copy_tree(clean_fd, tree_fd, skip_top=[".git"])
        if patch:
            try:
                data = patch.encode("utf-8")
            except UnicodeEncodeError:
                raise TreeRefused(e.PATCH_MALFORMED, "The patch is not valid UTF-8 text.") from None
            changes = tuple(read_patch(data, tree=dest, clean_files=clean.files.keys()))
            apply_patch(data, tree=dest)
            walk(tree_fd)
            clean_tests = {rel: bits for rel, bits in clean.files.items() if is_test(rel)}
            reverted = tuple(_restore_tests(clean_fd, tree_fd, clean_tests, is_test))
        for path, content in sorted(oracle_files.items()):
            write_file(tree_fd, path, content.encode("utf-8"))
        walk(tree_fd)
    return PreparedTree(dest, changes, reverted)


def check_patch_applies(clean_tree: Path, patch: str, *, scratch: Path | None = None) -> PreparedTree:
    """Prepare ``patch`` on a throw-away private copy of ``clean_tree``; raise ``TreeRefused`` if refused."""
    if not patch or not patch.strip():
        raise TreeRefused(e.PATCH_EMPTY, "The patch is empty.")
    with tempfile.TemporaryDirectory(prefix="chk-", dir=scratch) as tmp:
        return prepare_tree(clean_tree, Path(tmp) / "workspace", patch=patch, oracle_files={})
