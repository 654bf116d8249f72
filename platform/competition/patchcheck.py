"""Cheap, early checks on a submitted unified diff (pure, no Django).

Refuses, with a stable code each: an empty patch, one over the size limit, binary
content, a path that is absolute, leaves the workspace or names ``.git``
(``patch_path_outside``) or is malformed (``patch_path_invalid``), and a mode that is not
a regular file's (``patch_symlink``, ``patch_submodule``, ``patch_mode_invalid``; modes are
read as git reads them, so ``0120000`` and ``120000 `` are symlinks too), and a rename or copy
from such a path (``patch_copy_source``).

This is not the security boundary: it reads the text line by line and cannot see, say,
a quoted name the way git does. The boundary is ``challenges.treeprep``, which lets git
itself read and apply the patch in a private copy and uses the same codes; a patch that
passes here is prepared there at once, before the submission is accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_MAX_BYTES = 256 * 1024

_HEADER = re.compile(r"^(---|\+\+\+) (?P<path>\S+)")
_GIT_HEADER = re.compile(r"^diff --git (?P<a>\S+) (?P<b>\S+)$")
_MODE = re.compile(r"^(new file mode|deleted file mode|old mode|new mode) (?P<mode>\S+)\s*$")
_INDEX_MODE = re.compile(r"^index [0-9a-fA-F]+\.\.[0-9a-fA-F]+ (?P<mode>\S+)\s*$")
_REGULAR_MODES = {0o100644, 0o100755}
_RENAME = re.compile(r"^(rename|copy) (from|to) (?P<path>.+)$")  # group 2: "from" or "to"


@dataclass(frozen=True)
class PatchRejected(Exception):
    code: str
    message: str
    path: str | None = None

    def __str__(self) -> str:
        return self.message


def _strip_prefix(path: str) -> str:
    if path == "/dev/null":
        return path
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def _check_path(raw: str) -> str:
    path = _strip_prefix(raw)
    if path == "/dev/null":
        return path
    if path.startswith("/"):
        raise PatchRejected("patch_path_outside", f"Path {raw!r} is absolute.", raw)
    parts = path.split("/")
    if ".." in parts:
        raise PatchRejected("patch_path_outside", f"Path {raw!r} leaves the workspace.", raw)
    if any(part.lower().rstrip(". ") == ".git" for part in parts):
        raise PatchRejected("patch_path_outside", f"Path {raw!r} is inside the repository metadata.", raw)
    if "\\" in path or "\x00" in path or any(part in ("", ".") for part in parts):
        raise PatchRejected("patch_path_invalid", f"Path {raw!r} is malformed or not normalised.", raw)
    return path


def _check_mode(text: str) -> None:
    try:
        mode = int(text, 8)  # as git reads it: leading zeros are the same mode
    except ValueError:
        raise PatchRejected("patch_mode_invalid", f"Mode {text!r} is not an octal file mode.") from None
    if mode == 0o120000:
        raise PatchRejected("patch_symlink", "Patches may not create symbolic links.")
    if mode == 0o160000:
        raise PatchRejected("patch_submodule", "Patches may not create submodules.")
    if mode not in _REGULAR_MODES:
        raise PatchRejected("patch_mode_invalid", f"Mode {text} is not a regular file's (100644 or 100755).")


def check_patch(text: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> list[str]:
    """Validate ``text`` as a safe unified diff; return the workspace paths it touches."""
    if not text or not text.strip():
        raise PatchRejected("patch_empty", "The patch is empty.")
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise PatchRejected("patch_too_large", f"The patch is {size} bytes; the limit is {max_bytes}.")
    if "\x00" in text or "GIT binary patch" in text or re.search(r"^Binary files .* differ$", text, re.M):
        raise PatchRejected("patch_binary", "Binary patches are not accepted; submit a text unified diff.")
    touched: list[str] = []
    saw_hunk = False
    for line in text.splitlines():
        if line.startswith("@@"):
            saw_hunk = True
            continue
        if match := _GIT_HEADER.match(line):
            _check_path(match.group("a"))
            _check_path(match.group("b"))
        elif (match := _MODE.match(line)) or (match := _INDEX_MODE.match(line)):
            _check_mode(match.group("mode"))
        elif match := _RENAME.match(line):
            try:
                _check_path(match.group("path"))
            except PatchRejected as exc:
                if match.group(2) != "from":
                    raise
                raise PatchRejected("patch_copy_source", "A rename or copy starts from a path that is not a file of "
                                                         "the workspace.", exc.path) from None
        elif line.startswith(("--- ", "+++ ")) and (match := _HEADER.match(line)):
            path = _check_path(match.group("path"))
            if path != "/dev/null" and path not in touched:
                touched.append(path)
    if not saw_hunk or not touched:
        raise PatchRejected("patch_malformed", "This is not a unified diff (no file headers or hunks found).")
    return touched
