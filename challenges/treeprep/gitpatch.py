"""What a patch does, as git itself reads it, and the one way the platform runs git on it.

Nothing here reads the patch text with a pattern of its own: ``git apply --numstat -z
--summary`` says which files the patch touches (NUL-terminated, so no quoting or escaping
can hide a name), how it creates, deletes, renames or copies them and with which modes.
Every path git reports is checked, every mode must be a regular file's, and a rename or
copy may only start from a file of the clean workspace: ``git apply`` checks the paths it
writes but, for a copy, not the one it reads (``copy from /etc/passwd`` is accepted).

Every git process runs with a closed environment: no system or global configuration, no
home, and ``GIT_CEILING_DIRECTORIES`` at the parent of the tree, so a ``.git`` planted
anywhere above the tree can neither be found nor change how the patch applies.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from challenges.treeprep import errors as e
from challenges.treeprep.errors import TreeRefused

REGULAR_MODES = frozenset({0o100644, 0o100755})
SYMLINK_MODE, GITLINK_MODE = 0o120000, 0o160000
MAX_PATH_BYTES = 1024
MAX_COMPONENT_BYTES = 255
GIT_TIMEOUT_SECONDS = 30


@dataclass(frozen=True)
class PatchEntry:
    """One file of a patch, as git reports it."""

    path: str  # the path git writes (for a deletion, the one it removes)
    kind: str  # "modify" | "create" | "delete" | "rename" | "copy" | "rewrite"
    source: str | None = None  # for a rename or copy: the clean workspace file it starts from
    mode: int | None = None  # the resulting mode, when git reports one


def git_env(tree: Path) -> dict[str, str]:
    """The whole environment of a git process working in ``tree`` (agent-influenced).

    No repository is looked for above ``tree`` (the ceiling is its parent), no configuration
    file is read (system, global or XDG), and nothing can prompt.
    """
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": "/nonexistent",
        "XDG_CONFIG_HOME": "/nonexistent",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_CEILING_DIRECTORIES": os.path.realpath(tree.parent),
        "GIT_TERMINAL_PROMPT": "0",
        "LC_ALL": "C",
    }


def run_git(args: list[str], *, tree: Path, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=tree, input=stdin, capture_output=True, env=git_env(tree),
                          timeout=GIT_TIMEOUT_SECONDS, check=False)


def _first_line(stderr: bytes, fallback: str) -> str:
    lines = [line.strip() for line in stderr.decode(errors="replace").splitlines() if line.strip()]
    return lines[0][:160] if lines else fallback


# --- paths ------------------------------------------------------------------------------

def _is_git_dir_name(part: str) -> bool:
    # ".git" however a case-insensitive or trailing-dot/space-stripping filesystem spells it.
    lowered = part.lower().rstrip(". ")
    return lowered == ".git" or lowered == "git~1"


def check_path(path: str) -> str:
    """Refuse a workspace path that is absolute, leaves the tree, names ``.git`` or is malformed."""
    if not path:
        raise TreeRefused(e.PATCH_PATH_INVALID, "The patch names an empty path.", path)
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path) or "\\" in path:
        raise TreeRefused(e.PATCH_PATH_INVALID, f"Path {path!r} holds a control character or a backslash.", path)
    if path.startswith("/"):
        raise TreeRefused(e.PATCH_PATH_OUTSIDE, f"Path {path!r} is absolute.", path)
    parts = path.split("/")
    if ".." in parts:
        raise TreeRefused(e.PATCH_PATH_OUTSIDE, f"Path {path!r} leaves the workspace.", path)
    if any(_is_git_dir_name(part) for part in parts):
        raise TreeRefused(e.PATCH_PATH_OUTSIDE, f"Path {path!r} is inside repository metadata.", path)
    if any(part in ("", ".") for part in parts):
        raise TreeRefused(e.PATCH_PATH_INVALID, f"Path {path!r} is not normalised.", path)
    if len(path.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES or any(
            len(part.encode("utf-8", "surrogatepass")) > MAX_COMPONENT_BYTES for part in parts):
        raise TreeRefused(e.PATCH_PATH_INVALID, f"Path {path[:80]!r}… is too long.", path[:200])
    return path


def check_mode(mode: int | None, path: str) -> None:
    if mode is None or mode in REGULAR_MODES:
        return
    if mode == SYMLINK_MODE:
        raise TreeRefused(e.PATCH_SYMLINK, f"The patch makes {path!r} a symbolic link; only regular files are "
                                           "accepted.", path)
    if mode == GITLINK_MODE:
        raise TreeRefused(e.PATCH_SUBMODULE, f"The patch makes {path!r} a submodule; only regular files are "
                                             "accepted.", path)
    raise TreeRefused(e.PATCH_MODE_INVALID, f"The patch gives {path!r} mode {mode:06o}; only 100644 and 100755 "
                                            "are accepted.", path)


# --- git's report -------------------------------------------------------------------------

def _render_rename(old: str, new: str) -> str:
    """``old => new`` exactly as ``git apply --summary`` prints it (a shared directory prefix in braces)."""
    o = n = 0
    while True:
        so, sn = old.find("/", o), new.find("/", n)
        if so < 0 or sn < 0 or so - o != sn - n or old[o:so] != new[n:sn]:
            break
        o, n = so + 1, sn + 1
    if o:
        return f"{old[:o]}{{{old[o:]} => {new[n:]}}}"
    return f"{old} => {new}"


_MODE = re.compile(r"[0-7]{1,7}")
_SCORE_END = re.compile(r" \(\d{1,3}%\)\n")


class _Summary:
    """A cursor over git's ``--summary`` text. Each step either matches and advances, or does nothing."""

    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def take(self, literal: str) -> bool:
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def take_mode(self) -> int | None:
        match = _MODE.match(self.text, self.pos)
        if not match:
            return None
        self.pos = match.end()
        return int(match.group(), 8)

    def take_score_end(self) -> bool:
        match = _SCORE_END.match(self.text, self.pos)
        if match:
            self.pos = match.end()
        return bool(match)

    def attempt(self, *steps) -> tuple | None:
        """Run ``steps`` (literals or callables); all must match, or the cursor stays where it was."""
        start, found = self.pos, []
        for step in steps:
            if isinstance(step, str):
                ok = self.take(step)
            else:
                value = step()
                ok = value is not None and value is not False
                found.append(value)
            if not ok:
                self.pos = start
                return None
        return tuple(found)

    @property
    def done(self) -> bool:
        return self.pos == len(self.text)


def _mode_change(summary: _Summary, name: str | None) -> tuple[int, int] | None:
    tail = "\n" if name is None else f" {name}\n"
    found = summary.attempt(" mode change ", summary.take_mode, " => ", summary.take_mode, tail)
    return (found[0], found[1]) if found else None


def _new_mode(change: tuple[int, int] | None, name: str) -> int | None:
    if change is None:
        return None
    check_mode(change[0], name)
    return change[1]


def _entry(summary: _Summary, name: str, clean_files: Collection[str]) -> PatchEntry:
    """The summary lines of one file of the patch, in the order git prints them."""
    if found := summary.attempt(" create mode ", summary.take_mode, f" {name}\n"):
        return PatchEntry(name, "create", mode=found[0])
    if summary.take(f" create {name}\n"):
        return PatchEntry(name, "create")
    if found := summary.attempt(" delete mode ", summary.take_mode, f" {name}\n"):
        return PatchEntry(name, "delete", mode=found[0])
    if summary.take(f" delete {name}\n"):
        return PatchEntry(name, "delete")
    for kind in ("rename", "copy"):
        if not summary.text.startswith(f" {kind} ", summary.pos):
            continue
        # The source must be a file of the clean workspace: then whatever git printed for it
        # is one of a known set of lines, and nothing outside the tree is ever read.
        for source in sorted(clean_files):
            if summary.attempt(f" {kind} {_render_rename(source, name)}", summary.take_score_end):
                return PatchEntry(name, kind, source=source, mode=_new_mode(_mode_change(summary, None), name))
    if summary.attempt(f" rewrite {name}", summary.take_score_end):
        return PatchEntry(name, "rewrite", mode=_new_mode(_mode_change(summary, None), name))
    if change := _mode_change(summary, name):
        return PatchEntry(name, "modify", mode=_new_mode(change, name))
    return PatchEntry(name, "modify")


def _numstat_names(raw: bytes) -> list[str]:
    names = []
    for record in raw.split(b"\0"):
        added, _, rest = record.partition(b"\t")
        deleted, _, name = rest.partition(b"\t")
        if not name:
            raise TreeRefused(e.PATCH_MALFORMED, "git could not read the patch's file list.")
        if added == b"-" or deleted == b"-":
            raise TreeRefused(e.PATCH_BINARY, "Binary patches are not accepted; submit a text unified diff.")
        try:
            names.append(name.decode("utf-8"))
        except UnicodeDecodeError:
            raise TreeRefused(e.PATCH_PATH_INVALID, f"Path {name[:80]!r} is not valid UTF-8.") from None
    return names


def read_patch(patch: bytes, *, tree: Path, clean_files: Collection[str]) -> list[PatchEntry]:
    """Every file ``patch`` touches, as git reads it, after checking paths, modes and sources.

    ``tree`` is the private directory git runs in (nothing is written); ``clean_files`` are
    the clean workspace's regular files, the only allowed sources of a rename or copy.
    """
    result = run_git(["apply", "--numstat", "-z", "--summary", "-p1"], tree=tree, stdin=patch)
    if result.returncode != 0:
        raise TreeRefused(e.PATCH_MALFORMED, f"This is not a patch git can read: "
                                             f"{_first_line(result.stderr, 'no valid patch')}")
    out = result.stdout
    # The --numstat records end in NUL; the summary after them never holds one (paths cannot).
    cut = out.rfind(b"\0")
    if cut < 0:
        raise TreeRefused(e.PATCH_MALFORMED, "This is not a unified diff (git found no file in it).")
    names = _numstat_names(out[:cut])
    for name in names:
        check_path(name)
    summary = _Summary(out[cut + 1:].decode("utf-8", "surrogateescape"))
    entries = []
    for name in names:
        entry = _entry(summary, name, clean_files)
        check_mode(entry.mode, entry.path)
        if entry.source is not None:
            check_path(entry.source)
        entries.append(entry)
    if not summary.done:
        rest = summary.text[summary.pos:]
        if rest.startswith((" copy ", " rename ")):
            raise TreeRefused(e.PATCH_COPY_SOURCE, "A rename or copy in the patch starts from a path that is not a "
                                                   "file of the workspace.")
        if (mode := _MODE.search(rest)) and int(mode.group(), 8) not in REGULAR_MODES:
            check_mode(int(mode.group(), 8), "?")
        raise TreeRefused(e.PATCH_MALFORMED, "git described the patch in a way that could not be checked.")
    return entries


def apply_patch(patch: bytes, *, tree: Path) -> None:
    """``git apply`` in ``tree``: all or nothing, never with ``--unsafe-paths``."""
    result = run_git(["apply", "--whitespace=nowarn", "-p1"], tree=tree, stdin=patch)
    if result.returncode != 0:
        detail = _first_line(result.stderr, "git apply refused it")
        raise TreeRefused(e.PATCH_DOES_NOT_APPLY, f"The patch does not apply to the workspace: {detail}")
